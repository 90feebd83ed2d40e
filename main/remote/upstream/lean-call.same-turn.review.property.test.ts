/**
 * Review of wave 3 session 33 (issue 34): a direct call's request timeout is armed on the tick
 * after its send (lean-call.ts `armTimeout`) and an answered call's is cleared on the tick after
 * its answer (upstream-client.ts `settled`). What may happen between the send and that tick: the
 * agent cancels, the connection closes (the SDK's `_onclose` swaps `_responseHandlers`), the books
 * are renewed (renew-books.ts swaps every Map), in the send's own turn or in a microtask after it;
 * and the call itself may be made from a macrotask (ticks run before microtasks) or from inside a
 * microtask (microtasks first) — the two orders `armTimeout`'s guard has to hold in.
 *
 * Generated schedules of those, then (on later turns, as a socket read or the clock brings them)
 * the answer and time passing, are run twice on a real UpstreamClient over one in-memory
 * transport: once direct (the deferred timeout) and once through `transport.send` (the Protocol's
 * `_setupTimeout` in the call's turn, as before the branch) — the reference. The caller's outcome,
 * everything written upstream (a late `notifications/cancelled` included) and the books and timers
 * left must be the same; and on the direct path a call still waiting always has its timeout armed,
 * a call over has none and no timer. The fake transport "writes" on the next tick, as node:http's
 * ClientRequest#onSocket does. A tuning seed and held-out seeds (never tuned on) reported apart.
 */
import { EventEmitter } from 'node:events';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallAbortController } from '../../platform/abort-hooks.js';
import { allowDirect } from '../http/direct-call.js';
import { callUpstream } from './lean-call.js';
import { renewBooks } from './renew-books.js';
import { UpstreamClient } from './upstream-client.js';

type What = 'abort' | 'close' | 'renew' | 'answer' | 'error-answer' | 'time';
type At = 'sync' | 'micro' | 'later';
interface Schedule {
  from: 'macrotask' | 'microtask';
  events: { at: At; what: What }[];
}

const TIMEOUT = 30_000;

/** A 2025-era upstream in memory, for the direct path (`_fetch.open`) and `send` alike. */
class FakeUpstream implements Transport {
  onmessage?: (m: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (e: Error) => void;
  readonly _url = new URL('http://upstream.test/mcp');
  readonly _requestInit = undefined;
  readonly _authProvider = undefined;
  readonly _sessionId = 's1';
  readonly _protocolVersion = '2025-11-25';
  readonly _abortController = new AbortController();
  /** Calls sent by `_fetch.open` (direct-call.ts), not by `send`. */
  opened = 0;
  /** What reached the wire, in order (on the tick after the send, as node:http writes). */
  readonly written: string[] = [];
  /** The call in flight: how to answer it, how it fails when the connection goes. */
  private inFlight?: { id: number; answer: (m: object) => void; fail: (e: unknown) => void };
  readonly _fetch = Object.assign(() => Promise.reject(new Error('not used')), {
    open: (
      _url: URL,
      _headers: Record<string, string>,
      body: string,
      signal: AbortSignal | undefined,
      answered: (res: EventEmitter, done: () => void) => void,
      failed: (err: unknown) => void,
    ) => {
      if (signal?.aborted) return failed(signal.reason);
      this.opened++;
      const m = JSON.parse(body) as { id: number; method: string };
      process.nextTick(() => this.written.push(`${m.method}#${m.id}`));
      this.inFlight = {
        id: m.id,
        // A plain JSON answer as direct-call.ts reads it from node:http.
        answer: (reply) => {
          const res = Object.assign(new EventEmitter(), {
            statusCode: 200,
            headers: { 'content-type': 'application/json' },
            rawHeaders: ['Content-Type', 'application/json'],
            complete: true,
            destroy() {},
          });
          answered(res, () => {});
          res.emit('data', Buffer.from(JSON.stringify(reply)));
          res.emit('end');
          res.emit('close');
        },
        // lean-fetch.ts `open`: a transport closed under the request fails it a job later.
        fail: (e) => queueMicrotask(() => failed(e)),
      };
    },
  });

  async start(): Promise<void> {}
  async close(): Promise<void> {
    this._abortController.abort(new Error('closed'));
    this.inFlight?.fail(new Error('closed'));
    this.inFlight = undefined;
    this.onclose?.();
  }

  send(m: JSONRPCMessage): Promise<void> {
    const msg = m as { method?: string; id?: number; params?: { requestId?: number } };
    if (msg.method === 'initialize') {
      queueMicrotask(() =>
        this.onmessage?.({
          jsonrpc: '2.0',
          id: msg.id!,
          result: {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {} },
            serverInfo: { name: 'fake', version: '1' },
          },
        } as JSONRPCMessage),
      );
      return Promise.resolve();
    }
    const label =
      msg.method === 'notifications/cancelled'
        ? `cancelled#${msg.params?.requestId}`
        : `${msg.method}#${msg.id ?? ''}`;
    process.nextTick(() => this.written.push(label));
    if (msg.method !== 'tools/call') return Promise.resolve();
    // The reference path: today's lean-send, whose promise settles once the answer is read.
    return new Promise<void>((resolve, reject) => {
      this.inFlight = {
        id: msg.id!,
        answer: (reply) => {
          this.onmessage?.(reply as JSONRPCMessage);
          resolve();
        },
        fail: (e) => queueMicrotask(() => reject(e)),
      };
    });
  }

