import http from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { Logger } from '../platform/log.js';
import type { CallOptions, CallToolResult } from '../tools/types.js';
import type { AgentFeatures } from './mcp-handlers/api.js';
import { McpEndpoint, type AgentToolCalls } from './mcp-endpoint.js';
import { ModernHotTransport } from './modern-hot.js';

/**
 * Issue 34: the hot path for 2026-07-28 requests (modern-hot.ts) answers exactly what the SDK's
 * per-request handler answers — status, framing, every message in order — over generated
 * requests: ids of both kinds, progress tokens, extra _meta, unknown and failing tools, bad
 * arguments, declared capabilities (the relay's checks and URL elicitation read them).
 */

/** A pipeline whose answers depend on the tool name only; `started` sees each call's signal. */
class FakeCalls implements AgentToolCalls {
  readonly signals: AbortSignal[] = [];
  listTools() {
    return Promise.resolve([
      { name: 'echo', inputSchema: { type: 'object' as const } },
      { name: 'progress', description: 'two steps', inputSchema: { type: 'object' as const } },
    ]);
  }
  async call(_agent: string, name: string, args: unknown, o: CallOptions): Promise<CallToolResult> {
    this.signals.push(o.signal!);
    const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });
    switch (name) {
      case 'echo':
        return text(JSON.stringify(args ?? null));
      case 'progress':
        o.progress?.(1, 2, 'half');
        o.progress?.(2);
        return text('done');
      case 'bad':
        return { isError: true, content: [{ type: 'text', text: 'Invalid arguments for bad' }] };
      case 'broken':
        return { content: 'not a list' } as unknown as CallToolResult;
      case 'throws':
        throw new Error('boom');
      case 'rejects-null':
        return Promise.reject(null as unknown as Error);
      case 'rejects-undefined':
        return Promise.reject(undefined as unknown as Error);
      case 'relay':
        return text(String(o.relay?.refusal?.('sampling/createMessage', {}) ?? 'relayed'));
      case 'waiting':
        return text(o.noWait ? 'waiting' : 'waited');
      case 'late':
        // Cancelled, it still reports progress once `lateGate` opens, then ends (review of h-rd).
        return new Promise((resolve) =>
          o.signal!.addEventListener(
            'abort',
            () =>
              void lateGate.promise.then(() => {
                o.progress?.(9, 9, 'late');
                lateSent.resolve();
                resolve(text('late'));
              }),
          ),
        );
      case 'gated':
        return secondGate.promise.then(() => text('second'));
      case 'hang':
        return new Promise((_, reject) =>
          o.signal!.addEventListener('abort', () => reject(new Error('x'))),
        );
      default:
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    }
  }
  waitingApproval(result: CallToolResult) {
    const first = (result.content as { text?: string }[])[0];
    return first?.text === 'waiting' ? { id: 'r1', url: 'http://127.0.0.1:1/#/approve/r1' } : null;
  }
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
let lateGate = deferred();
let lateSent = deferred();
let secondGate = deferred();

interface Served {
  url: string;
  calls: FakeCalls;
  endpoint: McpEndpoint;
  server: http.Server;
}

async function serve(hotPath: boolean): Promise<Served> {
  const calls = new FakeCalls();
  const endpoint = new McpEndpoint({
    pipeline: calls,
    features: {} as AgentFeatures,
    logger: new Logger({ stderr: false }),
    version: '0.0.0-test',
    maxBodyBytes: 1 << 20,
    hotPath,
  });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const parsedBody = raw.length ? (JSON.parse(raw.toString()) as unknown) : undefined;
      void endpoint.handle({ req, res, agent: 'a', parsedBody, raw, credential: 'c' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, calls, endpoint, server };
}

let hot: Served;
let sdk: Served;
beforeAll(async () => {
  [hot, sdk] = await Promise.all([serve(true), serve(false)]);
});
afterAll(async () => {
  for (const s of [hot, sdk]) {
    await s.endpoint.close();
    s.server.closeAllConnections();
    await new Promise((r) => s.server.close(r));
  }
});

interface Sent {
  body: unknown;
  headers: Record<string, string>;
}

/** Status, content type and every JSON-RPC message of the answer, in order. */
async function answer(url: string, sent: Sent) {
  const res = await fetch(url, {
    method: 'POST',
    headers: sent.headers,
    body: JSON.stringify(sent.body),
  });
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  const messages = type.startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)) as unknown)
    : text
      ? [JSON.parse(text) as unknown]
      : [];
  return { status: res.status, type: type.split(';')[0], messages };
}

