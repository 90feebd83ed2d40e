import { ReadBuffer } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerId, MALFORMED_ANSWER } from '../http/lean-transport.js';
import { LineReader } from './line-reader.js';

/**
 * Issue 34: a local server's messages are read by LineReader (a shape check) instead of the SDK's
 * ReadBuffer (a zod parse of each). Both are fed the same generated stdout — JSON-RPC requests,
 * notifications, results and errors of every id kind, lines that are not JSON (a server logging to
 * stdout), JSON that is not JSON-RPC, CRLF endings — cut into chunks at arbitrary bytes, inside
 * multi-byte characters included. They must yield the same messages in the same order and refuse
 * the same lines. The one difference is by design: an answer to a request that is not a valid
 * response becomes an error answer for that request (its call fails at once, as over HTTP) where
 * the SDK's reader throws and the call would wait for its timeout.
 */
const json = fc.jsonValue({ maxDepth: 2 });
const id = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 4 }),
  fc.constantFrom(null, 1.5, true, 2 ** 53, -(2 ** 53) + 1),
);
const metaKey = fc.constantFrom(
  'progressToken',
  'io.modelcontextprotocol/related-task',
  'io.modelcontextprotocol/serverInfo',
  'x',
);
const meta = fc.dictionary(
  metaKey,
  fc.oneof(
    id,
    json,
    fc.record({ taskId: fc.string(), extra: json }, { requiredKeys: [] }),
    fc.record({ name: fc.string(), version: fc.string(), extra: json }, { requiredKeys: [] }),
  ),
  { maxKeys: 2 },
);
const obj = fc.oneof(
  fc.dictionary(fc.constantFrom('a', 'é', '_meta', 'progressToken'), json, { maxKeys: 3 }),
  fc.record(
    { _meta: fc.oneof({ weight: 4, arbitrary: meta }, json), a: json },
    { requiredKeys: ['_meta'] },
  ),
);
const message = fc.oneof(
  fc.record(
    { jsonrpc: fc.constant('2.0'), id, method: fc.string({ maxLength: 8 }), params: obj },
    { requiredKeys: ['jsonrpc', 'method'] },
  ),
  fc.record({ jsonrpc: fc.constant('2.0'), id, result: fc.oneof(obj, json) }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.oneof(id, fc.constant(undefined)),
    error: fc.oneof(
      fc.record(
        {
          code: fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 60)),
          message: fc.string(),
          data: json,
          extra: json,
        },
        { requiredKeys: ['code', 'message'] },
      ),
      json,
    ),
  }),
  fc.record({ jsonrpc: fc.constantFrom('2.0', '1.0'), extra: json }),
  // A known shape with one member too many (the SDK's schemas are strict).
  fc.record(
    { jsonrpc: fc.constant('2.0'), id, result: obj, method: fc.string(), extra: json },
    { requiredKeys: ['jsonrpc'] },
  ),
);
const line = fc.oneof(
  { weight: 6, arbitrary: message.map((m) => JSON.stringify(m)) },
  fc.constantFrom('not json', 'Server listening on stdio', '{"jsonrpc":', '', '[]', 'null', '"é"'),
);
const stdout = fc
  .record({
    lines: fc.array(fc.tuple(line, fc.boolean()), { maxLength: 8 }),
    cuts: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }),
  })
  .map(({ lines, cuts }) => ({
    bytes: Buffer.from(lines.map(([l, crlf]) => `${l}${crlf ? '\r\n' : '\n'}`).join(''), 'utf8'),
    cuts,
  }));

type Reader = { append(b: Buffer): void; readMessage(): unknown };

function read(reader: Reader, bytes: Buffer, cuts: number[]): unknown[] {
  const out: unknown[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = cuts[i % cuts.length]!;
    reader.append(bytes.subarray(at, at + n));
    at += n;
    for (;;) {
      try {
        const m = reader.readMessage();
        if (m === null) break;
        const e = (m as { error?: { data?: Record<string, unknown> } }).error;
        out.push(e?.data?.[MALFORMED_ANSWER] ? ['refused answer', (m as { id: unknown }).id] : m);
      } catch {
        out.push(['refused']);
      }
    }
  }
  return out;
}

/** The SDK's reader, a refused answer named as LineReader names it (one output per JSON line). */
function sdkRead(bytes: Buffer, cuts: number[]): unknown[] {
  const ids: (string | number | undefined)[] = [];
  for (const l of bytes.toString('utf8').split('\n').slice(0, -1)) {
    let v: unknown;
    try {
      v = JSON.parse(l.replace(/\r$/, ''));
    } catch {
      continue;
    }
    ids.push(answerId(v));
  }
  return read(new ReadBuffer(), bytes, cuts).map((m, k) =>
    Array.isArray(m) && m[0] === 'refused' && ids[k] !== undefined ? ['refused answer', ids[k]] : m,
  );
}

describe('LineReader ≡ the SDK ReadBuffer', () => {
  it('reads generated stdout alike', () => {
    fc.assert(
      fc.property(stdout, ({ bytes, cuts }) => {
        expect(read(new LineReader(), bytes, cuts)).toEqual(sdkRead(bytes, cuts));
      }),
      { numRuns: 1000 },
    );
  });
});