  /** The upstream's answer to the call in flight, if any (a later read). */
  reply(kind: 'answer' | 'error-answer'): void {
    const f = this.inFlight;
    if (!f) return;
    this.inFlight = undefined;
    f.answer(
      kind === 'answer'
        ? { jsonrpc: '2.0', id: f.id, result: { content: [{ type: 'text', text: 'ok' }] } }
        : { jsonrpc: '2.0', id: f.id, error: { code: -32000, message: 'no' } },
    );
  }
}

interface Books {
  _requestMessageId: number;
  _responseHandlers: Map<number, unknown>;
  _timeoutInfo: Map<number, unknown>;
}

const turn = () => new Promise<void>((r) => setImmediate(r));

async function run(s: Schedule, direct: boolean) {
  const client = new UpstreamClient(
    { name: 'airlock', version: 'test' },
    { versionNegotiation: { mode: 'legacy' } },
  );
  const t = new FakeUpstream();
  if (direct) allowDirect(t);
  await client.connect(t);
  client.onerror = () => {};
  const books = client as unknown as Books;
  const id = books._requestMessageId;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const cancel = new CallAbortController();
  let outcome: string | undefined;
  const violations: string[] = [];
  const act = (what: What) => {
    if (what === 'abort') cancel.abort('the agent cancelled');
    else if (what === 'close') void client.close();
    else if (what === 'renew') renewBooks(client);
    else if (what === 'answer' || what === 'error-answer') t.reply(what);
    else vi.advanceTimersByTime(TIMEOUT);
  };
  /** The call made, then what happens in its own turn and in microtasks after it. */
  const start = () => {
    const call = callUpstream(client, { name: 'echo', arguments: {} }, true, {
      signal: cancel.signal,
      timeout: TIMEOUT,
      maxTotalTimeout: TIMEOUT * 4,
      resetTimeoutOnProgress: true,
    }).then(
      () => void (outcome = 'result'),
      (e: Error & { code?: unknown }) => void (outcome = `error ${String(e.code)} ${e.message}`),
    );
    for (const e of s.events) if (e.at === 'sync') act(e.what);
    for (const e of s.events) if (e.at === 'micro') queueMicrotask(() => act(e.what));
    return call;
  };
  // (In a box: a promise resolved with the call's promise would wait for the call.)
  const { call } = await new Promise<{ call: Promise<void> }>((resolve, reject) => {
    const go = () => {
      try {
        resolve({ call: start() });
      } catch (e) {
        reject(e as Error);
      }
    };
    if (s.from === 'macrotask') setImmediate(go);
    else void Promise.resolve().then(go);
  });
  // What every later turn must find on the direct path: a call still waiting has its timeout;
  // one that is over has none (and its handler is gone).
  const check = (when: string) => {
    if (!direct) return;
    const armed = books._timeoutInfo.has(id);
    if (outcome === undefined && !armed && !cancel.signal.aborted)
      violations.push(`${when}: waiting with no timeout`);
    if (outcome !== undefined && armed) violations.push(`${when}: over with a timeout left`);
  };
  await turn();
  check('after its turn');
  for (const e of s.events)
    if (e.at === 'later') {
      act(e.what);
      await turn();
      check(`after ${e.what}`);
    }
  await turn();
  const left = {
    timeouts: books._timeoutInfo.size,
    handlers: books._responseHandlers.size,
    timers: vi.getTimerCount(),
  };
  if (outcome !== undefined && left.timers !== 0) violations.push('over with a timer pending');
  // Whatever timer is left fires now: a leaked one would cancel a call that is over.
  vi.advanceTimersByTime(TIMEOUT * 4);
  await turn();
  vi.useRealTimers();
  // The path under test really taken (or not): the comparison compares.
  if (t.opened !== (direct ? 1 : 0)) violations.push(`sent ${t.opened} times by open`);
  const result = { outcome, written: [...t.written], left, violations };
  if (outcome === undefined) {
    cancel.abort('end of run');
    await call;
  }
  await client.close();
  return result;
}

const event = fc.oneof(
  fc.record({
    at: fc.constantFrom<At>('sync', 'micro', 'later'),
    what: fc.constantFrom<What>('abort', 'close', 'renew'),
  }),
  fc.record({
    at: fc.constant<At>('later'),
    what: fc.constantFrom<What>('answer', 'answer', 'error-answer', 'time'),
  }),
);
const schedule: fc.Arbitrary<Schedule> = fc.record({
  from: fc.constantFrom('macrotask' as const, 'microtask' as const),
  events: fc.array(event, { maxLength: 5 }),
});

afterEach(() => vi.useRealTimers());

async function same(s: Schedule): Promise<void> {
  const reference = await run(s, false);
  const direct = await run(s, true);
  expect(direct.violations).toEqual([]);
  expect(direct).toEqual(reference);
}

describe('a direct call’s deferred timeout ≡ the Protocol’s own, whatever happens before its tick', () => {
  it('named cases', async () => {
    for (const from of ['macrotask', 'microtask'] as const)
      for (const what of ['abort', 'close', 'renew'] as const)
        for (const at of ['sync', 'micro'] as const) {
          await same({
            from,
            events: [
              { at, what },
              { at: 'later', what: 'time' },
            ],
          });
          await same({
            from,
            events: [
              { at, what },
              { at: 'later', what: 'answer' },
            ],
          });
        }
  });

  it('generated schedules (tuning seed)', async () => {
    await fc.assert(fc.asyncProperty(schedule, same), { numRuns: 200, seed: 3433 });
  }, 120_000);

  it('generated schedules: held-out seeds, never tuned on (3 × 100 runs)', async () => {
    for (const seed of [91, 20261207, 555013])
      await fc.assert(fc.asyncProperty(schedule, same), { numRuns: 100, seed });
  }, 120_000);
});
