import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AskRequest } from '../approvals/engine.js';
import { CoreEvents } from '../platform/events.js';
import { Logger } from '../platform/log.js';
import { SettingsStore } from '../platform/settings.js';
import { ActivityLog } from '../store/activity.js';
import { openDatabase } from '../store/db.js';
import { ToolRegistry } from '../tools/registry.js';
import { SchemaWorkerPool } from '../tools/schema-worker-pool.js';
import { errorResult, type ToolSource } from '../tools/types.js';
import { CallPipeline, type CallPipelineDeps } from './call-pipeline.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * A task's call (the only one given taskStatus, gateway/mcp-handlers/tasks.ts) waits on its
 * approval quiet: no periodic "waiting" progress on the task's progressToken, whose values would
 * start again at 1 with each wait (approvals/engine-types.ts quiet). A plain call keeps its ticks.
 */
describe('CallPipeline, a call asked about', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  function pipeline() {
    const dir = tempDir('airlock-pipeline-');
    dirs.push(dir);
    const registry = new ToolRegistry();
    registry.add({
      id: 'srv',
      kind: 'remote',
      label: 'srv',
      prefix: 'srv',
      ready: () => Promise.resolve(),
      status: () => ({ state: 'ready' }),
      tools: () => [
        {
          name: 'send',
          description: 'send',
          inputSchema: { type: 'object' },
          annotations: { readOnlyHint: false },
        },
      ],
      call: async () => ({ content: [] }),
      onChange: () => () => {},
    } as unknown as ToolSource);
    const asked: AskRequest[] = [];
    const deps = {
      registry,
      settings: new SettingsStore(join(dir, 'settings.json')),
      agents: { get: () => undefined },
      activity: new ActivityLog(openDatabase(':memory:')),
      validator: new SchemaWorkerPool(),
      events: new CoreEvents(),
      logger: new Logger({ stderr: false }),
      grants: { match: () => null },
      approvals: {
        ask: vi.fn(async (r: AskRequest) => {
          asked.push(r);
          return {
            result: errorResult('waiting'),
            decision: 'waiting',
            approvalId: 'x',
            ran: false,
          };
        }),
      },
    } as unknown as CallPipelineDeps;
    return { p: new CallPipeline(deps), registry, asked };
  }

  it("a task's call asks quiet; a plain call does not", async () => {
    const { p, registry, asked } = pipeline();
    await registry.whenReady();
    const progress = () => {};
    const signal = new AbortController().signal;
    await p.call('a', 'srv__send', {}, { signal, progress, taskStatus: () => {} });
    await p.call('a', 'srv__send', {}, { signal, progress });
    expect(asked.map((r) => [r.quiet, r.progress === progress])).toEqual([
      [true, true],
      [undefined, true],
    ]);
  });
});
