import { rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
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

/**
 * Every way out of CallPipeline.call gives its slot back (review of the in-flight cap): the
 * refusals before any work (arguments not an object, the schema's or the source's verdict, a
 * source hook that throws), a grant's run, the source's precheck refusing, the approval engine's
 * answers (decided, "waiting", paused, an engine that throws), a source that throws before its
 * promise, one that rejects, and result shaping that throws. Generated mixes of them, each call
 * held where it can be: while any is held, each counts; when all have ended, the count is 0.
 */
describe('CallPipeline, calls in flight: every way out gives the slot back', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  const ENDS = [
    'ok',
    'notObject',
    'schema',
    'validateArgs',
    'validateArgsThrows',
    'alwaysAskThrows',
    'throwSync',
    'reject',
    'shapingThrows',
    'grant',
    'precheck',
    'approvedAsk',
    'waiting',
    'paused',
    'askThrows',
  ] as const;
  type End = (typeof ENDS)[number];
  const ASKED: readonly End[] = [
    'grant',
    'precheck',
    'approvedAsk',
    'waiting',
    'paused',
    'askThrows',
  ];

  function setUp() {
    const dir = tempDir('airlock-inflight-ends-');
    dirs.push(dir);
    // Each held step: released by the test, so every call is in flight at once first.
    const held: (() => void)[] = [];
    const hold = () => new Promise<void>((r) => held.push(r));
    const mode = (args: Record<string, unknown>) => args.mode as End;
    const source = {
      id: 'srv',
      kind: 'test',
      label: 'srv',
      prefix: 'srv',
      ready: () => Promise.resolve(),
      status: () => ({ state: 'ready' }),
      tools: () => [
        {
          name: 'run',
          description: 'runs',
          inputSchema: {
            type: 'object',
            properties: { mode: { type: 'string' }, n: { type: 'number' } },
          },
          trustedReadOnly: true,
        },
        {
          name: 'send',
          description: 'asks',
          inputSchema: { type: 'object', properties: { mode: { type: 'string' } } },
          annotations: { readOnlyHint: false },
        },
      ],
      validateArgs: (_t: string, args: Record<string, unknown>) => {
        if (mode(args) === 'validateArgsThrows') throw new Error('hook broke');
        return mode(args) === 'validateArgs' ? 'the source says no' : null;
      },
      alwaysAsk: (_t: string, args: Record<string, unknown>) => {
        if (mode(args) === 'alwaysAskThrows') throw new Error('hook broke');
        return null;
      },
      precheck: async (_t: string, args: Record<string, unknown>) =>
        mode(args) === 'precheck' ? 'it cannot run' : null,
      call: (_t: string, args: Record<string, unknown>) => {
        if (mode(args) === 'throwSync') throw new Error('thrown at once');
        return hold().then(() => {
          if (mode(args) === 'reject') throw new Error('upstream broke');
          return { content: [{ type: 'text' as const, text: 'done' }] };
        });
      },
      onChange: () => () => {},
    } as unknown as ToolSource;
    const registry = new ToolRegistry();
    registry.add(source);
    const settings = new SettingsStore(join(dir, 'settings.json'));
    settings.update((d) => {
      d.tools['srv/run'] = { approval: 'auto' };
      d.tools['srv/send'] = { approval: 'ask' };
      d.limits.callsInFlightPerAgent = 1000;
    });
    const waitingText = { content: [{ type: 'text' as const, text: 'waiting' }] };
    const deps = {
      registry,
      settings,
      agents: { get: () => undefined },
      activity: new ActivityLog(openDatabase(':memory:')),
      validator: new SchemaWorkerPool(),
      events: new CoreEvents(),
      logger: new Logger({ stderr: false }),
      grants: {
        match: (_a: string, _k: string, args: Record<string, unknown>) =>
          mode(args) === 'grant' ? { id: 'g1', includeTainted: false } : null,
      },
      approvals: {
        ask: async (req: { args: Record<string, unknown> }) => {
          await hold();
          const m = mode(req.args);
          if (m === 'askThrows') throw new Error('the store broke');
          if (m === 'paused') return { result: waitingText, decision: 'paused', ran: false };
          return {
            result: waitingText,
            decision: m === 'waiting' ? 'waiting' : 'approved',
            approvalId: 'x',
            ran: m !== 'waiting',
          };
        },
      },
      // Result shaping: what the agent has read is observed after the cap (execute).
      provenance: {
        check: () => null,
        observe: (o: { result: CallToolResult }) => {
          if (JSON.stringify(o.result).includes('shapingThrows')) throw new Error('shaping broke');
        },
      },
    } as unknown as CallPipelineDeps;
    const p = new CallPipeline(deps);
    // The answer names the mode for shapingThrows: the source echoes it in a second text.
    const call = source.call.bind(source);
    source.call = ((t: string, args: Record<string, unknown>, ctx: unknown) => {
      const r = (call as (t: string, a: Record<string, unknown>, c: unknown) => unknown)(
        t,
        args,
        ctx,
      );
      return mode(args) === 'shapingThrows'
        ? (r as Promise<CallToolResult>).then((x) => ({
            content: [...x.content, { type: 'text' as const, text: 'shapingThrows' }],
          }))
        : r;
    }) as ToolSource['call'];
    return { p, registry, held };
  }

  const argsOf = (end: End): unknown =>
    end === 'notObject' ? [1] : end === 'schema' ? { mode: end, n: 'not a number' } : { mode: end };

  /** Where each ending is held until the test lets it go: at the source, at the approval, or not. */
  const HELD: readonly End[] = [
    'ok',
    'reject',
    'shapingThrows',
    'grant',
    'approvedAsk',
    'waiting',
    'paused',
    'askThrows',
  ];

  it('generated mixes of endings: each counts while held, 0 after', async () => {
    const signal = new AbortController().signal;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...ENDS), { minLength: 1, maxLength: 12 }),
        async (ends) => {
          const { p, registry, held } = setUp();
          await registry.whenReady();
          const calls = ends.map((end) =>
            p
              .call('a', ASKED.includes(end) ? 'srv__send' : 'srv__run', argsOf(end), { signal })
              .then(
                () => 'answered',
                () => 'threw',
              ),
          );
          // The calls not held end on their own; the held ones are waited for where they wait.
          await Promise.all(calls.filter((_, i) => !HELD.includes(ends[i]!)));
          const expected = ends.filter((e) => HELD.includes(e)).length;
          while (held.length < expected) await new Promise<void>((r) => setImmediate(r));
          expect(p.inFlight.count('a')).toBe(expected);
          while (held.length) held.splice(0).forEach((go) => go());
          // Each ending took the way it names: the ones that throw reach the agent as a rejection.
          const THROWS: readonly End[] = [
            'validateArgsThrows',
            'alwaysAskThrows',
            'shapingThrows',
            'askThrows',
          ];
          expect(await Promise.all(calls)).toEqual(
            ends.map((e) => (THROWS.includes(e) ? 'threw' : 'answered')),
          );
          expect(p.inFlight.count('a')).toBe(0);
        },
      ),
      { numRuns: 40 },
    );
  });
});
