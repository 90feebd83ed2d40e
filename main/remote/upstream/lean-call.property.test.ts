import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CallAbortController } from '../../platform/abort-hooks.js';
import { leanCallTool } from './lean-call.js';
import { UpstreamClient } from './upstream-client.js';

/**
 * Issue 34: the lean tools/call (lean-call.ts) must give its caller exactly what the SDK client's
 * `callTool` gives, for every answer an upstream can send. Both paths run on a real UpstreamClient
 * against a scripted 2025-era upstream; fast-check generates the upstream's side — results with
 * every kind of content, structured content, `isError` (of the right type or not), `_meta`,
 * `resultType`, results that are not objects, JSON-RPC errors (-32042 among them), answers with
 * the id as a string, answers to other ids, progress and log lines before and after the answer,
 * server→client pings, all in one burst (one read) or spread over reads, a connection that closes,
 * and calls the caller cancels. What is compared is everything the caller sees, in order: progress,
 * log lines and transport errors as they arrive, then the outcome (result, or the error's class,
 * code, message and data), and every message written upstream (the request byte for byte, the
 * cancellation, the answer to a ping).
 */
type Step =
  | { kind: 'progress'; progress: number; total?: number; message?: string }
  | { kind: 'log'; level: 'info' | 'error'; data: unknown }
  | { kind: 'stray'; offset: number }
  | { kind: 'ping' };
type Final =
  | { kind: 'result'; result: unknown; stringId: boolean }
  | { kind: 'error'; code: number; message: string; data?: unknown }
  | { kind: 'close' }
  | { kind: 'silent' };
interface Script {
  before: Step[];
  final: Final;
  after: Step[];
  burst: boolean;
  progress: boolean;
  /** The call's own `_meta` (a log level rides there on 2026-07-28). */
  meta?: Record<string, unknown>;
}

const json = fc.jsonValue({ maxDepth: 2 });
const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.string() }),
  fc.record({ type: fc.constant('image'), data: fc.base64String(), mimeType: fc.string() }),
  fc.record({ type: fc.constant('audio'), data: fc.base64String(), mimeType: fc.string() }),
  fc.record({ type: fc.constant('resource_link'), uri: fc.webUrl(), name: fc.string() }),
  fc.record({
    type: fc.constant('resource'),
    resource: fc.record({ uri: fc.webUrl(), text: fc.string() }),
  }),
  fc.record({ type: fc.string(), extra: json }),
  // Not content blocks: the shape check must refuse them on both paths alike.
  fc.constantFrom(null, 'text', 3, { text: 'no type' }, { type: 7 }),
);
const result = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        content: fc.oneof({ weight: 5, arbitrary: fc.array(block, { maxLength: 4 }) }, json),
        structuredContent: json,
        isError: fc.oneof({ weight: 4, arbitrary: fc.boolean() }, fc.constantFrom('yes', 1, null)),
        _meta: fc.oneof({ weight: 4, arbitrary: fc.dictionary(fc.string(), json) }, json),
        resultType: fc.constantFrom('complete', 'input_required', 5),
        extra: json,
      },
      { requiredKeys: [] },
    ),
  },
  fc.constantFrom(null, [], 'done', 42, true),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      {
        kind: fc.constant('progress' as const),
        progress: fc.integer({ min: 0, max: 20 }),
        total: fc.integer({ min: 1, max: 20 }),
        message: fc.string(),
      },
      { requiredKeys: ['kind', 'progress'] },
    ),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('log' as const),
      level: fc.constantFrom('info' as const, 'error' as const),
      data: json,
    }),
  },
  fc.record({ kind: fc.constant('stray' as const), offset: fc.integer({ min: 1, max: 3 }) }),
  fc.constant({ kind: 'ping' as const }),
);
const final: fc.Arbitrary<Final> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('result' as const), result, stringId: fc.boolean() }),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        kind: fc.constant('error' as const),
        code: fc.oneof(fc.constantFrom(-32042, -32602, -32603, -32001), fc.integer()),
        message: fc.string(),
        data: fc.oneof(json, fc.constant({ elicitations: [] })),
      },
      { requiredKeys: ['kind', 'code', 'message'] },
    ),
  },
  fc.constant({ kind: 'close' as const }),
  fc.constant({ kind: 'silent' as const }),
);
const script: fc.Arbitrary<Script> = fc.record({
  before: fc.array(step, { maxLength: 6 }),
  final,
  after: fc.array(step, { maxLength: 2 }),
  burst: fc.boolean(),
  progress: fc.boolean(),
  meta: fc.option(fc.dictionary(fc.constantFrom('progressToken', 'a', 'b'), json), {
    nil: undefined,
  }),
});

