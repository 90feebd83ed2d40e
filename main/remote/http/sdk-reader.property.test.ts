import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { StreamableHTTPClientTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { directHeaders, directSend } from './direct-call.js';
import { leanResponse } from './lean-fetch.js';
import { leanTransport } from './lean-transport.js';

/**
 * "A gateway loses nothing": Airlock's upstream readers take from an answer exactly what the stock
 * SDK client takes. One generated answer body (200, a generated content type) is read four ways:
 *
 *  - the reference: the stock SDK 2.4 client transport, `StreamableHTTPClientTransport.send`
 *    with a `fetch` that returns a web `Response` over a `ReadableStream` of the body's exact
 *    pieces — so the SDK's own `_send` picks the reader (`mediaTypeEssence`), and its own
 *    `_handleSseStream` (`TextDecoderStream` → `EventSourceParserStream`) or `response.json()`
 *    reads it, chunk for chunk as given. What a constructed Response does not repeat of the
 *    network — content codings — is sdk-reader.socket.property.test.ts's, over real sockets
 *    (a repeated Content-Type, which fetch joins with ", ", is generated here too: `repeated`);
 *  - lean-send's leg (leanTransport with `direct` off): LeanBody over a node stream of the same
 *    pieces, read by lean-transport.ts `readStream` or LeanResponse.json;
 *  - the direct leg (direct-call.ts `directSend`): direct-events.ts `readEvents` or `readJson`
 *    over the same node stream, escalating as it would.
 *
 * The bodies: a BOM or two or none, each line's end LF, CR LF or CR (chosen per line, so a CR
 * followed by an LF line may join into one end), `data:` with and without the space, pretty JSON
 * over several data lines, comments, `retry:`, other event names, events that are not JSON, text
 * with 2- to 4-byte characters and invalid UTF-8 (each read as U+FFFD), the last event ended by
 * its blank line, by its line end only, or not at all; split into pieces anywhere — inside a CR LF,
 * inside a character, empty pieces — and content types in any casing, with parameters, malformed
 * or joined. Compared: the messages delivered, in order, whether the send was refused, and how
 * many errors were reported. No clock: every read is a turn of the event loop.
 */

const CALL_ID = 7;
const CALL: JSONRPCMessage = {
  jsonrpc: '2.0',
  id: CALL_ID,
  method: 'tools/call',
  params: { name: 't', arguments: {} },
};

/** Stands for an invalid UTF-8 sequence in generated text (replaced byte for byte). */
const MARK = '\ue000';
const MARK_BYTES = Buffer.from(MARK, 'utf8');
const INVALID = [
  [0xff],
  [0xc3], // a lead byte with nothing after it
  [0xe2, 0x82], // a 3-byte sequence cut short
  [0xed, 0xa0, 0x80], // a surrogate's encoding
  [0xf0, 0x9f, 0x98], // a 4-byte sequence cut short
  [0x80], // a lone continuation byte
  [0xc0, 0xaf], // an overlong encoding
  [0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
];

const text = fc
  .array(fc.constantFrom('a', 'Z', ' ', 'é', '中', '😀', '\u2028', '\ufeff', '"', '\\', MARK), {
    maxLength: 6,
  })
  .map((cs) => cs.join(''));

type Item =
  | { kind: 'log'; text: string }
  | { kind: 'ping' }
  | { kind: 'other'; text: string }
  | { kind: 'garbage' }
  | { kind: 'comment' }
  | { kind: 'retry' };
const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('log' as const), text }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'ping' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('other' as const), text }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'garbage' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'comment' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'retry' as const }) },
);

type End = '\n' | '\r\n' | '\r';
const end = fc.constantFrom<End>('\n', '\r\n', '\r');

/** Content types built of what the SDK's choice turns on: casing, parameters, malformed ones. */
const contentType = fc
  .record({
    base: fc.constantFrom(
      'text/event-stream',
      'text/event-stream',
      'text/event-stream',
      'application/json',
      'application/json',
      'text/plain',
    ),
    casing: fc.constantFrom('lower', 'upper', 'title'),
    params: fc.constantFrom(
      '',
      '',
      '',
      '',
      '; charset=utf-8',
      '; charset=utf-8',
      ';charset=UTF-8',
      ' ; charset="utf-8"',
      '; charset="a,b"',
      ';',
      '; charset=',
      '; a=b, c',
      ', application/json',
      ', text/event-stream',
      '; q=1; x=y',
    ),
  })
  .map(({ base, casing, params }) => {
    const t =
      casing === 'upper'
        ? base.toUpperCase()
        : casing === 'title'
          ? base.replace(/(^|[/-])([a-z])/g, (_, a: string, b: string) => a + b.toUpperCase())
          : base;
    return { base, header: t + params };
  });

