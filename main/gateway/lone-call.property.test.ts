import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoneArm, settled, type RunningCall } from '../../test-support/lone-sessions.js';
import type { CallToolResult } from '../tools/types.js';
import { withUrlRequired } from '../tools/url-required.js';
import { deniedResult, waitingResult } from '../approvals/messages.js';
import type { ApprovalRow } from '../store/approval-store.js';
import { FIRST_EVENT_WAIT_MS } from './event-stream.js';
import { LoneCallServer } from './mcp-handlers/lone-call.js';

/**
 * A 2025 session's lone call (mcp-handlers/lone-call.ts) is held to the SDK path it skips: two
 * real McpEndpoints, one built with `loneCalls` and one without, run the same generated scenario
 * — calls of every shape (plain, extra `_meta`, progress token, envelope keys, related-task,
 * `__proto__`, null or array arguments, extra params, task) and id (strings, empty, negative,
 * largest safe, unsafe, fractional), good and bad Accept / version / session headers, ids reused
 * while open, upstream requests relayed mid-call and answered, declined or refused by the agent,
 * log lines mid-call, the held head flushed or not, cancellation before and after the answer,
 * the agent hanging up, the session closed or its agent revoked mid-call, and pipeline answers
 * of every kind (plain and other results, invalid results, results whose reading throws, Errors
 * with and without codes and data, ProtocolErrors, -32002, url-required results, non-Error
 * rejections, calls that never end; and, for clients that declared URL elicitation, calls that
 * need approval: the approval view asked through the SDK's shim, answered, declined, refused,
 * cancelled or hung up on, the call then allowed, denied, left waiting or never decided) — and
 * must show the agent the same heads (status, content
 * type), the same messages in the same order and the same ends, byte for byte, and the pipeline
 * the same calls, options, relay outcomes and signal states. lone-call.test.ts proves the lone
 * side is taken.
 */

type Outcome =
  | { kind: 'result'; result: CallToolResult }
  /** The pipeline's "waiting for approval" answer (a noWait first try, or the bounded wait's end). */
  | { kind: 'waiting' }
  | { kind: 'urlRequired' }
  | { kind: 'throw'; error: () => unknown }
  | { kind: 'unreadable'; key: 'resultType' | 'content' }
  | { kind: 'hang' };

/** event-stream.ts's keep-alive interval (not exported there). */
const KEEP_ALIVE_MS = 15_000;

const text = (t: string, extra: Record<string, unknown> = {}): CallToolResult =>
  ({ content: [{ type: 'text', text: t }], ...extra }) as CallToolResult;

const outcome: fc.Arbitrary<Outcome> = fc.oneof(
  fc.constant<Outcome>({ kind: 'waiting' }),
  fc.constantFrom<Outcome>(
    { kind: 'result', result: text('ok') },
    { kind: 'result', result: text('bad', { isError: true }) },
    { kind: 'result', result: { content: [], _meta: { k: 1 } } as CallToolResult },
    {
      kind: 'result',
      result: { content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] },
    },
    { kind: 'result', result: text('s', { structuredContent: { a: 1 } }) },
    { kind: 'result', result: { content: 'not a list' } as unknown as CallToolResult },
    { kind: 'result', result: text('x', { extra: true }) },
    { kind: 'urlRequired' },
    { kind: 'hang' },
    // A result whose reading throws: both paths answer the throw as an error.
    { kind: 'unreadable', key: 'resultType' },
    { kind: 'unreadable', key: 'content' },
    { kind: 'result', result: { resultType: 'input_required' } as unknown as CallToolResult },
    {
      kind: 'result',
      result: {
        resultType: 'input_required',
        inputRequests: {
          k: {
            method: 'elicitation/create',
            params: { mode: 'form', message: 'm', requestedSchema: { type: 'object' } },
          },
        },
      } as unknown as CallToolResult,
    },
  ),
  fc
    .record({
      ctor: fc.constantFrom('Error', 'ProtocolError', 'object', 'null', 'string'),
      code: fc.constantFrom(undefined, 123, -32002, -32602, 1.5, 'x', 2 ** 60),
      data: fc.constantFrom(undefined, { why: 'w' }, null, 0),
      message: fc.constantFrom('boom', ''),
    })
    .map(({ ctor, code, data, message }): Outcome => {
      const error = () => {
        if (ctor === 'ProtocolError')
          return new ProtocolError(
            typeof code === 'number' && Number.isSafeInteger(code)
              ? code
              : ProtocolErrorCode.InvalidParams,
            message,
            data,
          );
        if (ctor === 'null') return null;
        if (ctor === 'string') return message;
        const e: Record<string, unknown> =
          ctor === 'Error' ? (new Error(message) as never) : { message };
        if (code !== undefined) e['code'] = code;
        if (data !== undefined) e['data'] = data;
        return e;
      };
      return { kind: 'throw', error };
    }),
);