/** A 2025-era upstream on the other end of a transport, answering the call as `s` says. */
class ScriptedTransport implements Transport {
  onmessage?: (m: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (e: Error) => void;
  readonly written: JSONRPCMessage[] = [];
  calls = 0;
  constructor(private readonly s: Script) {}
  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
  async send(m: JSONRPCMessage): Promise<void> {
    const msg = m as {
      method?: string;
      id?: number;
      params?: { _meta?: { progressToken?: number } };
    };
    if (msg.method === 'initialize')
      return void queueMicrotask(() =>
        this.onmessage?.({
          jsonrpc: '2.0',
          id: msg.id!,
          result: {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {}, logging: {} },
            serverInfo: { name: 'scripted', version: '1' },
          },
        } as JSONRPCMessage),
      );
    this.written.push(m);
    if (msg.method === 'tools/call') void this.answer(msg.id!, msg.params?._meta?.progressToken);
  }

  private async answer(id: number, token: number | undefined): Promise<void> {
    const out: JSONRPCMessage[] = [];
    const steps = (list: Step[]) => list.forEach((st) => out.push(this.message(st, id, token)));
    steps(this.s.before);
    const f = this.s.final;
    if (f.kind === 'result')
      out.push({ jsonrpc: '2.0', id: f.stringId ? String(id) : id, result: f.result } as never);
    else if (f.kind === 'error')
      out.push({
        jsonrpc: '2.0',
        id,
        error: { code: f.code, message: f.message, ...('data' in f ? { data: f.data } : {}) },
      } as never);
    steps(this.s.after);
    await settle();
    for (const m of out) {
      this.onmessage?.(m);
      if (!this.s.burst) await settle();
    }
    if (f.kind === 'close') this.onclose?.();
    this.calls++;
  }

  private n = 1000;
  private message(st: Step, id: number, token: number | undefined): JSONRPCMessage {
    if (st.kind === 'progress') {
      const { kind: _k, ...p } = st;
      return {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token ?? id, ...p },
      } as never;
    }
    if (st.kind === 'log')
      return {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: st.level, data: st.data },
      } as never;
    if (st.kind === 'stray')
      return { jsonrpc: '2.0', id: id + st.offset, result: { content: [] } } as never;
    return { jsonrpc: '2.0', id: `ping-${this.n++}`, method: 'ping' } as never;
  }
}

/** Lets every queued microtask and I/O callback run (the scripted upstream's "next read"). */
const settle = () => new Promise<void>((r) => setImmediate(r));

type Path = 'sdk' | 'lean';

/** The caller's outcome and the books it found then (`run`), not what reached the handlers. */
const outcome = (e: unknown) =>
  Array.isArray(e) && (e[0] === 'result' || e[0] === 'error' || e[0] === 'books');

/**
 * What is still joined to a call's signal: its `abort` listeners and, on a CallAbortController's
 * signal (remote-calls.ts hands the lean path one, `lost`), its abort hooks (abort-hooks.ts).
 */