interface Body {
  type: { base: string; header: string };
  /** An event stream's framing, or a JSON body, whatever the type says. */
  sse: boolean;
  boms: 0 | 1 | 2;
  /** `ï»¿` (the BOM's bytes read as Latin-1) after the BOMs: eventsource-parser's own check. */
  latin: boolean;
  items: Item[];
  answer: string;
  /** The answer's place in a JSON batch: alone, or last after the notifications. */
  batch: boolean;
  pretty: boolean;
  space: boolean;
  named: boolean;
  ends: End[];
  /** How the last event ends: its blank line, its last line's end only, or nothing. */
  last: 'blank' | 'line' | 'open';
  invalid: number;
  cuts: number[];
  crSplit: boolean;
  bytewise: boolean;
}

const body: fc.Arbitrary<Body> = fc
  .record({
    type: contentType,
    mismatch: fc.constantFrom(false, false, false, false, true),
    boms: fc.constantFrom<0 | 1 | 2>(0, 0, 1, 1, 2),
    latin: fc.constantFrom(false, false, false, true),
    items: fc.array(item, { maxLength: 4 }),
    answer: text,
    batch: fc.boolean(),
    pretty: fc.boolean(),
    space: fc.boolean(),
    named: fc.boolean(),
    ends: fc.array(end, { minLength: 1, maxLength: 5 }),
    last: fc.constantFrom('blank' as const, 'blank' as const, 'line' as const, 'open' as const),
    invalid: fc.nat(INVALID.length - 1),
    cuts: fc.array(fc.nat(), { maxLength: 6 }),
    crSplit: fc.boolean(),
    bytewise: fc.constantFrom(false, false, false, false, false, false, false, true),
  })
  .map(({ mismatch, ...b }) => {
    const sse = b.type.base === 'text/event-stream' || b.type.base === 'text/plain';
    return { ...b, sse: mismatch ? !sse : sse };
  });

function itemMessage(it: Item, k: number): unknown {
  if (it.kind === 'ping') return { jsonrpc: '2.0', id: `p${k}`, method: 'ping' };
  const data = it.kind === 'log' || it.kind === 'other' ? it.text : '';
  return { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } };
}

const answerMessage = (t: string) => ({
  jsonrpc: '2.0',
  id: CALL_ID,
  result: { content: [{ type: 'text', text: t }] },
});

/** The body's bytes: generated text encoded, each MARK replaced by the chosen invalid bytes. */
function bytes(b: Body): Buffer {
  const json = (v: unknown) => JSON.stringify(v, null, b.pretty ? 1 : undefined);
  let s = '\ufeff'.repeat(b.boms) + (b.latin ? '\u00ef\u00bb\u00bf' : '');
  if (!b.sse) {
    const msgs = b.items.filter((i) => i.kind === 'log' || i.kind === 'ping').map(itemMessage);
    const answer = answerMessage(b.answer);
    s += json(b.batch ? [...msgs, answer] : answer) + (b.pretty ? '\n' : '');
  } else {
    const events: string[][] = b.items.map((it, k) => {
      if (it.kind === 'comment') return [': keep-alive'];
      if (it.kind === 'retry') return ['retry: 1000'];
      if (it.kind === 'garbage') return ['data: {not json'];
      const lines = json(itemMessage(it, k))
        .split('\n')
        .map((l) => `data:${b.space ? ' ' : ''}${l}`);
      if (it.kind === 'other') return ['event: other', ...lines];
      return b.named ? ['event: message', ...lines] : lines;
    });
    const answer = json(answerMessage(b.answer))
      .split('\n')
      .map((l) => `data:${b.space ? ' ' : ''}${l}`);
    events.push(b.named ? ['event: message', ...answer] : answer);
    let n = 0;
    const next = () => b.ends[n++ % b.ends.length]!;
    events.forEach((lines, i) => {
      const final = i === events.length - 1;
      lines.forEach((l, j) => {
        s += l;
        if (!(final && b.last === 'open' && j === lines.length - 1)) s += next();
      });
      if (!final || b.last === 'blank') s += next();
    });
  }
  const raw = Buffer.from(s, 'utf8');
  const bad = Buffer.from(INVALID[b.invalid]!);
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = raw.indexOf(MARK_BYTES); i >= 0; i = raw.indexOf(MARK_BYTES, from)) {
    parts.push(raw.subarray(from, i), bad);
    from = i + MARK_BYTES.length;
  }
  parts.push(raw.subarray(from));
  return Buffer.concat(parts);
}

