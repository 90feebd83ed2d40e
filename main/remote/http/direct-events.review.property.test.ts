import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';

// One event's bound made small enough for generated streams to pass it (64 MiB in the product):
// the reader takes it from here, and so does the reference below.
vi.mock('./lean-fetch.js', async (original) => ({
  ...(await original<typeof import('./lean-fetch.js')>()),
  UPSTREAM_MESSAGE_LIMIT: 300,
}));
const LIMIT = 300;
import { readEvents } from './direct-events.js';
import { terminated, upstreamMessageTooLarge } from './lean-fetch.js';
import { answerId, jsonRpcMessage, malformedAnswerError } from './lean-transport.js';
import type { SendInternals } from './lean-send.js';
import { upstreamInFlight } from '../upstream/in-flight.js';
import { parseUpstream, UpstreamValuesError } from '../upstream/json-values.js';

/**
 * Review of wave 3 session 29 (issue 34): direct-events.ts `readEvents` reads a piece of whole
 * events without eventsource-parser (plain-events.ts `wholeEvents`) and makes a parser late. Held
 * here, through the product's own entry (`readEvents` over a response emitting the bytes in
 * generated pieces, as node:http does), to a reference that is plain eventsource-parser fed every
 * piece from the stream's start — what the reader did before — with the reader's own handling of
 * each event and of the end (HTML Living Standard, "server-sent events", 9.2.6 "Interpreting an
 * event stream", is eventsource-parser's reference). And, where no bound was passed, to one parser
 * fed the whole stream at once. Compared: messages and errors delivered in order, `retry:`, the
 * cut by the event bound (the same error), the end (lost, reconnection with its id), `done`, and
 * the in-flight budget returned.
 */
type Seen =
  | ['message', unknown]
  | ['error', string]
  | ['retry', number]
  | ['destroy']
  | ['done']
  | ['lost', string]
  | ['reconnect', string | undefined];

function fakeTransport(seen: Seen[]): SendInternals {
  const t = {
    onmessage: (m: unknown) => void seen.push(['message', m]),
    onerror: (e: Error) => void seen.push(['error', e.message]),
    _abortController: new AbortController(),
    _scheduleReconnection: (o: { resumptionToken?: string }) =>
      void seen.push(['reconnect', o.resumptionToken]),
  };
  Object.defineProperty(t, '_serverRetryMs', {
    set: (ms: number) => void seen.push(['retry', ms]),
  });
  return t as unknown as SendInternals;
}

/** The product: readEvents over a response that emits `pieces` as node:http would. */
function product(pieces: Buffer[]): { seen: Seen[]; inFlight: number } {
  const before = upstreamInFlight().now;
  const seen: Seen[] = [];
  const t = fakeTransport(seen);
  let destroyed = false;
  const res = Object.assign(new EventEmitter(), {
    complete: false,
    destroy() {
      destroyed = true;
      seen.push(['destroy']);
    },
  });
  readEvents(
    t,
    res as unknown as IncomingMessage,
    () => void seen.push(['done']),
    (why) => void seen.push(['lost', String(why)]),
  );
  for (const p of pieces) {
    if (destroyed) break;
    res.emit('data', p);
  }
  if (destroyed) res.emit('close');
  else {
    res.complete = true;
    res.emit('end');
    res.emit('close');
  }
  return { seen, inFlight: upstreamInFlight().now - before };
}

/**
 * The reference: the text as the reader gets it (UTF-8 decoded piece by piece, one leading BOM
 * dropped, empty pieces not fed), each piece fed to one eventsource-parser made at the stream's
 * start (`whole`: the whole text to one parser at once), each event and the end handled as
 * direct-events.ts handles them.
 */