const callPlan = fc.record({
  id: fc.oneof(
    fc.integer({ min: 0, max: 3 }),
    fc.constantFrom('a', 'b', '', -1, Number.MAX_SAFE_INTEGER, 2 ** 53, 1.5),
  ),
  shape: fc.constantFrom(
    'plain',
    'plain',
    'plain',
    'plain',
    'plain',
    'plain',
    'meta',
    'noArgs',
    'progress',
    'envelope',
    'capsEnvelope',
    'relatedTask',
    'protoArgs',
    'nullArgs',
    'arrayArgs',
    'extraParam',
    'task',
  ),
  headers: fc.constantFrom(
    'ok',
    'ok',
    'ok',
    'ok',
    'badAccept',
    'badVersion',
    'noVersion',
    'wrongSession',
  ),
  mid: fc.array(fc.constantFrom('relayAccept', 'relayDecline', 'relayError', 'log', 'sampling'), {
    maxLength: 2,
  }),
  flush: fc.boolean(),
  // Past the keep-alive interval after the mid-call steps: a stream made by then sends its comment.
  idle: fc.constantFrom(false, false, false, true),
  reuse: fc.boolean(),
  cancel: fc.constantFrom('none', 'none', 'before', 'beforeNoReason', 'after'),
  end: fc.constantFrom('none', 'none', 'none', 'none', 'close', 'hangup', 'revoke'),
  outcome,
  // A call that needs approval (outcome 'waiting'): what the user decided by the time the call
  // is run again (after the agent answered the URL elicitation), 'hang' still undecided.
  decision: fc.constantFrom('allow', 'deny', 'waiting', 'hang'),
  // How the agent meets the SDK's elicitation/create (URL elicitation of the approval view):
  // answered, answered with an error, or the call cancelled or hung up on while it is asked.
  asked: fc.constantFrom('accept', 'accept', 'decline', 'cancel', 'error', 'cancelCall', 'hangup'),
});

