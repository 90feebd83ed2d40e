import {
  Client,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCResponse,
  type Transport,
} from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainResultResponse, UpstreamClient } from './upstream-client.js';

/**
 * Issue 34: UpstreamClient hands a plain result response to `_onresponse` without the SDK's zod
 * classification. That is only sound if every message `plainResultResponse` takes is one the
 * SDK's own `isJSONRPCResultResponse` takes too (the SDK's dispatch would have sent it to the same
 * place); what it declines goes through the SDK's dispatch unchanged. The library is the
 * reference: generated messages near the schema's edges — versions, ids of every JSON type (and
 * integers beyond 2^53), results of every JSON type with and without `_meta`, extra and missing
 * members, an `error` beside the result.
 */
const id = fc.oneof(
  fc.integer(),
  fc.constantFrom(2 ** 53, -(2 ** 53), 1.5, Number.MAX_VALUE, -0),
  fc.string({ maxLength: 4 }),
  fc.constantFrom(null, true, undefined),
);
const meta = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
  fc.record({ progressToken: fc.oneof(fc.integer(), fc.string(), fc.constant(null)) }),
  fc.jsonValue({ maxDepth: 1 }),
);
const result = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  fc.record({ content: fc.array(fc.record({ type: fc.constant('text'), text: fc.string() })) }),
  fc.record({ _meta: meta, content: fc.constant([]) }),
  fc.jsonValue({ maxDepth: 1 }),
);
const anyMembers = fc.record(
  {
    jsonrpc: fc.constantFrom('2.0', '2.0', '2.0', '1.0', 2),
    id,
    result,
    error: fc.record({ code: fc.integer(), message: fc.string() }),
    method: fc.string({ maxLength: 6 }),
    extra: fc.jsonValue({ maxDepth: 0 }),
  },
  { requiredKeys: [] },
);
/** Mostly answer-shaped, so the edges of each member are reached with the others valid. */
const answerShaped = fc
  .tuple(
    fc.record({ jsonrpc: fc.constantFrom('2.0', '2.0', '1.0'), id, result }),
    fc.option(fc.constantFrom('error', 'method', 'extra'), { nil: undefined, freq: 4 }),
  )
  .map(([m, more]) => (more ? { ...m, [more]: 1 } : m));
const message = fc.oneof(anyMembers, answerShaped);

describe('plainResultResponse ⊆ the SDK’s isJSONRPCResultResponse', () => {
  it('takes nothing the SDK schema refuses', () => {
    fc.assert(
      fc.property(message, (m) => {
        if (plainResultResponse(m)) expect(isJSONRPCResultResponse(m)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('takes the plain answers of a call (so the fast path is the one taken)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0 }), fc.string()),
        fc.record({
          content: fc.array(fc.record({ type: fc.constant('text'), text: fc.string() })),
        }),
        (i, r) => {
          const m = { jsonrpc: '2.0', id: i, result: r };
          expect(plainResultResponse(m)).toBe(true);
          expect(isJSONRPCResultResponse(m)).toBe(true);
        },
      ),
    );
  });
});

/**
 * The dispatch as a whole: UpstreamClient (both shortcuts) against the SDK client with only the
 * response deferral UpstreamClient has always had, over a scripted upstream that answers each
 * tools/call with a generated burst — results of every shape for the call's id, the id as a
 * string, answers to ids not asked for, errors, log lines — and then closes. What the caller
 * sees must match: the outcome (result, or the error's class, code and message), the log lines
 * and the transport errors, in order.
 */
class Reference extends Client {
  protected override _onresponse(response: JSONRPCResponse): void {
    queueMicrotask(() => super._onresponse(response));
  }
  // The same result check as UpstreamClient's, so that only the dispatch differs.
  override request = UpstreamClient.prototype.request;
}

type Reply =
  | { kind: 'answer'; id: 'own' | 'string' | 'other'; body: unknown; error: boolean }
  | { kind: 'log'; data: number };
const reply: fc.Arbitrary<Reply> = fc.oneof(
  fc.record({
    kind: fc.constant('answer' as const),
    id: fc.constantFrom('own' as const, 'own' as const, 'string' as const, 'other' as const),
    body: result,
    error: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('log' as const), data: fc.integer() }),
);

function scripted(replies: Reply[]): Transport {
  const t: Transport = {
    start: () => Promise.resolve(),
    close: () => Promise.resolve(t.onclose?.()),
    send: (m: JSONRPCMessage) => {
      const msg = m as { id?: number; method?: string };
      if (msg.id === undefined) return Promise.resolve();
      const answers: unknown[] =
        msg.method === 'initialize'
          ? [
              {
                jsonrpc: '2.0',
                id: msg.id,
                result: {
                  protocolVersion: '2025-11-25',
                  capabilities: { tools: {}, logging: {} },
                  serverInfo: { name: 'scripted', version: '1' },
                },
              },
            ]
          : replies.map((r) =>
              r.kind === 'log'
                ? {
                    jsonrpc: '2.0',
                    method: 'notifications/message',
                    params: { level: 'info', data: r.data },
                  }
                : {
                    jsonrpc: '2.0',
                    id: r.id === 'own' ? msg.id : r.id === 'string' ? String(msg.id) : 999,
                    ...(r.error ? { error: { code: -32000, message: 'no' } } : { result: r.body }),
                  },
            );
      // After the SDK has put the request on its books (it does so once `send` has returned).
      setImmediate(() => {
        for (const a of answers) t.onmessage?.(a as JSONRPCMessage);
        // Closed once what the burst settles is settled: a call left unanswered ends there.
        if (msg.method !== 'initialize') setImmediate(() => void t.close());
      });
      return Promise.resolve();
    },
  };
  return t;
}

async function seen(client: Client, replies: Reply[]): Promise<unknown> {
  const log: unknown[] = [];
  client.setNotificationHandler('notifications/message', (n) => void log.push(n.params.data));
  client.onerror = (e) => void log.push(`error: ${e.message}`);
  await client.connect(scripted(replies));
  const outcome = await client.callTool({ name: 'echo', arguments: {} }).then(
    (r) => ({ result: r }),
    (e: Error & { code?: unknown }) => ({ error: [e.constructor.name, e.code, e.message] }),
  );
  return { outcome, log };
}

describe('UpstreamClient dispatch ≡ the SDK client', () => {
  it('gives the caller the same for generated answers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(reply, { maxLength: 4 }), async (replies) => {
        const options = { versionNegotiation: { mode: 'legacy' as const } };
        const info = { name: 'airlock', version: 'test' };
        expect(await seen(new UpstreamClient(info, options), replies)).toEqual(
          await seen(new Reference(info, options), replies),
        );
      }),
      { numRuns: 300 },
    );
  });
});