const tools = ['echo', 'progress', 'bad', 'broken', 'throws', 'relay', 'waiting', 'nope'];
const capabilities = fc.constantFrom<Record<string, unknown>>(
  {},
  { sampling: {} },
  { elicitation: { url: {} } },
  { elicitation: {}, sampling: {} },
);
const requestArb = fc.record({
  id: fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -5, max: 1_000_000 })),
  method: fc.constantFrom('tools/call', 'tools/call', 'tools/call', 'tools/list', 'ping'),
  name: fc.constantFrom(...tools),
  args: fc.oneof(
    fc.constant(undefined),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    fc.constantFrom<unknown>([1, 2], 'text', 7, null),
  ),
  progressToken: fc.option(fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), { nil: undefined }),
  extraMeta: fc.option(fc.record({ 'example.com/trace': fc.string({ maxLength: 4 }) }), {
    nil: undefined,
  }),
  caps: capabilities,
  clientInfo: fc.boolean(),
});

type Generated = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

const plain: Generated = {
  id: 1,
  method: 'tools/call',
  name: 'echo',
  args: {},
  progressToken: undefined,
  extraMeta: undefined,
  caps: {},
  clientInfo: false,
};

function build(r: Generated): Sent {
  const meta: Record<string, unknown> = {
    [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
    [CLIENT_CAPABILITIES_META_KEY]: r.caps,
    ...(r.clientInfo ? { [CLIENT_INFO_META_KEY]: { name: 'gen', version: '1' } } : {}),
    ...(r.progressToken !== undefined ? { progressToken: r.progressToken } : {}),
    ...r.extraMeta,
  };
  const call = r.method === 'tools/call';
  const params: Record<string, unknown> = {
    ...(call ? { name: r.name } : {}),
    ...(call && r.args !== undefined ? { arguments: r.args } : {}),
    _meta: meta,
  };
  return {
    body: { jsonrpc: '2.0', id: r.id, method: r.method, params },
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': r.method,
      ...(call ? { 'mcp-name': r.name } : {}),
    },
  };
}

