import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { StreamableHTTPClientTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directHeaders, directSend } from './direct-call.js';
import type { LeanFetchLike } from './lean-fetch.js';
import { leanTransport, MALFORMED_ANSWER } from './lean-transport.js';

/**
 * sdk-reader.property.test.ts over real sockets, for what a constructed web Response cannot show:
 * the network layer of the stock SDK client's fetch (undici 6.28, Node 22) — content codings
 * (several in one header, raw or zlib-wrapped deflate, casing and spaces, one it does not know,
 * more than five), a coded body damaged (a byte flipped, cut short, garbage after it) — and a body
 * in writes as a server makes them. A node:http server answers each
 * POST with the generated body; the stock SDK transport over the global fetch, lean-send's leg
 * and the direct leg (both over lean-fetch.ts) each send the same call. Compared: the messages
 * delivered in order, whether the send was refused, and how many errors were reported (less the
 * call's MALFORMED_ANSWER error Airlock adds on purpose, `read` below).
 */

const CALL_ID = 3;
const CALL: JSONRPCMessage = {
  jsonrpc: '2.0',
  id: CALL_ID,
  method: 'tools/call',
  params: { name: 't', arguments: {} },
};

type Coding = 'gzip' | 'x-gzip' | 'deflate' | 'deflate-raw' | 'br' | 'identity' | 'zstd';
const CODED: Record<Coding, (b: Buffer) => Buffer> = {
  gzip: gzipSync,
  'x-gzip': gzipSync,
  deflate: deflateSync,
  'deflate-raw': deflateRawSync,
  br: brotliCompressSync,
  identity: (b) => b,
  zstd: (b) => b, // not one fetch decodes: the body passes as it is
};

interface Script {
  sse: boolean;
  boms: 0 | 1 | 2;
  texts: string[];
  codings: { coding: Coding; upper: boolean; pad: boolean }[];
  cuts: number[];
  /** The coded body damaged: a byte flipped, cut short, or garbage after it (a corrupt answer). */
  damage: { kind: 'flip' | 'truncate' | 'append'; at: number } | null;
  /**
   * Headers repeated: more Content-Type lines (fetch joins them with ", ", so the SDK refuses the
   * answer as an unexpected type; node:http keeps only the first), before or after the answer's
   * own, names in any casing; and each content coding on a line of its own (fetch and node:http
   * both join those).
   */
  repeat?: { types: { name: string; value: string }[]; first: boolean; codingLines: boolean };
}

const text = fc
  .array(fc.constantFrom('a', ' ', 'é', '中', '😀', '\ufeff'), { maxLength: 5 })
  .map((c) => c.join(''));
