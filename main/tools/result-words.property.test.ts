import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BIDI_NAMES } from '../../common/bidi-names.js';
import { airlockVoice, leadIn, spelling, tail } from '../../test-support/airlock-voice.js';
import { readsAsAirlock, readsAsAirlockWhole, serverBlocks, serverContent } from './relay-label.js';

/**
 * A remote tool result's texts (remote-calls.ts serverResult: text blocks, embedded text
 * resources, a JSON-RPC error's words) reach the agent after Airlock's untrusted note and before
 * Airlock's own cut note, so one that starts as Airlock is quoted as the server's, complete
 * (serverContent). Results are data: a text that opens with a long run of numbers and signs (a
 * JSON array, a CSV row) is read, not quoted whole as a display string's long lead-in is.
 *
 * The first family reuses the generators of the other airlock-voice properties
 * (test-support/airlock-voice.ts); the held-out one (data prefixes of digits and signs before the
 * voice) was written once for this file and not changed after its first run. Reported apart.
 */
const quoted = (t: string) => `The server writes: “${t}”`;

type Block = { type: string; text?: string; resource?: { uri: string; text?: string } };
const asBlock = (text: string, where: 'text' | 'resource'): Block =>
  where === 'text'
    ? { type: 'text', text }
    : { type: 'resource', resource: { uri: 'm://r', text } };
const textOf = (b: Block) => (b.type === 'text' ? b.text! : b.resource!.text!);

/** Plain blocks around the one under test: they pass as the same objects. */
const plain = fc.array(fc.stringMatching(/^[A-Z][a-z]{2,8}( [a-z]{1,8}){0,6}\.$/), {
  maxLength: 3,
});
const where = fc.constantFrom('text' as const, 'resource' as const);

function checkVoice(voice: string, before: string[], after: string[], at: 'text' | 'resource') {
  const blocks = [
    ...before.map((t) => asBlock(t, 'text')),
    asBlock(voice, at),
    ...after.map((t) => asBlock(t, 'text')),
  ];
  const out = serverBlocks(blocks, serverContent) as Block[];
  expect(out.map(textOf)).toEqual([...before, quoted(voice), ...after]);
  // Every other block is passed as it came (the same object).
  out.forEach((b, i) => {
    if (i !== before.length) expect(b).toBe(blocks[i]);
  });
}

describe('tuned family (shared airlock-voice generators)', () => {
  it('a result text or embedded resource that starts as Airlock is quoted, complete, at any place', () => {
    fc.assert(
      fc.property(airlockVoice, plain, plain, where, (voice, before, after, at) =>
        checkVoice(voice, before, after, at),
      ),
      { numRuns: 2000 },
    );
  });

  it('data — JSON of any shape, long number rows — passes byte for byte, the same array', () => {
    const data = fc.oneof(
      fc.json(),
      fc.array(fc.integer(), { minLength: 64, maxLength: 400 }).map((a) => JSON.stringify(a)),
      fc
        .array(fc.double({ noNaN: true }), { minLength: 64, maxLength: 200 })
        .map((a) => a.join(',')),
    );
    fc.assert(
      fc.property(data, where, (text, at) => {
        const blocks = [asBlock(text, at)];
        expect(serverBlocks(blocks, serverContent)).toBe(blocks);
        expect(serverContent(text)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('resource links (tuned family)', () => {
  it("a link's name, title or description that starts as Airlock is quoted; plain ones pass as the same object", () => {
    const key = fc.constantFrom('name' as const, 'title' as const, 'description' as const);
    fc.assert(
      fc.property(airlockVoice, key, plain, (voice, k, words) => {
        const link = { type: 'resource_link', uri: 'm://l', name: 'n', title: 't', [k]: voice };
        const calm = {
          type: 'resource_link',
          uri: 'm://c',
          name: 'c',
          description: words.join(' '),
        };
        const out = serverBlocks([link, calm], serverContent);
        expect(out[0]).toEqual({ ...link, [k]: quoted(voice) });
        expect(out[1]).toBe(calm);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('held-out family: a data prefix of digits and signs before the voice', () => {
  it('a voice after up to 40 characters of numbers, dates and separators is quoted, complete', () => {
    const prefix = fc
      .array(fc.constantFrom(...'0123456789-:.,/| '), { minLength: 1, maxLength: 40 })
      .map((cs) => cs.join(''));
    fc.assert(
      fc.property(prefix, airlockVoice, where, (p, voice, at) =>
        checkVoice(`${p} ${voice}`, [], [], at),
      ),
      { numRuns: 1000 },
    );
  });
});

/**
 * readsAsAirlock ends early where no imitation can match (issue 34: every relayed result is read
 * here). The early end must answer as the whole reading does, for every text and both readings of
 * a long lead-in: the whole reading (readsAsAirlockWhole) is the oracle.
 */
describe('the early end answers as the whole reading', () => {
  const same = (text: string) => {
    for (const mode of ['quoted', 'read'] as const)
      expect(readsAsAirlock(text, mode), `${mode}: ${JSON.stringify(text)}`).toBe(
        readsAsAirlockWhole(text, mode),
      );
  };
  /** Pieces that sit near the decision: lead-ins, spellings, direction controls, prose, data. */
  const piece = fc.oneof(
    leadIn,
    spelling,
    tail,
    fc.constantFrom(...Object.keys(BIDI_NAMES)),
    fc.constantFrom('The ', 'Airline ', 'from ', 'via ', 'FROM MCP SERVER', 'v', 'f', 'a', 'A '),
    fc.constantFrom('{"', '[', '0,', '1.', '\n', '  ', '—', '⒜', '\u0301'),
    fc.string({ unit: 'grapheme', maxLength: 6 }),
  );
  it('tuned: texts made of lead-ins, spellings, controls, prose and data pieces', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (ps) => same(ps.join(''))),
      { numRuns: 5000 },
    );
  });
  it('tuned: the shared airlock-voice generators, JSON and long number rows', () => {
    // A lead-in cut at its 64th start (wordStarts' bound) with signs left before the voice:
    // the last start is then a sign, and an imitation may pass up to three more (SEP).
    const cut = fc
      .tuple(fc.integer({ min: 60, max: 68 }), fc.constantFrom('-', '1', '*', '.'), spelling)
      .map(([n, sign, word]) => sign.repeat(n) + word);
    const text = fc.oneof(
      cut,
      airlockVoice,
      fc.json(),
      fc.array(fc.integer(), { minLength: 60, maxLength: 200 }).map((a) => JSON.stringify(a)),
    );
    fc.assert(fc.property(text, same), { numRuns: 3000 });
  });
});

describe('held-out: the early end over any code points', () => {
  it('arbitrary Unicode strings, and signs then a look-alike first letter', () => {
    const near = fc
      .tuple(
        fc.array(fc.constantFrom(...'-.,:;!?*#>[({"\' 0123456789'), { maxLength: 70 }),
        fc.constantFrom('a', 'а', 'ａ', '𝐚', 'ɑ', 'α', 'f', 'ｆ', 'v', 'ν', 'ᴠ', '⒜', 'x', ''),
        fc.string({ unit: 'binary', maxLength: 20 }),
      )
      .map(([signs, l, rest]) => signs.join('') + l + rest);
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), near), (text) => {
        for (const mode of ['quoted', 'read'] as const)
          expect(readsAsAirlock(text, mode)).toBe(readsAsAirlockWhole(text, mode));
      }),
      { numRuns: 5000 },
    );
  });
});