/** The bytes in pieces: at the generated cuts, after every CR if asked, or one byte each. */
function pieces(b: Body, all: Buffer): Buffer[] {
  if (b.bytewise) return [...all].map((x) => Buffer.from([x]));
  const at = b.cuts.map((c) => c % (all.length + 1));
  if (b.crSplit) for (let i = all.indexOf(13); i >= 0; i = all.indexOf(13, i + 1)) at.push(i + 1);
  at.sort((x, y) => x - y);
  const out: Buffer[] = [];
  let from = 0;
  for (const to of [...at, all.length]) {
    out.push(all.subarray(from, to)); // empty pieces too
    from = Math.max(from, to);
  }
  return out;
}

/** A response's body as node:http gives it: one piece per turn of the event loop. */
function nodeResponse(ps: Buffer[], type: Type): IncomingMessage {
  const left = [...ps];
  const r = new Readable({
    read() {
      setImmediate(() => this.push(left.length > 0 ? left.shift() : null));
    },
  });
  // node:http's own: every line in `rawHeaders`, only the first Content-Type in `headers`.
  const lines = typeof type === 'string' ? [type] : type;
  return Object.assign(r, {
    rawHeaders: lines.flatMap((v, k) => [k % 2 === 0 ? 'Content-Type' : 'content-type', v]),
    headers: { 'content-type': lines[0] },
    statusCode: 200,
    statusMessage: 'OK',
    complete: true,
  }) as unknown as IncomingMessage;
}

/** The same body as fetch gives it to the SDK: a web stream, one piece per pull. */
function webResponse(ps: Buffer[], type: Type): Response {
  const left = [...ps];
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      const p = left.shift();
      if (p === undefined) c.close();
      else c.enqueue(new Uint8Array(p));
    },
  });
  const headers = new Headers();
  for (const v of typeof type === 'string' ? [type] : type) headers.append('content-type', v);
  return new Response(stream, { status: 200, headers });
}

/** An answer's Content-Type: one line, or several lines as the server sent them. */
type Type = string | string[];

interface Outcome {
  messages: unknown[];
  refused: boolean;
  errors: number;
}

const url = new URL('http://127.0.0.1:9/mcp');
const turn = () => new Promise<void>((r) => setImmediate(r));

/** Watches a transport: what it delivers and reports, and whether it took the answer as a stream. */
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
  /** Sends the call; settles once the send has and, if read as a stream, the stream has ended. */
  const send = async () => {
    await t.send(CALL, { onRequestStreamEnd: streamEnded }).catch(() => void (out.refused = true));
    if (streaming) await ended;
    await turn();
    return out;
  };
  return { out, send };
}

async function sdk(ps: Buffer[], type: Type): Promise<Outcome> {
  const t = new StreamableHTTPClientTransport(url, {
    fetch: () => Promise.resolve(webResponse(ps, type)),
  });
  await t.start();
  const o = await watch(t).send();
  await t.close();
  return o;
}

/** An Airlock transport whose fetch answers with `ps` as lean-fetch would (its LeanResponse). */
function airlock(ps: Buffer[], type: Type, direct: boolean) {
  const t = leanTransport(url, {}, undefined, undefined, direct)!;
  let answeredDone: (() => void) | undefined;
  const f = Object.assign(
    () => Promise.resolve(leanResponse(url, nodeResponse(ps, type), undefined, () => {})),
    {
      post: () => Promise.resolve(leanResponse(url, nodeResponse(ps, type), undefined, () => {})),
      open: (
        _u: URL,
        _h: Record<string, string>,
        _b: string,
        _s: AbortSignal | undefined,
        answered: (res: IncomingMessage, done: () => void) => void,
      ) => answered(nodeResponse(ps, type), () => answeredDone?.()),
    },
  );
  (t as unknown as { _fetch: unknown })._fetch = f;
  return {
    t,
    whenDone: (cb: () => void) => (answeredDone = cb),
  };
}

async function leanLeg(ps: Buffer[], type: Type): Promise<Outcome> {
  const { t } = airlock(ps, type, false);
  await t.start();
  const o = await watch(t).send();
  await t.close();
  return o;
}

async function directLeg(ps: Buffer[], type: Type): Promise<Outcome> {
  const { t, whenDone } = airlock(ps, type, true);
  await t.start();
  const { out } = watch(t);
  const headers = directHeaders(t);
  expect(headers).toBeTypeOf('object');
  // Over once the body is read (`done`: the reader delivers what it read at once after) or the
  // call failed; then the escalated path's promise chain (no I/O left) runs out.
  await new Promise<void>((settle) => {
    whenDone(settle);
    directSend(t, headers!, CALL, () => {
      out.refused = true;
      settle();
    });
  });
  await turn();
  await turn();
  await t.close();
  return out;
}

