/**
 * The SDK Protocol's books renewed (renew-books.ts, issue 34). 1) The fields are where renewBooks
 * looks for them on a real UpstreamClient: an SDK that renames one fails here, rather than
 * silently promoting calls again. 2) A renewal moves every entry, in order, and empties the Map
 * it leaves last entry first. 3) Calls in flight across renewals get what they get on the SDK's
 * own path (which never renews): generated schedules of interleaved calls, answers, progress and
 * cancellations, starting at generated request ids so that renewals fall anywhere; the tuning seed
 * and a held-out run (its own seed, longer schedules) reported apart. On a fake clock, with ticks
 * that time calls out and, in two runs of three, a close with calls in flight (review of h-surv2:
 * without them, a renewal that dropped `_timeoutInfo` passed — a call's timeout silently gone).
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallAbortController } from '../../platform/abort-hooks.js';
import { callUpstream, leanCallTool } from './lean-call.js';
import { BOOK_MAPS, RENEW_EVERY, renewBooks } from './renew-books.js';
import { UpstreamClient } from './upstream-client.js';

type Books = Record<string, unknown> & { _requestMessageId: number };

/** A 2025-era upstream that holds each tools/call until the test answers it. */
class HeldTransport implements Transport {
  onmessage?: (m: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (e: Error) => void;
  readonly calls: number[] = [];
  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
  async send(m: JSONRPCMessage): Promise<void> {
    const msg = m as { method?: string; id?: number; params?: { requestId?: number } };
    if (msg.method === 'initialize')
      return void queueMicrotask(() =>
        this.onmessage?.({
          jsonrpc: '2.0',
          id: msg.id!,
          result: {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {} },
            serverInfo: { name: 'held', version: '1' },
          },
        } as JSONRPCMessage),
      );
    if (msg.method === 'tools/call') this.calls.push(msg.id!);
  }
}

const settle = () => new Promise<void>((r) => setImmediate(r));

async function connected(): Promise<{ client: UpstreamClient; t: HeldTransport }> {
  const client = new UpstreamClient(
    { name: 'airlock', version: 'test' },
    { versionNegotiation: { mode: 'legacy' } },
  );
  const t = new HeldTransport();
  await client.connect(t);
  return { client, t };
}

describe('the SDK books renew-books.ts renews', () => {
  it('are Maps on a connected UpstreamClient (an SDK rename fails here)', async () => {
    const { client } = await connected();
    // Plain Maps: renewBooks leaves a Map subclass alone (a copy would lose its behaviour).
    for (const field of BOOK_MAPS)
      expect(Object.getPrototypeOf((client as unknown as Books)[field])).toBe(Map.prototype);
    await client.close();
  });
});

describe('a lean call', () => {
  it('renews the books when its id is a multiple of RENEW_EVERY, and only then', async () => {
    const { client } = await connected();
    const books = client as unknown as Books;
    const options = {
      signal: new CallAbortController().signal,
      timeout: 60_000,
      maxTotalTimeout: 600_000,
      resetTimeoutOnProgress: true,
    };
    const maps = () => BOOK_MAPS.map((f) => books[f]);
    books._requestMessageId = RENEW_EVERY - 1;
    const before = maps();
    const calls = [0, 1].map(() => leanCallTool(client, { name: 'echo', arguments: {} }, options)!);
    const after = maps();
    // Id 63 left the books alone; id 64 renewed each, and both calls are on the new Maps.
    after.forEach((m, i) => expect(m).not.toBe(before[i]));
    expect([...(books._responseHandlers as Map<number, unknown>).keys()]).toEqual([
      RENEW_EVERY - 1,
      RENEW_EVERY,
    ]);
    books._requestMessageId = RENEW_EVERY + 1;
    calls.push(leanCallTool(client, { name: 'echo', arguments: {} }, options)!);
    maps().forEach((m, i) => expect(m).toBe(after[i]));
    for (const c of calls) void c.catch(() => {}); // ended by the close below
    await client.close();
  });
});

/** A 2025-era upstream that answers every request at once. */
class AnsweringTransport extends HeldTransport {
  override async send(m: JSONRPCMessage): Promise<void> {
    const msg = m as { method?: string; id?: number };
    if (msg.method === 'initialize' || msg.id === undefined) return super.send(m);
    queueMicrotask(() =>
      this.onmessage?.({ jsonrpc: '2.0', id: msg.id!, result: { content: [] } } as JSONRPCMessage),
    );
  }
}