const coding = fc.record({
  coding: fc.constantFrom<Coding>(
    'gzip',
    'gzip',
    'x-gzip',
    'deflate',
    'deflate-raw',
    'deflate-raw',
    'br',
    'br',
    'identity',
    'zstd',
  ),
  upper: fc.boolean(),
  pad: fc.boolean(),
});
const script: fc.Arbitrary<Script> = fc.record({
  sse: fc.boolean(),
  boms: fc.constantFrom<0 | 1 | 2>(0, 1, 2),
  texts: fc.array(text, { minLength: 1, maxLength: 3 }),
  codings: fc.oneof(
    { weight: 8, arbitrary: fc.array(coding, { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.array(coding, { minLength: 5, maxLength: 7 }) },
  ),
  cuts: fc.array(fc.nat(), { maxLength: 4 }),
  damage: fc.option(
    fc.record({
      kind: fc.constantFrom('flip' as const, 'truncate' as const, 'append' as const),
      at: fc.nat(),
    }),
    { freq: 3 },
  ),
});

/** The answer's own type again, the other plain one, parameters, a quoted string cut in two. */
const repeatedType = fc.record({
  name: fc.constantFrom('Content-Type', 'content-type', 'CONTENT-TYPE', 'content-TYPE'),
  value: fc.constantFrom(
    'text/event-stream',
    'application/json',
    'Application/JSON',
    'text/event-stream; charset=utf-8',
    'application/json; charset=utf-8',
    'text/plain',
    'application/json; a="x',
    'text/event-stream; a="x',
    'y"',
    'a=b',
  ),
});
/** Scripts with headers repeated: undamaged, so a refusal's message is compared too. */
const repeated: fc.Arbitrary<Script> = fc.record({
  sse: fc.boolean(),
  boms: fc.constantFrom<0 | 1 | 2>(0, 1, 2),
  texts: fc.array(text, { minLength: 1, maxLength: 3 }),
  codings: fc.array(coding, { maxLength: 3 }),
  cuts: fc.array(fc.nat(), { maxLength: 4 }),
  damage: fc.constant(null),
  repeat: fc.record({
    types: fc.oneof(
      { weight: 1, arbitrary: fc.constant<{ name: string; value: string }[]>([]) },
      { weight: 4, arbitrary: fc.array(repeatedType, { minLength: 1, maxLength: 2 }) },
    ),
    first: fc.boolean(),
    codingLines: fc.boolean(),
  }),
});

function answer(s: Script): { headers: string[]; bytes: Buffer } {
  const notes = s.texts.slice(1).map((t) => ({
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: { level: 'info', data: t },
  }));
  const final = {
    jsonrpc: '2.0',
    id: CALL_ID,
    result: { content: [{ type: 'text', text: s.texts[0] }] },
  };
  const bom = '\ufeff'.repeat(s.boms);
  const body = s.sse
    ? bom + [...notes, final].map((m) => `data: ${JSON.stringify(m)}\n\n`).join('')
    : bom + JSON.stringify([...notes, final]);
  let bytes: Buffer = Buffer.from(body, 'utf8');
  for (const c of s.codings) bytes = CODED[c.coding](bytes);
  if (s.damage && bytes.length > 0) {
    const at = s.damage.at % bytes.length;
    if (s.damage.kind === 'flip') {
      bytes = Buffer.from(bytes);
      bytes[at] = bytes[at]! ^ 0x5a;
    } else if (s.damage.kind === 'truncate') bytes = bytes.subarray(0, at);
    else bytes = Buffer.concat([bytes, Buffer.from([0x1f, 0x8b, at & 0xff, 0x00, 0xff])]);
  }
  // A flat list of names and values (node:http writes each pair as a line of its own).
  const own = ['content-type', s.sse ? 'text/event-stream' : 'application/json'];
  const more = (s.repeat?.types ?? []).flatMap((t) => [t.name, t.value]);
  const headers = s.repeat?.first ? [...more, ...own] : [...own, ...more];
  const codings = s.codings.map((c) => {
    const name = c.coding === 'deflate-raw' ? 'deflate' : c.coding;
    return (c.pad ? ' ' : '') + (c.upper ? name.toUpperCase() : name);
  });
  if (s.repeat?.codingLines) for (const c of codings) headers.push('Content-Encoding', c.trim());
  else if (codings.length > 0) headers.push('content-encoding', codings.join(','));
  return { headers, bytes };
}

let current: Script;
let url: URL;
let stop: () => Promise<void>;

async function respond(res: ServerResponse): Promise<void> {
  const { headers, bytes } = answer(current);
  res.writeHead(200, headers);
  const at = [...new Set(current.cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const to of [...at, bytes.length]) {
    if (to <= from) continue;
    await new Promise((r) => res.write(bytes.subarray(from, to), r));
    from = to;
  }
  res.end();
}

beforeAll(async () => {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST') void respond(res);
      else res.writeHead(405).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  stop = () => {
    server.closeAllConnections();
    return new Promise((r) => server.close(() => r()));
  };
});
afterAll(() => stop());

interface Outcome {
  messages: unknown[];
  refused: boolean;
  errors: number;
  /** What the send was refused with (its class and message), where `why` is kept (`compareWhy`). */
  why?: string;
}
let keepWhy = false;
const why = (err: unknown) =>
  keepWhy ? `${(err as Error)?.constructor?.name}: ${(err as Error)?.message}` : undefined;
const turn = () => new Promise<void>((r) => setImmediate(r));

function watch(t: StreamableHTTPClientTransport) {
  const out: Outcome = { messages: [], refused: false, errors: 0 };
  t.onmessage = (m) => void out.messages.push(m);
  t.onerror = () => void out.errors++;
  let streamEnded!: () => void;
  const ended = new Promise<void>((r) => (streamEnded = r));
  let streaming = false;
  const i = t as unknown as { _handleSseStream: (...a: unknown[]) => void };
  const handle = i._handleSseStream;
  i._handleSseStream = function (this: unknown, ...a: unknown[]) {
    streaming = true;
    return handle.apply(this, a);
  };
  const send = async () => {
    await t.send(CALL, { onRequestStreamEnd: streamEnded }).catch((err: unknown) => {
      out.refused = true;
      if (keepWhy) out.why = why(err);
    });
    if (streaming) await ended;
    await turn();
    return out;
  };
  return { out, send };
}

async function viaSdk(): Promise<Outcome> {
  const t = new StreamableHTTPClientTransport(url);
  await t.start();
  const o = await watch(t).send();
  await t.close();
  return o;
}

async function viaLean(): Promise<Outcome> {
  const t = leanTransport(url, {}, undefined, undefined, false)!;
  await t.start();
  const o = await watch(t).send();
  await t.close();
  return o;
}

async function viaDirect(): Promise<Outcome> {
  const t = leanTransport(url, {}, undefined, undefined, true)!;
  await t.start();
  const { out } = watch(t);
  const f = (t as unknown as { _fetch: LeanFetchLike })._fetch;
  const open = f.open!.bind(f);
  await new Promise<void>((settle) => {
    // Over once the body is read (the reader delivers what it read at once after) or the call
    // failed; then the escalated path's promise chain (no I/O left) runs out.
    f.open = (u, h, b, s, answered, failed) =>
      open(u, h, b, s, (res, done) => answered(res, () => (done(), settle())), failed);
    directSend(t, directHeaders(t) as Record<string, string>, CALL, (err) => {
      out.refused = true;
      if (keepWhy) out.why = why(err);
      settle();
    });
  });
  await turn();
  await turn();
  await t.close();
  return out;
}

/**
 * Airlock's outcome without the call's MALFORMED_ANSWER error: where a damaged body still decodes
 * to JSON that is not JSON-RPC, Airlock fails the call (lean-transport.ts) while the SDK only
 * reports it — a difference made on purpose, not one of reading.
 */
function read(o: Outcome): Outcome {
  const malformed = (m: unknown) =>
    (m as { error?: { data?: Record<string, unknown> } }).error?.data?.[MALFORMED_ANSWER] !==
    undefined;
  return { ...o, messages: o.messages.filter((m) => !malformed(m)) };
}

/**
 * Whether the messages of `s` are not a function of its bytes, for the stock client either: a
 * damaged event stream under two decoders or more. The first decoder's error stops the chain
 * (undici's `pipeline`, lean-fetch.ts `read` alike) while the next one may still hold output on
 * the zlib thread pool: whether that output is read first is a race between two thread-pool jobs.
 * Review of h-rd: under two busy loops the stock client itself lost the one message of
 * `DEFLATE, GZIP` + garbage in 2 of 400 runs (Airlock's readers 1 and 5 of 400) — the flake of
 * this property at base, 1 run in 4 beside sdk-reader.property.test.ts.
 */
function racy(s: Script): boolean {
  if (!s.sse || s.damage === null || s.codings.length < 2) return false;
  const decoded = ['gzip', 'x-gzip', 'deflate', 'deflate-raw', 'br'];
  return s.codings.every((c) => decoded.includes(c.coding));
}

/** Where `racy`: the same errors and refusal, and messages that are the SDK's but for a lost tail. */
function sameUpToRace(got: Outcome, want: Outcome): void {
  expect({ ...got, messages: [] }).toEqual({ ...want, messages: [] });
  const [short, long] = got.messages.length <= want.messages.length ? [got, want] : [want, got];
  expect(short.messages).toEqual(long.messages.slice(0, short.messages.length));
}

async function compare(s: Script): Promise<void> {
  current = s;
  const want = await viaSdk();
  const check = racy(s) ? sameUpToRace : (got: Outcome, w: Outcome) => expect(got).toEqual(w);
  check(read(await viaLean()), want);
  check(read(await viaDirect()), want);
}

describe("Airlock's upstream readers ≡ the stock SDK client's, over sockets (content codings)", () => {
  it('deliver the same messages (or both refuse), over generated codings and bodies', async () => {
    await fc.assert(fc.asyncProperty(script, compare), { seed: 2024, numRuns: 120 });
  });

  it('and on held-out seeds never tuned on', async () => {
    for (const seed of [8675309, 1618])
      await fc.assert(fc.asyncProperty(script, compare), { seed, numRuns: 40 });
  });

  it('headers repeated (Content-Type twice, codings on several lines) are taken as the SDK takes them, refusals alike', async () => {
    keepWhy = true;
    try {
      await fc.assert(fc.asyncProperty(repeated, compare), { seed: 5550, numRuns: 120 });
    } finally {
      keepWhy = false;
    }
  });

  it('and headers repeated on held-out seeds never tuned on', async () => {
    keepWhy = true;
    try {
      for (const seed of [31337, 271828])
        await fc.assert(fc.asyncProperty(repeated, compare), { seed, numRuns: 40 });
    } finally {
      keepWhy = false;
    }
  });

  it('an empty body that names a coding (gzip, deflate, br, a list) is taken as the SDK takes it', async () => {
    const lists: Coding[][] = [['gzip'], ['deflate'], ['br'], ['gzip', 'br']];
    for (const list of lists)
      for (const sse of [false, true]) {
        const codings = list.map((coding) => ({ coding, upper: false, pad: false }));
        const damage = { kind: 'truncate' as const, at: 0 };
        await compare({ sse, boms: 0, texts: ['ok'], codings, cuts: [], damage });
      }
  });

  it('a raw deflate body and a gzip-then-br body are read, as the SDK reads them', async () => {
    for (const codings of [
      [{ coding: 'deflate-raw' as const, upper: false, pad: false }],
      [
        { coding: 'gzip' as const, upper: false, pad: false },
        { coding: 'br' as const, upper: false, pad: true },
      ],
    ])
      for (const sse of [false, true]) {
        current = { sse, boms: 0, texts: ['ok'], codings, cuts: [], damage: null };
        const want = await viaSdk();
        expect(want.messages).toHaveLength(1);
        expect(await viaLean()).toEqual(want);
        expect(await viaDirect()).toEqual(want);
      }
  });
});