async function compare(b: Body, more: string[] = []): Promise<void> {
  const ps = pieces(b, bytes(b));
  const type = more.length === 0 ? b.type.header : [b.type.header, ...more];
  const want = await sdk(ps, type);
  const lean = await leanLeg(ps, type);
  const direct = await directLeg(ps, type);
  expect(lean).toEqual(want);
  expect(direct).toEqual(want);
}

/**
 * A body with its Content-Type line repeated once or twice more: the same type, another, with
 * parameters or casing (`contentType`'s), or half of a quoted parameter value cut across lines.
 */
const repeated = fc.tuple(
  body,
  fc.array(
    fc.oneof(
      contentType.map((t) => t.header),
      fc.constantFrom('y"', 'charset=utf-8', ''),
    ),
    { minLength: 1, maxLength: 2 },
  ),
);

describe("Airlock's upstream readers ≡ the stock SDK client's reading", () => {
  it('deliver the same messages in the same order (or both refuse), over generated bodies', async () => {
    await fc.assert(
      fc.asyncProperty(body, (b) => compare(b)),
      { seed: 1206, numRuns: 600 },
    );
  });

  it('and on held-out seeds never tuned on', async () => {
    for (const seed of [4099, 65537, 16180339])
      await fc.assert(
        fc.asyncProperty(body, (b) => compare(b)),
        { seed, numRuns: 150 },
      );
  });

  it('a Content-Type repeated: refused or read as the SDK does over fetch, which joins the lines', async () => {
    const run = ([b, more]: [Body, string[]]) => compare(b, more);
    await fc.assert(fc.asyncProperty(repeated, run), { seed: 1207, numRuns: 300 });
  });

  it('and a repeated Content-Type on held-out seeds never tuned on', async () => {
    const run = ([b, more]: [Body, string[]]) => compare(b, more);
    for (const seed of [8191, 524287])
      await fc.assert(fc.asyncProperty(repeated, run), { seed, numRuns: 100 });
  });

  // The three divergences a review found, one by one (each also among the generated bodies).
  const one = (s: string) => [Buffer.from(s, 'utf8')];
  const answer = JSON.stringify(answerMessage('ok'));

  it('a leading BOM: the first event (or the JSON answer) is delivered, as by the SDK', async () => {
    for (const [ps, type] of [
      [one(`\ufeffdata: ${answer}\n\n`), 'text/event-stream'],
      [
        [Buffer.from([0xef]), Buffer.from([0xbb, 0xbf]), Buffer.from(`data: ${answer}\n\n`)],
        'text/event-stream',
      ],
      [one(`\ufeff${answer}`), 'application/json'],
    ] as const) {
      const want = await sdk([...ps], type);
      expect(want.messages).toEqual([answerMessage('ok')]);
      expect(await leanLeg([...ps], type)).toEqual(want);
      expect(await directLeg([...ps], type)).toEqual(want);
    }
  });

  it('a last event ended by CR CR at the very end: not delivered, as by the SDK (its stream has no flush)', async () => {
    const ps = one(`data: ${answer}\r\r`);
    const want = await sdk(ps, 'text/event-stream');
    expect(want.messages).toEqual([]);
    expect(await leanLeg(ps, 'text/event-stream')).toEqual(want);
    expect(await directLeg(ps, 'text/event-stream')).toEqual(want);
  });

  it('text/event-stream with parameters or casing is read as an event stream, on the direct leg too', async () => {
    for (const type of [
      'text/event-stream; charset=utf-8',
      'Text/Event-Stream',
      'TEXT/EVENT-STREAM;charset="UTF-8"',
    ]) {
      const ps = one(`data: ${answer}\n\n`);
      const { t, whenDone } = airlock(ps, type, true);
      await t.start();
      const i = t as unknown as { _handleSseStream: (...a: unknown[]) => void };
      const handle = i._handleSseStream;
      let direct = true;
      // The escalation hands the body to the transport's stream reader; the direct leg does not.
      i._handleSseStream = (...a: unknown[]) => {
        direct = false;
        return handle.apply(t, a);
      };
      const got: unknown[] = [];
      t.onmessage = (m) => void got.push(m);
      await new Promise<void>((settle) => {
        whenDone(settle);
        directSend(t, directHeaders(t)!, CALL, () => settle());
      });
      await turn();
      expect({ type, direct, got }).toEqual({ type, direct: true, got: [answerMessage('ok')] });
      await t.close();
    }
  });
});