describe('2026-07-28 hot path (issue 34)', () => {
  it('answers every generated request as the SDK per-request handler does', async () => {
    const took = vi.spyOn(ModernHotTransport.prototype, 'serve');
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const sent = build(r);
        const [fast, reference] = await Promise.all([answer(hot.url, sent), answer(sdk.url, sent)]);
        expect(fast).toEqual(reference);
        const last = reference.messages.at(-1) as {
          error?: unknown;
          result?: { resultType?: string };
        };
        seen.add(
          `${reference.status} ${reference.type} ${last.error ? 'error' : last.result?.resultType}`,
        );
      }),
      {
        numRuns: 120,
        // Each kind of answer at least once, whatever the seed: an approval-waiting call from a
        // client with URL elicitation (input_required) and a call with progress (an event stream).
        examples: [
          [{ ...plain, name: 'waiting', caps: { elicitation: { url: {} } } }],
          [{ ...plain, name: 'progress', progressToken: 'p' }],
          [{ ...plain, name: 'nope' }],
          // The relay's capability check reads this request's envelope, not the shared server.
          [{ ...plain, name: 'relay', caps: { sampling: {} } }],
        ],
      },
    );
    // The generated requests reached each kind of answer: JSON, an event stream (progress first),
    // JSON-RPC errors, and an input_required answer (URL elicitation for approval).
    expect([...seen].sort()).toEqual(
      expect.arrayContaining([
        '200 application/json complete',
        '200 text/event-stream complete',
        '200 application/json error',
        '200 application/json input_required',
      ]),
    );
    // The hot side did take the hot path (the reference never does).
    expect(took.mock.calls.length).toBeGreaterThan(100);
    took.mockRestore();
  });

  // `_onrequest` reads `error["code"]` of what a handler rejects with: null or undefined threw
  // there, and the agent got no answer at all (call-server.ts `answerable`).
  it.each(['rejects-null', 'rejects-undefined'])(
    'a call whose tool %s is answered as an Internal error, on the hot path and the SDK alike',
    async (name) => {
      const sent = build({ ...plain, name });
      const [fast, reference] = await Promise.all([answer(hot.url, sent), answer(sdk.url, sent)]);
      expect(reference.messages).toEqual([
        { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } },
      ]);
      expect(fast).toEqual(reference);
    },
  );

  it('a request the hot path leaves alone (no Mcp-Name) gets the SDK answer on both', async () => {
    const sent = build(plain);
    delete sent.headers['mcp-name'];
    const [fast, reference] = await Promise.all([answer(hot.url, sent), answer(sdk.url, sent)]);
    expect(fast.status).toBe(400);
    expect(fast).toEqual(reference);
  });

  it('writes an answer, and the progress before it, in one socket write', async () => {
    const port = Number(new URL(hot.url).port);
    const proto = Socket.prototype as unknown as { _writeGeneric: (...a: unknown[]) => unknown };
    const original = proto._writeGeneric;
    let writes = 0;
    const spy = vi.spyOn(proto, '_writeGeneric').mockImplementation(function (
      this: Socket,
      ...a: unknown[]
    ) {
      if (this.localPort === port) writes++;
      return original.apply(this, a);
    });
    for (const r of [plain, { ...plain, name: 'progress', progressToken: 7 }]) {
      writes = 0;
      const got = await answer(hot.url, build(r));
      expect(got.messages).toHaveLength(r.name === 'progress' ? 3 : 1);
      expect(writes).toBe(1);
    }
    spy.mockRestore();
  });

  it("a hot call's signal is its request's own: no second controller joined to it (issue 34)", async () => {
    const lent = vi.spyOn(ModernHotTransport.prototype, 'controllerOf');
    const took = vi.spyOn(ModernHotTransport.prototype, 'serve');
    const sent = build({ ...plain, id: 'own', name: 'hang' });
    const before = hot.calls.signals.length;
    const abort = new AbortController();
    const pending = fetch(hot.url, {
      method: 'POST',
      headers: sent.headers,
      body: JSON.stringify(sent.body),
      signal: abort.signal,
    }).catch(() => null);
    await eventually(() => expect(hot.calls.signals.length).toBeGreaterThan(before));
    const signal = hot.calls.signals.at(-1)!;
    // The lone path (modern-lone-call.ts) runs it on its exchange's controller, which
    // controllerOf names; the server's path asks controllerOf for it.
    const transport = took.mock.contexts[0] as ModernHotTransport;
    const held = Array.from({ length: 500 }, (_, k) => transport.controllerOf(k)?.signal);
    const own = lent.mock.results.map((r) => (r.value as AbortController | undefined)?.signal);
    expect([...own, ...held]).toContain(signal);
    // And its envelope was lifted by the transport (modern-route.ts liftSureEnvelope).
    expect(transport.liftsEnvelopes).toBe(true);
    took.mockRestore();
    abort.abort();
    await pending;
    await eventually(() => expect(signal.aborted).toBe(true));
    lent.mockRestore();
  });

  // Review of h-rd: the agent's ids are its own (two requests may both be id 1, one after the
  // other); a call whose client went away must never speak on a later request's stream, even
  // with the same id and progress token. The hot transport keys each exchange by its own count
  // (modern-hot.ts), the SDK path by its per-request server; both drop the late progress.
  it("a cancelled call's late progress never reaches a new request with its id and token", async () => {
    for (const side of [hot, sdk]) {
      lateGate = deferred();
      lateSent = deferred();
      secondGate = deferred();
      const first = build({ ...plain, id: 1, progressToken: 'p', name: 'late' });
      const before = side.calls.signals.length;
      const abort = new AbortController();
      const pending = fetch(side.url, {
        method: 'POST',
        headers: first.headers,
        body: JSON.stringify(first.body),
        signal: abort.signal,
      }).catch(() => null);
      await eventually(() => expect(side.calls.signals.length).toBe(before + 1));
      const signal = side.calls.signals.at(-1)!;
      abort.abort();
      await pending;
      await eventually(() => expect(signal.aborted).toBe(true));
      const second = build({ ...plain, id: 1, progressToken: 'p', name: 'gated' });
      const answered = answer(side.url, second);
      await eventually(() => expect(side.calls.signals.length).toBe(before + 2));
      lateGate.resolve();
      await lateSent.promise;
      secondGate.resolve();
      const got = await answered;
      // The answer alone, as JSON: no notifications/progress of the first call before it.
      expect(got.messages).toMatchObject([
        { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'second' }] } },
      ]);
      expect(got.type).toBe('application/json');
    }
  });

  it('a client that goes away cancels its call, as on the SDK path, and leaves nothing behind', async () => {
    const took = vi.spyOn(ModernHotTransport.prototype, 'serve');
    for (const side of [hot, sdk]) {
      const sent = build({ ...plain, id: 'h', name: 'hang' });
      const before = side.calls.signals.length;
      const abort = new AbortController();
      const pending = fetch(side.url, {
        method: 'POST',
        headers: sent.headers,
        body: JSON.stringify(sent.body),
        signal: abort.signal,
      }).catch(() => null);
      await eventually(() => expect(side.calls.signals.length).toBeGreaterThan(before));
      const signal = side.calls.signals.at(-1)!;
      const aborted = new Promise<unknown>((r) =>
        signal.addEventListener('abort', () => r(signal.reason), { once: true }),
      );
      abort.abort();
      await pending;
      const reason = await aborted;
      expect(reason).toMatchObject({ message: 'Connection closed' });
    }
    const transport = took.mock.contexts[0] as ModernHotTransport;
    expect(transport.inFlight).toBe(0);
    took.mockRestore();
  });
});