function abortJoins(signal: AbortSignal): number {
  const hooks = Object.getOwnPropertySymbols(signal)
    .filter((k) => k.description === 'abort hooks')
    .map((k) => (signal as unknown as Record<symbol, Set<unknown>>)[k]!.size);
  return getEventListeners(signal, 'abort').length + hooks.reduce((a, b) => a + b, 0);
}

async function run(s: Script, path: Path): Promise<unknown[]> {
  const seen: unknown[] = [];
  const client = new UpstreamClient(
    { name: 'airlock', version: 'test' },
    { versionNegotiation: { mode: 'legacy' } },
  );
  client.setNotificationHandler('notifications/message', (n) => void seen.push(['log', n.params]));
  client.onerror = (e) => seen.push(['onerror', e.message]);
  const t = new ScriptedTransport(s);
  await client.connect(t);
  // The lean path as remote-calls.ts drives it: on its own controller's signal, by hooks.
  const cancel = path === 'lean' ? new CallAbortController() : new AbortController();
  const options = {
    signal: cancel.signal,
    timeout: 60_000,
    maxTotalTimeout: 600_000,
    resetTimeoutOnProgress: true,
    ...(s.progress ? { onprogress: (p: unknown) => void seen.push(['progress', p]) } : {}),
  };
  const params = {
    name: 'echo',
    arguments: { message: 'hi' },
    ...(s.meta ? { _meta: s.meta } : {}),
  };
  const lean = path === 'lean' ? leanCallTool(client, params, options) : undefined;
  if (path === 'lean') expect(lean).toBeDefined();
  // The books as the caller finds them when it sees the outcome (lean-call.ts settles them
  // without the SDK's `.finally`): the call's handlers, timeout and abort listener all gone.
  const books = client as unknown as Record<string, Map<unknown, unknown>>;
  const left = () => [
    'books',
    books._responseHandlers!.size,
    books._progressHandlers!.size,
    books._timeoutInfo!.size,
    abortJoins(cancel.signal),
  ];
  const call = (lean ?? client.callTool(params, options)).then(
    (r) => seen.push(['result', r], left()),
    (e: Error & { code?: unknown; data?: unknown }) =>
      seen.push(['error', e.constructor.name, e.code, e.message, e.data], left()),
  );
  let settled = false;
  void call.then(() => (settled = true));
  while (t.calls === 0) await settle();
  await settle();
  // Silent upstream, an answer the SDK could not place, or a stray: the caller gives up.
  if (!settled) cancel.abort('the agent cancelled');
  await call;
  await settle();
  seen.push(['written', JSON.stringify(t.written)]);
  await client.close();
  return seen;
}

