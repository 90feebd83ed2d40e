import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { argsDigest } from '../approvals/canonical.js';
import { CoreEvents } from '../platform/events.js';
import { Logger } from '../platform/log.js';
import { SettingsStore } from '../platform/settings.js';
import { ActivityLog } from '../store/activity.js';
import { openDatabase } from '../store/db.js';
import { ToolRegistry } from '../tools/registry.js';
import { SchemaWorkerPool } from '../tools/schema-worker-pool.js';
import type { CallToolResult, ToolCallContext, ToolSource } from '../tools/types.js';
import { CallPipeline, type CallPipelineDeps } from './call-pipeline.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 34: an auto call to a remote server leaves its Activity row's digest to the flush
 * (call-record.ts). Every call still gets exactly one row, with what was true when the call
 * ended, in the order the calls ended — also when the agent hung up first, and on a normal stop
 * (close) before the window ran out. A local tool's digest is still taken before it runs.
 */
describe('CallPipeline, the Activity row of an auto call', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  type Call = (tool: string, args: Record<string, unknown>, ctx: ToolCallContext) => unknown;

  function setup(kind: 'remote' | 'builtin', call: Call) {
    const dir = tempDir('airlock-pipeline-');
    dirs.push(dir);
    const registry = new ToolRegistry();
    registry.add({
      id: 'srv',
      kind,
      label: 'srv',
      prefix: 'srv',
      ready: () => Promise.resolve(),
      status: () => ({ state: 'ready' }),
      tools: () => [
        {
          name: 'echo',
          description: 'echo',
          inputSchema: { type: 'object' },
          annotations: { readOnlyHint: false },
        },
      ],
      call,
      onChange: () => () => {},
    } as unknown as ToolSource);
    const settings = new SettingsStore(join(dir, 'settings.json'));
    settings.update((d) => {
      d.tools['srv/echo'] = { approval: 'auto' };
    });
    // A window that never runs out here: only close() (a normal stop) writes the queue.
    const activity = new ActivityLog(openDatabase(':memory:'), { flushMs: 3_600_000 });
    const deps = {
      registry,
      settings,
      agents: { get: () => undefined },
      activity,
      validator: new SchemaWorkerPool(),
      events: new CoreEvents(),
      logger: new Logger({ stderr: false }),
    } as unknown as CallPipelineDeps;
    return { p: new CallPipeline(deps), registry, activity };
  }

  const rows = (a: ActivityLog) => a.list().reverse();
  const text = (s: string, isError?: boolean): CallToolResult => ({
    content: [{ type: 'text', text: s }],
    ...(isError ? { isError } : {}),
  });

  it('one row per call, in the order the calls ended, with what was true when each ended', async () => {
    const answers = new Map<string, (r: CallToolResult) => void>();
    const { p, registry, activity } = setup(
      'remote',
      (_t, args) => new Promise((resolve) => answers.set(String(args.n), resolve)),
    );
    await registry.whenReady();
    const signal = new AbortController().signal;
    const first = p.call('agent', 'srv__echo', { n: 1, b: { y: 1, x: [2] } }, { signal });
    const second = p.call('agent', 'srv__echo', { n: 2 }, { signal });
    answers.get('2')!(text('boom', true));
    const failed = await second;
    answers.get('1')!(text('ok'));
    await first;
    // The agent's transport may change what it was handed; the row keeps what the call gave.
    (failed.content[0] as { text: string }).text = 'changed later';
    failed.isError = false;
    // A row written at once (an approval's) after both calls ended comes after both.
    activity.addNow({
      agent: 'agent',
      tool: 'other',
      decision: 'waiting',
      outcome: 'pending',
      durationMs: 0,
      argsDigest: 'sha256:x',
      approvalId: 'r1',
    });
    activity.close();
    expect(rows(activity)).toMatchObject([
      {
        tool: 'srv__echo',
        decision: 'auto',
        outcome: 'error',
        detail: 'boom',
        argsDigest: argsDigest({ n: 2 }),
      },
      { tool: 'srv__echo', outcome: 'ok', argsDigest: argsDigest({ b: { x: [2], y: 1 }, n: 1 }) },
      { tool: 'other' },
    ]);
    expect(rows(activity)[1]).not.toHaveProperty('detail');
  });

  it('the agent hung up before the answer: still exactly one row, written on a normal stop', async () => {
    let reached!: () => void;
    const atSource = new Promise<void>((r) => (reached = r));
    const { p, registry, activity } = setup(
      'remote',
      (_t, _a, ctx) =>
        new Promise((resolve) => {
          // As RemoteCalls does: a cancelled call is answered as cancelled once the signal fires.
          ctx.signal.addEventListener('abort', () => resolve(text('cancelled', true)));
          reached();
        }),
    );
    await registry.whenReady();
    const hangUp = new AbortController();
    const pending = p.call('agent', 'srv__echo', { q: 'x' }, { signal: hangUp.signal });
    await atSource;
    hangUp.abort();
    await pending;
    activity.close();
    expect(rows(activity)).toEqual([
      expect.objectContaining({
        outcome: 'error',
        detail: 'cancelled',
        argsDigest: argsDigest({ q: 'x' }),
      }),
    ]);
  });

  it("a local tool's digest is of the arguments as the agent sent them, taken before it runs", async () => {
    const { p, registry, activity } = setup('builtin', (_t, args) => {
      args.q = 'changed by the tool';
      return text('ok');
    });
    await registry.whenReady();
    await p.call('agent', 'srv__echo', { q: 'sent' }, { signal: new AbortController().signal });
    activity.close();
    expect(rows(activity).map((r) => r.argsDigest)).toEqual([argsDigest({ q: 'sent' })]);
  });
});
