import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CoreEvents } from '../platform/events.js';
import { Logger } from '../platform/log.js';
import { SettingsStore } from '../platform/settings.js';
import { ActivityLog } from '../store/activity.js';
import { openDatabase } from '../store/db.js';
import { ToolRegistry } from '../tools/registry.js';
import { SchemaWorkerPool } from '../tools/schema-worker-pool.js';
import type { CallToolResult, ToolSource } from '../tools/types.js';
import { CallPipeline, type CallPipelineDeps } from './call-pipeline.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * The in-flight cap in CallPipeline.call (gateway/budgets.ts CallsInFlight): a call made again
 * after "waiting for approval" by a task (CallOptions.admitted, mcp-handlers/tasks.ts) was let in
 * once and is not refused by the cap, though it counts; any other call over the cap is refused.
 */
describe('CallPipeline, calls in flight', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  function setUp(limit: number) {
    const dir = tempDir('airlock-inflight-');
    dirs.push(dir);
    const held: ((r: CallToolResult) => void)[] = [];
    const source = {
      id: 'srv',
      kind: 'test',
      label: 'srv',
      prefix: 'srv',
      ready: () => Promise.resolve(),
      status: () => ({ state: 'ready' }),
      tools: () => [{ name: 'hold', description: 'holds', inputSchema: { type: 'object' } }],
      call: () => new Promise<CallToolResult>((resolve) => held.push(resolve)),
      onChange: () => () => {},
    } as unknown as ToolSource;
    const registry = new ToolRegistry();
    registry.add(source);
    const settings = new SettingsStore(join(dir, 'settings.json'));
    settings.update((d) => {
      d.tools['srv/hold'] = { approval: 'auto' };
      d.limits.callsInFlightPerAgent = limit;
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
    return { p: new CallPipeline(deps), registry, held };
  }

  const signal = new AbortController().signal;
  const done = { content: [{ type: 'text' as const, text: 'done' }] };

  it('refuses a new call at the limit, admits a call made again, and counts both ways back to 0', async () => {
    const { p, registry, held } = setUp(1);
    await registry.whenReady();
    const first = p.call('a', 'srv__hold', {}, { signal });
    expect(p.inFlight.count('a')).toBe(1);
    const over = await p.call('a', 'srv__hold', {}, { signal });
    expect(over.isError).toBe(true);
    expect(JSON.stringify(over.content)).toMatch(/already has 1 tool calls in flight/);
    const again = p.call('a', 'srv__hold', {}, { signal, admitted: true });
    expect(held).toHaveLength(2);
    expect(p.inFlight.count('a')).toBe(2);
    // Another agent has its own count.
    const other = p.call('b', 'srv__hold', {}, { signal });
    expect(held).toHaveLength(3);
    for (const h of held) h(done);
    await Promise.all([first, again, other]);
    expect(p.inFlight.count('a')).toBe(0);
    expect(p.inFlight.count('b')).toBe(0);
  });
});