function reference(pieces: Buffer[], whole = false): Seen[] {
  const seen: Seen[] = [];
  const t = fakeTransport(seen) as unknown as {
    onmessage(m: unknown): void;
    onerror(e: Error): void;
    _serverRetryMs: number;
  };
  let lastEventId: string | undefined;
  let primed = false;
  let answered = false;
  let over = false;
  let tooLarge: Error | undefined;
  const cut = (reason: Error) => {
    seen.push(['destroy']);
    end(terminated(reason));
  };
  const end = (ended: unknown) => {
    if (over) return;
    over = true;
    seen.push(['done']);
    const why = tooLarge ?? ended;
    if (why !== undefined) {
      t.onerror(new Error(`SSE stream disconnected: ${String(why)}`));
      if (!answered) seen.push(['lost', String(why)]);
    }
    if (!tooLarge && primed && !answered) seen.push(['reconnect', lastEventId]);
  };
  const onEvent = (event: EventSourceMessage) => {
    if (event.id) {
      lastEventId = event.id;
      primed = true;
    }
    if (!event.data || (event.event && event.event !== 'message')) return;
    let raw: unknown;
    try {
      raw = parseUpstream(event.data);
      const message = jsonRpcMessage(raw);
      if ('id' in message && ('result' in message || 'error' in message)) answered = true;
      t.onmessage(message);
    } catch (err) {
      if (err instanceof UpstreamValuesError) {
        tooLarge = err;
        return cut(err);
      }
      t.onerror(err as Error);
      const id = answerId(raw);
      if (id !== undefined) {
        answered = true;
        t.onmessage(malformedAnswerError(id, (err as Error).message));
      }
    }
  };
  const parser = createParser({
    maxBufferSize: whole ? undefined : LIMIT,
    onError(err) {
      if (err.type !== 'max-buffer-size-exceeded') return;
      tooLarge = upstreamMessageTooLarge();
      cut(tooLarge);
    },
    onEvent,
    onRetry: (ms) => (t._serverRetryMs = ms),
  });
  const utf8 = new StringDecoder('utf8');
  let bomDropped = false;
  const texts: string[] = [];
  for (const p of pieces) {
    let text = utf8.write(p);
    if (text.length === 0) continue;
    if (!bomDropped) {
      if (text === '\ufeff') {
        bomDropped = true;
        continue;
      }
      bomDropped = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    texts.push(text);
  }
  const rest = utf8.end();
  if (rest.length > 0) texts.push(rest);
  if (whole) parser.feed(texts.join(''));
  else
    for (const text of texts) {
      if (over) break;
      parser.feed(text);
    }
  end(undefined);
  return seen;
}

/** Up to the first cut: what a reader does with the rest of the piece it was cut in is its own. */
function untilCut(seen: Seen[]): Seen[] {
  const i = seen.findIndex((s) => s[0] === 'destroy');
  if (i < 0) return seen;
  // The cut, the end it makes (done, the report, lost): the entries `cut` adds, then nothing.
  let j = i + 1;
  while (j < seen.length && seen[j]![0] !== 'message' && seen[j]![0] !== 'retry') {
    if (seen[j]![0] === 'error' && !String(seen[j]![1]).startsWith('SSE stream disconnected'))
      break;
    j++;
  }
  return seen.slice(0, j);
}

// ---- generated streams (the reviewer's own generators) ----

const chars = fc.constantFrom('a', 'Z', ' ', ':', 'é', '中', '😀', '\0', '\ufeff', '"', '\\');
const value = fc.array(chars, { maxLength: 6 }).map((cs) => cs.join(''));
const note = (v: string) => JSON.stringify({ jsonrpc: '2.0', method: 'n', params: { v } });
const answer = (v: string) => JSON.stringify({ jsonrpc: '2.0', id: 7, result: { v } });

/** One field line, without its end. */
const line = fc.oneof(
  { weight: 8, arbitrary: value.map((v) => `data: ${note(v)}`) },
  { weight: 4, arbitrary: value.map((v) => `data:${note(v)}`) },
  { weight: 2, arbitrary: value.map((v) => `data: ${answer(v)}`) },
  // A JSON message over two data lines (joined with LF, which JSON reads as space).
  {
    weight: 2,
    arbitrary: value.map((v) => `data: {"jsonrpc":"2.0",\ndata: "method":${JSON.stringify(v)}}`),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'data:',
      'data: ',
      'data',
      'data ',
      'data: {bad',
      'data: {"jsonrpc":"2.0","id":3,"result":5}',
      'data: [1',
      'data: ' + '['.repeat(80),
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'event: message',
      'event:message',
      'event:',
      'event: ',
      'event: other',
      'event',
      'Event: message',
    ),
  },
  { weight: 3, arbitrary: value.map((v) => `id: ${v}`) },
  { weight: 2, arbitrary: value.map((v) => `id:${v}`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('id', 'id:', 'retry: 10', 'retry:5', 'retry: x', 'retry', ': ping'),
  },
  { weight: 1, arbitrary: fc.constantFrom(':', 'foo: bar', ' data: x', 'Data: x', 'idx: 1') },
  { weight: 1, arbitrary: fc.constantFrom('\u00ef\u00bb\u00bfdata: {}', 'data:\ufeff{}') },
  // A long line: past the bound (300) held unfinished, under it as a whole event.
  {
    weight: 1,
    arbitrary: fc.integer({ min: 100, max: 420 }).map((n) => `data: "${'x'.repeat(n)}"`),
  },
);
const ending = fc.constantFrom('\n', '\n', '\n', '\n', '\r\n', '\r');

interface Stream {
  bytes: Buffer;
  pieces: Buffer[];
}

/**
 * Events of 1–4 lines, each line's end LF mostly (CR LF, CR now and then), each event ended by a
 * blank line; the last event ended by its blank line, its line end, or nothing; a BOM, `ï»¿`
 * first sometimes. Cut into pieces: at the events' ends (so that whole-event pieces come, the
 * path under review), at any byte (inside CR LF, a character, the BOM, after "data"), or byte by
 * byte.
 */
const stream: fc.Arbitrary<Stream> = fc
  .record({
    events: fc.array(
      fc.record({ lines: fc.array(line, { minLength: 1, maxLength: 4 }), end: ending }),
      { minLength: 0, maxLength: 6 },
    ),
    mixed: fc.boolean(),
    ends: fc.array(ending, { minLength: 1, maxLength: 4 }),
    last: fc.constantFrom('blank', 'blank', 'line', 'open'),
    bom: fc.constantFrom(0, 0, 0, 1, 2),
    latin: fc.constantFrom(false, false, false, false, true),
    mode: fc.constantFrom('events', 'events', 'events', 'bytes', 'bytewise', 'mixed'),
    cuts: fc.array(fc.nat(), { maxLength: 6 }),
    groups: fc.array(fc.nat(4), { maxLength: 6 }),
  })
  .map(({ events, mixed, ends, last, bom, latin, mode, cuts, groups }) => {
    let s = '\ufeff'.repeat(bom) + (latin ? '\u00ef\u00bb\u00bf' : '');
    /** Where each event ends, in bytes. */
    const marks: number[] = [];
    let n = 0;
    events.forEach((e, i) => {
      const final = i === events.length - 1;
      const lines = e.lines.flatMap((l) => l.split('\n'));
      const end = () => (mixed ? ends[n++ % ends.length]! : e.end);
      lines.forEach((l, j) => {
        s += l;
        if (!(final && last === 'open' && j === lines.length - 1)) s += end();
      });
      if (!final || last === 'blank') s += end();
      marks.push(Buffer.byteLength(s));
    });
    const bytes = Buffer.from(s, 'utf8');
    let at: number[] = [];
    if (mode === 'bytewise') at = [...bytes.keys()].slice(1);
    else {
      if (mode === 'events' || mode === 'mixed') {
        // Events grouped into pieces: each group's end is a cut.
        let k = 0;
        for (const g of groups.length > 0 ? groups : [1]) {
          k += g + 1;
          if (k - 1 < marks.length) at.push(marks[k - 1]!);
        }
        if (groups.length === 0) at.push(...marks);
      }
      if (mode !== 'events') at.push(...cuts.map((c) => c % (bytes.length + 1)));
    }
    at.sort((a, b) => a - b);
    const pieces: Buffer[] = [];
    let from = 0;
    for (const to of [...at, bytes.length]) {
      pieces.push(bytes.subarray(from, Math.max(from, to)));
      from = Math.max(from, to);
    }
    return { bytes, pieces };
  });

function check({ pieces }: Stream): { cut: boolean; whole: boolean } {
  const got = product(pieces);
  const want = reference(pieces);
  expect(got.inFlight).toBe(0);
  expect(untilCut(got.seen)).toEqual(untilCut(want));
  const cut = want.some((s) => s[0] === 'destroy');
  if (!cut) {
    expect(got.seen).toEqual(want);
    // No bound passed: one parser over the whole stream at once reads it so too — save where
    // eventsource-parser itself depends on the cuts (before and after this change alike): a
    // stream opened by `ï»¿`, dropped only when its first piece holds all three; a piece ending
    // in CR, which it holds until a later piece brings a line end (so a CR CR at a cut followed
    // by a line never ended leaves the event undispatched, where the spec's and a whole-stream
    // parser dispatch it).
    const all = reference(pieces, true);
    const latin = Buffer.concat(pieces)
      .toString('utf8')
      .replace(/^\ufeff/, '')
      .startsWith('ï');
    const crCut = pieces.some((p) => p.at(-1) === 13);
    if (!latin && !crCut && !all.some((s) => s[0] === 'destroy')) expect(got.seen).toEqual(all);
  }
  return { cut, whole: pieces.some((p) => p.length > 1 && p.at(-1) === 10 && p.at(-2) === 10) };
}

describe('readEvents ≡ eventsource-parser (review, wave 3 session 29)', () => {
  it('over generated streams and cuts (tuning seed)', () => {
    let cut = 0;
    let whole = 0;
    fc.assert(
      fc.property(stream, (s) => {
        const r = check(s);
        if (r.cut) cut++;
        if (r.whole) whole++;
      }),
      { numRuns: 3000, seed: 424_242 },
    );
    // The cases under review came: cuts by the bound and pieces of whole events.
    expect(cut).toBeGreaterThan(100);
    expect(whole).toBeGreaterThan(1000);
  });

  it('over held-out streams (seed never tuned on)', () => {
    fc.assert(
      fc.property(stream, (s) => void check(s)),
      { numRuns: 3000, seed: 8_675_309 },
    );
  });

  it('over a held-out alphabet soup (separate generator), cut anywhere', () => {
    const soup = fc
      .record({
        parts: fc.array(
          fc.constantFrom(
            'data:',
            'data: ',
            'event:',
            'event: message',
            'id:',
            'id: 9',
            'retry:',
            '1',
            ':',
            '{}',
            '{"jsonrpc":"2.0","method":"m"}',
            '{"jsonrpc":"2.0","id":1,"result":{}}',
            '\n',
            '\n\n',
            '\r',
            '\r\n',
            '\0',
            '\ufeff',
            'é',
            'x'.repeat(150),
          ),
          { maxLength: 30 },
        ),
        cuts: fc.array(fc.nat(), { maxLength: 5 }),
      })
      .map(({ parts, cuts }) => {
        const bytes = Buffer.from(parts.join(''), 'utf8');
        const at = cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b);
        const pieces: Buffer[] = [];
        let from = 0;
        for (const to of [...at, bytes.length]) {
          pieces.push(bytes.subarray(from, Math.max(from, to)));
          from = Math.max(from, to);
        }
        return { bytes, pieces };
      });
    fc.assert(
      fc.property(soup, (s) => void check(s)),
      { numRuns: 3000, seed: 31_337 },
    );
  });

  it('a stream the bound refused is refused after whole events too, with the same error', () => {
    const head = Buffer.from(`data: ${note('a')}\n\n`);
    const long = Buffer.from(`data: "${'x'.repeat(LIMIT)}`);
    const { seen } = product([head, long]);
    expect(seen).toEqual(reference([head, long]));
    expect(seen).toContainEqual(['destroy']);
    expect(seen).toContainEqual([
      'error',
      `SSE stream disconnected: ${String(upstreamMessageTooLarge())}`,
    ]);
  });
});