const scenario = fc.record({
  caps: fc.constantFrom<Record<string, unknown>>(
    {},
    { elicitation: {} },
    { elicitation: { form: {} }, sampling: {} },
    { elicitation: { url: {} } },
    { elicitation: { form: {}, url: {} }, sampling: {} },
    // URL elicitation declared in forms approval-url.ts reads as none but relay.ts as declared.
    { elicitation: { url: false } },
    { elicitation: { form: {}, url: null } },
  ),
  version: fc.constantFrom('2025-11-25', '2025-06-18', '2025-03-26'),
  calls: fc.array(callPlan, { minLength: 1, maxLength: 3 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/**
 * Scenarios of a client that declared URL elicitation calling tools that need approval (most
 * calls plain, most answers "waiting"): the user's decision, the agent's answer to the URL
 * elicitation, cancellation and hang-up while it is asked, the bounded wait's end.
 */
const urlScenario: fc.Arbitrary<Scenario> = fc.record({
  caps: fc.constantFrom<Record<string, unknown>>(
    { elicitation: { url: {} } },
    { elicitation: { form: {}, url: {} }, sampling: {} },
    { elicitation: { url: { x: 1 } }, roots: {} },
  ),
  version: fc.constantFrom('2025-11-25', '2025-06-18'),
  calls: fc.array(
    callPlan.chain((plan) =>
      fc
        .record({
          shape: fc.constantFrom('plain', 'plain', 'plain', 'meta', 'noArgs', plan.shape),
          headers: fc.constantFrom('ok', 'ok', 'ok', plan.headers),
          outcome: fc.oneof(
            { weight: 4, arbitrary: fc.constant<Outcome>({ kind: 'waiting' }) },
            outcome,
          ),
          end: fc.constantFrom('none', 'none', plan.end),
          cancel: fc.constantFrom('none', 'none', plan.cancel),
        })
        .map((o) => ({ ...plan, ...o })),
    ),
    { minLength: 1, maxLength: 3 },
  ),
});
type Plan = Scenario['calls'][number];

function body(plan: Plan) {
  const params: Record<string, unknown> = { name: 't', arguments: { q: 1 } };
  if (plan.shape === 'noArgs') delete params['arguments'];
  if (plan.shape === 'meta') params['_meta'] = { note: 'n' };
  if (plan.shape === 'progress') params['_meta'] = { progressToken: 'p' };
  if (plan.shape === 'envelope') params['_meta'] = { 'io.modelcontextprotocol/logLevel': 'debug' };
  if (plan.shape === 'capsEnvelope')
    params['_meta'] = {
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } },
    };
  if (plan.shape === 'relatedTask')
    params['_meta'] = { 'io.modelcontextprotocol/related-task': { taskId: 'x' } };
  // JSON.parse makes `__proto__` an own key (the SDK's parse would set a prototype instead).
  if (plan.shape === 'protoArgs') params['arguments'] = JSON.parse('{"__proto__": {"q": 1}}');
  if (plan.shape === 'nullArgs') params['arguments'] = null;
  if (plan.shape === 'arrayArgs') params['arguments'] = [1];
  if (plan.shape === 'extraParam') params['cursor'] = 'c';
  if (plan.shape === 'task') params['task'] = { ttl: 1000 };
  return { jsonrpc: '2.0', id: plan.id, method: 'tools/call', params };
}

function headers(plan: Plan): Record<string, string | undefined> {
  switch (plan.headers) {
    case 'badAccept':
      return { accept: 'application/json' };
    case 'badVersion':
      return { 'mcp-protocol-version': '1999-01-01' };
    case 'noVersion':
      return { 'mcp-protocol-version': undefined };
    case 'wrongSession':
      return { 'mcp-session-id': 'nope' };
    default:
      return {};
  }
}

/** The approval request the pipeline's answers name (approvals/messages.ts). */
const ROW = { id: 'req-1', expiresAt: 0 } as ApprovalRow;

/** A call run again after the agent answered the approval's URL elicitation (the SDK's shim). */
function settleAgain(call: RunningCall, plan: Plan): void {
  if (plan.outcome.kind !== 'waiting') return settle(call, plan.outcome);
  if (plan.decision === 'hang') return;
  call.settle(() =>
    plan.decision === 'allow'
      ? text('sent')
      : plan.decision === 'deny'
        ? deniedResult(ROW)
        : waitingResult(ROW),
  );
}

function settle(call: RunningCall, o: Outcome): void {
  if (o.kind === 'hang') return;
  call.settle(() => {
    if (o.kind === 'waiting') return waitingResult(ROW);
    if (o.kind === 'throw') throw o.error();
    if (o.kind === 'unreadable')
      return Object.defineProperty(text('u'), o.key, {
        enumerable: true,
        get() {
          throw new Error(`unreadable ${o.key}`);
        },
      });
    if (o.kind === 'urlRequired')
      return withUrlRequired(text('open the link'), {
        server: 'up',
        steps: [{ url: 'https://up.example/step', message: 'go', elicitationId: 'e1' }],
      });
    return structuredClone(o.result);
  });
}

function reasonOf(signal: AbortSignal | undefined): unknown {
  if (!signal?.aborted) return 'running';
  const r: unknown = signal.reason;
  return r instanceof Error ? `${r.name}: ${r.message}` : r;
}

/** Runs the scenario on one arm; what the agent and the pipeline saw. */
async function run(lone: boolean, s: Scenario) {
  const arm = new LoneArm(lone);
  try {
    await arm.open(s.caps, s.version);
    const seenBefore = arm.calls.running.length;
    const busy: (boolean | undefined)[] = [];
    for (const plan of s.calls) {
      const before = arm.calls.running.length;
      const res = arm.post(body(plan), headers(plan));
      await settled();
      const call = arm.calls.running[before];
      if (!call || arm.calls.running.length !== before + 1) continue;
      const cancel = (reason: boolean) =>
        arm.post({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: plan.id, ...(reason ? { reason: 'r' } : {}) },
        });
      const log = arm.calls.log;
      if (plan.reuse) {
        arm.post(body(plan));
        await settled();
      }
      for (const step of plan.mid) {
        const relay = call.opts.relay!;
        if (step === 'log') {
          void relay.log?.({ level: 'info', data: 'line' })?.catch(() => {});
        } else {
          const method = step === 'sampling' ? 'sampling/createMessage' : 'elicitation/create';
          const params =
            step === 'sampling'
              ? { messages: [], maxTokens: 1 }
              : { mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: {} } };
          const mark = arm.seen.length;
          relay.request({ method, params, server: 'up' } as never).then(
            (r) => log.push({ relay: step, ok: r }),
            (e: Error) => log.push({ relay: step, error: e.message }),
          );
          await settled();
          const asked = arm.seen
            .slice(mark)
            .map((x) => ('message' in x ? (x.message as Record<string, unknown>) : undefined))
            .find((m) => m?.['method'] === method);
          if (asked) {
            arm.post(
              step === 'relayError'
                ? { jsonrpc: '2.0', id: asked['id'], error: { code: -1, message: 'no' } }
                : {
                    jsonrpc: '2.0',
                    id: asked['id'],
                    result:
                      step === 'sampling'
                        ? { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' }
                        : { action: step === 'relayDecline' ? 'decline' : 'accept', content: {} },
                  },
            );
          }
        }
        await settled();
      }
      busy.push(arm.busy());
      if (plan.flush) vi.advanceTimersByTime(FIRST_EVENT_WAIT_MS);
      if (plan.idle) vi.advanceTimersByTime(KEEP_ALIVE_MS);
      if (plan.cancel === 'before' || plan.cancel === 'beforeNoReason')
        cancel(plan.cancel === 'before');
      if (plan.end === 'hangup') res.destroy();
      if (plan.end === 'close') arm.delete();
      // Revoked (McpEndpoint.closeSessionsOf): the session goes at once, its server after grace.
      if (plan.end === 'revoke') {
        arm.endpoint.closeSessionsOf('a', 10);
        arm.post(body(plan));
        await settled();
        vi.advanceTimersByTime(10);
      }
      await settled();
      const mark = arm.seen.length;
      settle(call, plan.outcome);
      await settled();
      // An input-required result on 2025: the SDK's shim asks the agent, then runs the call again.
      const shim = arm.seen
        .slice(mark)
        .map((x) => ('message' in x ? (x.message as Record<string, unknown>) : undefined))
        .find((m) => m?.['method'] === 'elicitation/create');
      if (shim) {
        if (plan.asked === 'cancelCall') cancel(true);
        else if (plan.asked === 'hangup') res.destroy();
        else
          arm.post(
            plan.asked === 'error'
              ? { jsonrpc: '2.0', id: shim['id'], error: { code: -1, message: 'no' } }
              : {
                  jsonrpc: '2.0',
                  id: shim['id'],
                  result: { action: plan.asked, ...(plan.asked === 'accept' && { content: {} }) },
                },
          );
        await settled();
        for (const again of arm.calls.running.slice(before + 1)) settleAgain(again, plan);
        await settled();
      }
      busy.push(arm.busy());
      if (plan.cancel === 'after') cancel(true);
      await settled();
    }
    const signals = arm.calls.running.slice(seenBefore).map((c) => reasonOf(c.opts.signal));
    return uuidsNamed({
      seen: arm.seen,
      wire: arm.wire,
      errors: arm.errors,
      pipeline: arm.calls.log,
      signals,
      busy,
      calls: arm.calls.running.length,
    });
  } finally {
    await arm.close();
  }
}

/**
 * The SDK's shim mints a random elicitationId for each URL elicitation (syntheticElicitationId):
 * each UUID is named by its order instead, so the two arms compare byte for byte otherwise.
 */
function uuidsNamed<T>(run: T): T {
  const seen = new Map<string, string>();
  const text = JSON.stringify(run).replace(
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
    (u) => {
      if (!seen.has(u)) seen.set(u, `uuid${seen.size}`);
      return seen.get(u)!;
    },
  );
  return JSON.parse(text) as T;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Runs `numRuns` generated scenarios from `seed` on both arms; what the lone side reached, so the
 * comparison is not of idle sessions.
 */
async function compare(seed: number, numRuns: number, scenarios = scenario) {
  const runLone = vi.spyOn(LoneCallServer.prototype, 'runLone');
  const reached = {
    lone: 0,
    relayed: 0,
    logged: 0,
    errors: 0,
    onerror: 0,
    aborted: 0,
    json: 0,
    sse: 0,
    keepalive: 0,
    // The approval's URL elicitation asked on the lone path, and a call then run again and answered.
    urlAsked: 0,
    urlRetried: 0,
  };
  try {
    await fc.assert(
      fc.asyncProperty(scenarios, async (s) => {
        const sdk = await run(false, s);
        const taken = runLone.mock.calls.length;
        const lone = await run(true, s);
        expect(lone).toEqual(sdk);
        // Byte for byte too: JSON.parse keeps the wire's key order, which toEqual ignores, and
        // `wire` holds every head's headers and every chunk as written.
        expect(JSON.stringify(lone)).toBe(JSON.stringify(sdk));
        if (runLone.mock.calls.length === taken) return;
        reached.lone++;
        const messages = lone.seen.map((x) => ('message' in x ? JSON.stringify(x.message) : ''));
        if (lone.pipeline.some((p) => 'relay' in (p as object))) reached.relayed++;
        if (messages.some((m) => m.includes('notifications/message'))) reached.logged++;
        if (messages.slice(3).some((m) => m.includes('"error"'))) reached.errors++;
        if (lone.signals.some((x) => x !== 'running')) reached.aborted++;
        if (lone.errors.some((e) => e.includes('request ID'))) reached.onerror++;
        if (lone.seen.slice(5).some((x) => 'type' in x && x.type === 'application/json'))
          reached.json++;
        if (lone.seen.some((x) => 'type' in x && x.type === 'text/event-stream')) reached.sse++;
        if (lone.wire.some((w) => w.includes(': keepalive'))) reached.keepalive++;
        if (messages.some((m) => m.includes('"mode":"url"'))) {
          reached.urlAsked++;
          if (messages.some((m) => m.includes('"text":"sent"') || m.includes('denied')))
            reached.urlRetried++;
        }
      }),
      { numRuns, seed },
    );
  } finally {
    runLone.mockRestore();
  }
  return reached;
}

describe('a lone call and the SDK path', () => {
  it('show the agent and the pipeline the same, over generated scenarios', async () => {
    const reached = await compare(20261206, 600);
    console.log('reached', JSON.stringify(reached));
    for (const [what, n] of Object.entries(reached))
      if (!what.startsWith('url')) expect(n, what).toBeGreaterThan(10);
  });

  it('show the same for a URL elicitation client whose calls need approval', async () => {
    const reached = await compare(20261207, 400, urlScenario);
    console.log('url reached', JSON.stringify(reached));
    for (const what of ['lone', 'urlAsked', 'urlRetried', 'aborted', 'sse'] as const)
      expect(reached[what], what).toBeGreaterThan(20);
  });

  // Held out for URL elicitation (never run while the change was written); reported apart.
  it.skipIf(process.env['LONE_MUTATION']).each([5150, 86753, 271828])(
    'held out (URL elicitation): seed %i shows the same',
    async (seed) => {
      const reached = await compare(seed, 150, urlScenario);
      console.log('url held-out', seed, JSON.stringify(reached));
      for (const what of ['lone', 'urlAsked', 'urlRetried'] as const)
        expect(reached[what], what).toBeGreaterThan(3);
    },
  );

  // Held out: seeds not used while the lone path's lazy stream was written; reported apart.
  // Skipped while mutation-checking (LONE_MUTATION set), so no mutant is judged on them.
  it.skipIf(process.env['LONE_MUTATION']).each([7331, 424242, 90210])(
    'held out: seed %i shows the same',
    async (seed) => {
      const reached = await compare(seed, 200);
      console.log('held-out', seed, JSON.stringify(reached));
      for (const [what, n] of Object.entries(reached))
        if (!what.startsWith('url')) expect(n, what).toBeGreaterThan(3);
    },
  );
});
