import { createParser, type EventSourceMessage } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lateParser, wholeEvents } from './plain-events.js';

/**
 * Issue 34, wave 3 session 29: direct-events.ts reads a piece of whole events with `wholeEvents`
 * and makes an eventsource-parser only for the first piece it does not take (fed an empty piece
 * first where whole events came before). That is the parser exactly when, for every piece P it
 * takes, (1) a parser fed P hands `onEvent` the same events and nothing else (no error, no retry),
 * and (2) a parser fed P and then any pieces C does with C what a parser fed '' and then C does —
 * so reading P without it left nothing behind, the first-piece check included. Both are checked
 * here against eventsource-parser itself, over generated streams cut into generated pieces.
 * sdk-reader.property.test.ts holds the whole reader equal to the stock SDK client's.
 */
type Seen = ['event', EventSourceMessage] | ['error', string] | ['retry', number];

function parse(pieces: string[]): Seen[] {
  const seen: Seen[] = [];
  const parser = createParser({
    maxBufferSize: 1 << 20,
    onEvent: (e) => void seen.push(['event', { ...e }]),
    onError: (e) => void seen.push(['error', e.type]),
    onRetry: (ms) => void seen.push(['retry', ms]),
  });
  for (const p of pieces) parser.feed(p);
  return seen;
}

/**
 * direct-events.ts's reading (its `read`): whole pieces without a parser until one is not, then
 * its `lateParser` for that piece and the rest.
 */
function lazy(pieces: string[]): Seen[] {
  const seen: Seen[] = [];
  let parser: ReturnType<typeof createParser> | undefined;
  let fedBefore = false;
  for (const p of pieces) {
    const whole = parser === undefined ? wholeEvents(p) : undefined;
    if (whole !== undefined) {
      fedBefore = true;
      for (const e of whole) seen.push(['event', { ...e }]);
      continue;
    }
    parser ??= lateParser(
      {
        maxBufferSize: 1 << 20,
        onEvent: (e) => void seen.push(['event', { ...e }]),
        onError: (e) => void seen.push(['error', e.type]),
        onRetry: (ms) => void seen.push(['retry', ms]),
      },
      fedBefore,
    );
    parser.feed(p);
  }
  return seen;
}

function holds(pieces: string[]): boolean {
  let taken = false;
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    const whole = wholeEvents(p);
    if (whole === undefined) continue;
    taken = true;
    const events: Seen[] = whole.map((e) => ['event', { ...e }]);
    // (1) the same events, and nothing else;
    expect(parse([p])).toEqual(events);
    // (2) nothing left behind: what follows is read as by a parser past its first piece.
    const rest = pieces.slice(i + 1);
    expect(parse([p, ...rest])).toEqual([...events, ...parse(['', ...rest])]);
  }
  expect(lazy(pieces)).toEqual(parse(pieces));
  return taken;
}

const value = fc
  .array(fc.constantFrom('a', ' ', ':', 'é', '😀', '\0', '{', '"', 'x'), { maxLength: 5 })
  .map((cs) => cs.join(''));
const line = fc.oneof(
  { weight: 6, arbitrary: value.map((v) => `data:${v}`) },
  { weight: 6, arbitrary: value.map((v) => `data: ${v}`) },
  {
    weight: 3,
    arbitrary: fc.constantFrom('event: message', 'event:message', 'event:', 'event: other'),
  },
  { weight: 3, arbitrary: value.map((v) => `id: ${v}`) },
  { weight: 1, arbitrary: value.map((v) => `id:${v}`) },
  { weight: 1, arbitrary: fc.constantFrom(': ping', 'retry: 10', 'retry: x', 'foo: bar', 'data') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'Data: x',
      ' data: x',
      'ev: x',
      'idx: 1',
      '\u00ef\u00bb\u00bfdata: x',
    ),
  },
);
/** Events of lines, each ended by LF (now and then CR or CR LF), then a blank line. */
const event = fc
  .record({
    lines: fc.array(line, { minLength: 1, maxLength: 4 }),
    end: fc.constantFrom('\n', '\n', '\n', '\n', '\n', '\r\n', '\r'),
  })
  .map(({ lines, end }) => lines.map((l) => l + end).join('') + end);

/** Tuning: pieces of whole events (one or more each), some cut anywhere, one left open. */
const tuned = fc
  .record({
    groups: fc.array(fc.array(event, { minLength: 1, maxLength: 3 }), {
      minLength: 1,
      maxLength: 4,
    }),
    cuts: fc.array(fc.nat(), { maxLength: 3 }),
    open: fc.option(line, { freq: 4 }),
    /** A piece opened by `ï»¿`, which only a parser's first piece loses. */
    mark: fc.option(fc.nat(), { freq: 3 }),
  })
  .map(({ groups, cuts, open, mark }) => {
    const pieces = groups.map((g) => g.join(''));
    if (mark !== null)
      pieces[mark % pieces.length] = `\u00ef\u00bb\u00bf${pieces[mark % pieces.length]}`;
    for (const c of cuts) {
      const i = c % pieces.length;
      const p = pieces[i]!;
      const at = c % (p.length + 1);
      pieces.splice(i, 1, p.slice(0, at), p.slice(at));
    }
    if (open !== null) pieces.push(open);
    return pieces;
  });

/** Held out, never tuned on: pieces of a small alphabet the fields are made of, at random. */
const heldOut = fc.array(
  fc
    .array(
      fc.constantFrom('data:', 'event:', 'id:', 'message', ' ', '\n', '\n\n', '\r', 'x', '\0', ':'),
      { maxLength: 12 },
    )
    .map((cs) => cs.join('')),
  { maxLength: 5 },
);

describe('wholeEvents ≡ eventsource-parser on the pieces it takes', () => {
  it('over generated streams (tuning seed), taking many pieces', () => {
    let taken = 0;
    fc.assert(
      fc.property(tuned, (pieces) => {
        if (holds(pieces)) taken++;
      }),
      { numRuns: 500, seed: 2929 },
    );
    // The property must be about pieces it takes, not only about pieces it leaves.
    expect(taken).toBeGreaterThan(100);
  });

  it('over held-out pieces (separate seed and generator)', () => {
    let taken = 0;
    fc.assert(
      fc.property(heldOut, (pieces) => {
        if (holds(pieces)) taken++;
      }),
      { numRuns: 2000, seed: 70_001 },
    );
    expect(taken).toBeGreaterThan(20);
  });

  it('leaves a later piece its `ï»¿`, as a parser past its first piece does', () => {
    const pieces = ['data: a\n\n', '\u00ef\u00bb\u00bfdata: b\n\n'];
    expect(lazy(pieces)).toEqual(parse(pieces));
    expect(parse(pieces).some((s) => s[0] === 'error')).toBe(true);
  });

  it('reads the usual answer, with and without an id', () => {
    expect(wholeEvents('event: message\ndata: {"a":1}\n\n')).toEqual([
      { id: undefined, event: 'message', data: '{"a":1}' },
    ]);
    expect(wholeEvents('id: 7\ndata:\n\nevent: message\nid: 8\ndata: x\n\n')).toEqual([
      { id: '7', event: undefined, data: '' },
      { id: '8', event: 'message', data: 'x' },
    ]);
    expect(wholeEvents('event: message\ndata: x\n')).toBeUndefined();
  });
});
