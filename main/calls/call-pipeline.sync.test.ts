import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CoreEvents } from '../platform/events.js';
import { Logger } from '../platform/log.js';
import { SettingsStore } from '../platform/settings.js';
import { ActivityLog } from '../store/activity.js';
import { openDatabase } from '../store/db.js';
import { ToolRegistry } from '../tools/registry.js';
import { SchemaWorkerPool } from '../tools/schema-worker-pool.js';
import type { ToolSource } from '../tools/types.js';
import { CallPipeline, type CallPipelineDeps } from './call-pipeline.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 34: an everyday call — registry ready, a small schema, a third-party tool on auto —
 * reaches its source without awaiting anything first (each await of a settled promise is
 * microtask turns and promise hooks on every call). Checked by order, not by time: the source
 * has been called when `call()` hands back its promise.
 */
describe('CallPipeline, an everyday call', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  function pipeline(source: ToolSource) {
    const dir = tempDir('airlock-pipeline-');
    dirs.push(dir);
    const registry = new ToolRegistry();
    registry.add(source);
    const settings = new SettingsStore(join(dir, 'settings.json'));
    // The user set the tool to run without asking (the bench's and a relay's everyday case).
    settings.update((d) => {
      d.tools['srv/echo'] = { approval: 'auto' };
    });
    const deps = {
      registry,
      settings,
      agents: { get: () => undefined },
      activity: new ActivityLog(openDatabase(':memory:')),
      validator: new SchemaWorkerPool(),
      events: new CoreEvents(),
      logger: new Logger({ stderr: false }),
    } as unknown as CallPipelineDeps;
    return { pipeline: new CallPipeline(deps), registry, deps };
  }

  function remote(call: ToolSource['call']): ToolSource {
    return {
      id: 'srv',
      kind: 'remote',
      label: 'srv',
      prefix: 'srv',
      ready: () => Promise.resolve(),
      status: () => ({ state: 'ready' }),
      tools: () => [
        {
          name: 'echo',
          description: 'echo',
          inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
          annotations: { readOnlyHint: false },
        },
      ],
      call,
      onChange: () => () => {},
    } as unknown as ToolSource;
  }

  it('calls the source before call() returns, once the registry is ready', async () => {
    const call = vi.fn(async () => ({ content: [{ type: 'text' as const, text: 'ok' }] }));
    const { pipeline: p, registry } = pipeline(remote(call));
    await registry.whenReady();
    const signal = new AbortController().signal;
    const pending = p.call('agent', 'srv__echo', { message: 'hi' }, { signal });
    expect(call).toHaveBeenCalledTimes(1);
    await expect(pending).resolves.toMatchObject({ content: [{ type: 'text', text: 'ok' }] });
  });

  it('still refuses invalid arguments (inline validation) without calling the source', async () => {
    const call = vi.fn(async () => ({ content: [] }));
    const { pipeline: p, registry } = pipeline(remote(call));
    await registry.whenReady();
    const result = await p.call(
      'agent',
      'srv__echo',
      { message: 3 },
      {
        signal: new AbortController().signal,
      },
    );
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('Invalid arguments for srv__echo');
    expect(call).not.toHaveBeenCalled();
  });
});