describe('calls on both paths, alternating', () => {
  // The SDK path takes ids from the same counter: lean calls on odd ids never saw a multiple of
  // RENEW_EVERY, so the books were never renewed (review of h-surv2). Either phase renews now.
  it.each([true, false])('renew the books every RENEW_EVERY ids (lean first: %s)', async (lean) => {
    const client = new UpstreamClient(
      { name: 'airlock', version: 'test' },
      { versionNegotiation: { mode: 'legacy' } },
    );
    await client.connect(new AnsweringTransport());
    const books = client as unknown as Books;
    const options = {
      signal: new CallAbortController().signal,
      timeout: 60_000,
      maxTotalTimeout: 600_000,
      resetTimeoutOnProgress: true,
    };
    let maps = books._responseHandlers;
    let renewals = 0;
    const first = books._requestMessageId;
    for (let i = 0; i < 20 * RENEW_EVERY; i++) {
      const plain = i % 2 === 0 ? lean : !lean;
      await callUpstream(client, { name: 'echo', arguments: {} }, plain, options);
      if (books._responseHandlers !== maps) {
        renewals++;
        maps = books._responseHandlers;
      }
    }
    // One renewal a multiple of RENEW_EVERY passed, each by whichever path took it.
    const multiples =
      Math.floor((books._requestMessageId - 1) / RENEW_EVERY) -
      Math.floor((first - 1) / RENEW_EVERY);
    expect(renewals).toBe(multiples);
    await client.close();
  });
});

describe('a renewal of the books', () => {
  afterEach(() => vi.restoreAllMocks());

  it('leaves a field that is not a plain Map alone', () => {
    class Counted<K, V> extends Map<K, V> {}
    const books: Record<string, unknown> = {
      _responseHandlers: new Counted([[1, 'a']]),
      _timeoutInfo: [1],
    };
    const before = { ...books };
    renewBooks(books);
    expect(books).toEqual(before);
    expect(books._responseHandlers).toBe(before._responseHandlers);
    expect((books._responseHandlers as Map<number, string>).size).toBe(1);
  });

  it('moves every entry in order to a new Map and empties the old one, last first', () => {
    const books: Record<string, Map<number, string>> = {};
    for (const f of BOOK_MAPS) books[f] = new Map([1, 2, 3].map((k) => [k, `${f}${k}`]));
    const before = { ...books };
    const deleted: unknown[] = [];
    const del = Map.prototype.delete;
    vi.spyOn(Map.prototype, 'delete').mockImplementation(function (this: Map<unknown, unknown>, k) {
      deleted.push(k);
      return del.call(this, k);
    });
    renewBooks(books);
    for (const f of BOOK_MAPS) {
      expect(books[f]).not.toBe(before[f]);
      expect([...books[f]!]).toEqual([1, 2, 3].map((k) => [k, `${f}${k}`]));
      expect(before[f]!.size).toBe(0);
    }
    expect(deleted).toEqual(BOOK_MAPS.flatMap(() => [3, 2, 1]));
  });
});

type Op =
  | { kind: 'start'; progress: boolean }
  | { kind: 'answer' | 'progress' | 'cancel' | 'fail'; pick: number }
  | { kind: 'tick'; ms: number };
/** The idle timeout of every call: ticks of up to 2/3 of it, so that some calls time out. */
const IDLE_MS = 60_000;
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('tick' as const),
      ms: fc.integer({ min: 1, max: (2 * IDLE_MS) / 3 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('start' as const), progress: fc.boolean() }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constantFrom(
        'answer' as const,
        'progress' as const,
        'cancel' as const,
        'fail' as const,
      ),
      pick: fc.nat(),
    }),
  },
);

/**
 * Everything each call's caller saw, in order, on one path: `lean`, `sdk` (the client's own
 * `callTool`, which never renews) or `sdk-renewing` (callUpstream's way to the SDK, which renews).
 */
type Path = 'lean' | 'sdk' | 'sdk-renewing';
async function run(start: number, ops: Op[], closeAt: number | null, path: Path): Promise<unknown> {
  // A fake clock for the calls' timeouts (the Protocol's setTimeout and Date.now); setImmediate,
  // which `settle` waits on, stays real.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 0 });
  try {
    return await runOn(start, ops, closeAt, path);
  } finally {
    vi.useRealTimers();
  }
}