describe('lean tools/call ≡ the SDK client', () => {
  it('gives the caller the same for generated upstream answers', async () => {
    await fc.assert(
      fc.asyncProperty(script, async (s) => {
        const [lean, sdk] = [await run(s, 'lean'), await run(s, 'sdk')];
        // Everything else the caller sees, in the same order; the outcome the same.
        expect(lean.filter((e) => !outcome(e))).toEqual(sdk.filter((e) => !outcome(e)));
        expect(lean.filter(outcome)).toEqual(sdk.filter(outcome));
        // The outcome after the progress and log lines the messages before the answer brought
        // (issue 28), and no later than the SDK's: the lean call hands it over without the SDK
        // `.finally`'s three jobs, so what the upstream sent after the answer (in the same read),
        // and the SDK's `onerror` reports of bad notifications (its handlers' rejections, some
        // jobs later), may now come after the caller has the outcome.
        const handled = (seen: unknown[]) =>
          seen.slice(0, seen.findIndex(outcome)).filter((e) => (e as unknown[])[0] !== 'onerror')
            .length;
        expect(handled(lean)).toBeGreaterThanOrEqual(
          handled(await run({ ...s, after: [] }, 'sdk')),
        );
        expect(lean.findIndex(outcome)).toBeLessThanOrEqual(sdk.findIndex(outcome));
      }),
      { numRuns: 300, seed: 34 },
    );
  });

  it('takes the SDK path where the era is not 2025', () => {
    const client = new UpstreamClient({ name: 'airlock', version: 'test' }, {});
    const options = {
      signal: new AbortController().signal,
      timeout: 60_000,
      maxTotalTimeout: 600_000,
      resetTimeoutOnProgress: true,
    };
    expect(leanCallTool(client, { name: 'echo', arguments: {} }, options)).toBeUndefined();
  });

  it('takes the SDK path for a task-augmented call', async () => {
    const client = new UpstreamClient(
      { name: 'airlock', version: 'test' },
      { versionNegotiation: { mode: 'legacy' } },
    );
    await client.connect(
      new ScriptedTransport({
        before: [],
        final: { kind: 'silent' },
        after: [],
        burst: true,
        progress: false,
      }),
    );
    const options = {
      signal: new AbortController().signal,
      timeout: 60_000,
      maxTotalTimeout: 600_000,
      resetTimeoutOnProgress: true,
    };
    const params = { name: 'echo', arguments: {}, task: { ttl: 1000 } };
    expect(leanCallTool(client, params, options)).toBeUndefined();
    const plain = leanCallTool(client, { name: 'echo', arguments: {} }, options);
    expect(plain).toBeDefined();
    void plain?.catch(() => {}); // ended by the close below
    await client.close();
  });
});

describe('lean tools/call hand-over (issue 34)', () => {
  /**
   * The result reaches the caller two jobs after the answer is delivered — the response's dispatch
   * (UpstreamClient._onresponse) and the caller's own reaction — with none of the SDK `.finally`'s
   * three between; a failed call's books are settled before the caller's rejection handler runs
   * (the property above checks both against the SDK path). Jobs are counted, not timed.
   */
  async function hops(final: Final): Promise<{ jobs: number; books: number[] }> {
    const client = new UpstreamClient(
      { name: 'airlock', version: 'test' },
      { versionNegotiation: { mode: 'legacy' } },
    );
    const t = new ScriptedTransport({
      before: [],
      final: { kind: 'silent' },
      after: [],
      burst: true,
      progress: false,
    });
    await client.connect(t);
    const signal = new CallAbortController().signal;
    const options = {
      signal,
      timeout: 60_000,
      maxTotalTimeout: 600_000,
      resetTimeoutOnProgress: true,
    };
    const call = leanCallTool(client, { name: 'echo', arguments: {} }, options)!;
    const id = (t.written.at(-1) as { id: number }).id;
    let jobs = 0;
    let seen = -1;
    const books = client as unknown as Record<string, Map<unknown, unknown>>;
    let left: number[] = [];
    const outcome = call.then(
      () => void (seen = jobs),
      () => {
        seen = jobs;
        // The abort listener too: the SDK's dispatch has already taken the handler and timeout.
        left = [books._responseHandlers!.size, books._timeoutInfo!.size, abortJoins(signal)];
      },
    );
    const answer =
      final.kind === 'result'
        ? { jsonrpc: '2.0', id, result: final.result }
        : { jsonrpc: '2.0', id, error: { code: -32000, message: 'no' } };
    t.onmessage?.(answer as JSONRPCMessage);
    const tick = (): void => {
      if (++jobs < 20) void Promise.resolve().then(tick);
    };
    void Promise.resolve().then(tick);
    await outcome;
    await client.close();
    return { jobs: seen, books: left };
  }

  it('hands a result over in two jobs', async () => {
    const r = await hops({ kind: 'result', result: { content: [] }, stringId: false });
    expect(r.jobs).toBeLessThanOrEqual(2);
  });

  it('settles a failed call before its caller sees the error', async () => {
    const r = await hops({ kind: 'error', code: -32000, message: 'no' });
    expect(r.books).toEqual([0, 0, 0]);
  });
});