async function runOn(
  start: number,
  ops: Op[],
  closeAt: number | null,
  path: Path,
): Promise<unknown> {
  const { client, t } = await connected();
  const books = client as unknown as Books;
  books._requestMessageId = start;
  const seen: Record<number, unknown[]> = {};
  const open: { id: number; cancel: AbortController }[] = [];
  const waits: Promise<unknown>[] = [];
  let started = 0;
  const all: AbortController[] = [];
  let closed = false;
  for (const [n, o] of ops.entries()) {
    if (n === closeAt) {
      // The connection closes with calls in flight: each fails with "Connection closed".
      await client.close();
      closed = true;
      break;
    }
    if (o.kind === 'tick') vi.advanceTimersByTime(o.ms);
    else if (o.kind === 'start') {
      const cancel = path === 'lean' ? new CallAbortController() : new AbortController();
      const options = {
        signal: cancel.signal,
        timeout: IDLE_MS,
        maxTotalTimeout: 2 * IDLE_MS,
        resetTimeoutOnProgress: true,
        ...(o.progress ? { onprogress: (p: unknown) => void log.push(['progress', p]) } : {}),
      };
      const params = { name: 'echo', arguments: { n: open.length } };
      const log: unknown[] = [];
      const call =
        path === 'lean'
          ? leanCallTool(client, params, options)!
          : path === 'sdk-renewing'
            ? callUpstream(client, params, false, options)
            : client.callTool(params, options);
      // The SDK's callTool sends a few jobs later: its id is the one the upstream got.
      while (t.calls.length === started) await settle();
      const id = t.calls[started++]!;
      seen[id] = log;
      open.push({ id, cancel });
      all.push(cancel);
      waits.push(
        call.then(
          (r) => log.push(['result', r]),
          (e: Error) => log.push(['error', e.message]),
        ),
      );
    } else if (open.length > 0) {
      const i = o.pick % open.length;
      const { id, cancel } = open[i]!;
      if (o.kind === 'progress')
        t.onmessage?.({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: id, progress: o.pick % 7 },
        } as JSONRPCMessage);
      else {
        open.splice(i, 1);
        if (o.kind === 'cancel') cancel.abort('the agent cancelled');
        else if (o.kind === 'fail')
          t.onmessage?.({
            jsonrpc: '2.0',
            id,
            error: { code: -32000, message: `no ${id}` },
          } as never);
        else
          t.onmessage?.({
            jsonrpc: '2.0',
            id,
            result: { content: [{ type: 'text', text: `answer ${id}` }] },
          } as JSONRPCMessage);
      }
    }
    await settle();
  }
  // Every call ends: one whose answer found no handler fails here, not by a test timeout.
  for (const cancel of all) cancel.abort('the test ended');
  await Promise.all(waits);
  const left = BOOK_MAPS.map((f) => (books[f] as Map<unknown, unknown>).size);
  // A timeout the books lost track of is a timer still running after every call ended.
  const timers = vi.getTimerCount();
  if (!closed) await client.close();
  return { seen, left, timers };
}

const property = (ops: fc.Arbitrary<Op[]>) =>
  fc.asyncProperty(
    fc.integer({ min: 0, max: 3 * RENEW_EVERY }),
    ops,
    fc.option(fc.nat(), { freq: 3 }),
    async (start, steps, close) => {
      // Where given, the connection closes before that step (of those generated), else never.
      const closeAt = close === null || steps.length === 0 ? null : close % steps.length;
      const sdk = await run(start, steps, closeAt, 'sdk');
      expect(await run(start, steps, closeAt, 'lean')).toEqual(sdk);
      expect(await run(start, steps, closeAt, 'sdk-renewing')).toEqual(sdk);
    },
  );

describe('calls in flight across renewals ≡ the SDK path', () => {
  it('over generated schedules (tuning seed)', async () => {
    await fc.assert(property(fc.array(op, { minLength: 60, maxLength: 160 })), {
      seed: 32,
      numRuns: 60,
    });
  });

  it('held out: its own seed, longer schedules', async () => {
    await fc.assert(property(fc.array(op, { minLength: 150, maxLength: 400 })), {
      seed: 20261207,
      numRuns: 25,
    });
  });
});
