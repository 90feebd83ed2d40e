import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BIDI_NAMES } from '../../common/bidi-names.js';
import {
  mayReadAsAirlock,
  lineSpeaksWhole,
  readsAsAirlockWhole,
  serverContent,
  serverContentWhole,
  serverData,
} from './relay-label.js';
import { VOICE_CUE_DATA } from './voice-cue-data.js';

/**
 * The voice cue (relay-label.ts mayReadAsAirlock, serverContent's early end) passes over a text
 * only when no line of it reads as Airlock: serverContent answers as serverContentWhole, which
 * reads every line (and every JSON string) whatever the cue says. Texts are made of the cue's own
 * classes (every phrase letter's code points, from plain `a` to 𝖆, signs, marks, invisible and
 * direction characters, multi-letter signs such as ㎏ and ﬀ), prose in several scripts, JSON with
 * escapes, long lines; a held-out part runs on other seeds and on any code points.
 */
const member = (key: string, max = 0x10ffff) => {
  const rs = VOICE_CUE_DATA[key]!.filter((r) => (typeof r === 'number' ? r : r[0]) <= max);
  return fc
    .nat()
    .chain((i) => {
      const r = rs[i % rs.length]!;
      const [a, b] = typeof r === 'number' ? [r, r] : r;
      return fc.integer({ min: a, max: Math.min(b, max) });
    })
    .map((cp) => String.fromCodePoint(cp));
};
const phraseLetters = (phrase: string, max = 0x10ffff) =>
  fc.tuple(
    ...[...phrase].map((l) =>
      fc.tuple(
        member(l === 'i' ? 'l' : l, max),
        // Up to three signs pass between two letters, a fourth does not; marks any number.
        fc.oneof(
          fc.array(fc.oneof(member('S', max), member('E', max)), { maxLength: 2 }),
          fc.array(member('S', max), { minLength: 3, maxLength: 4 }),
        ),
      ),
    ),
  );
/** A phrase spelt from its classes, with signs and marks between the letters (some too many). */
const voiceIn = (max: number) =>
  fc
    .constantFrom('airlock', 'frommcpserver', 'viaairlock', 'airloc', 'frommcpserve')
    .chain((p) => phraseLetters(p, max))
    .map((parts) => parts.map(([c, gap]) => c + gap.join('')).join(''));
const voice = voiceIn(0x10ffff);
/** Text of Latin-1 characters alone, which the cue reads by its Latin-1 pattern. */
const latin1Text = fc
  .array(
    fc.oneof(
      voiceIn(0xff),
      member('S', 0xff),
      fc.constantFrom('\xad', 'Réunion à 10 h, café.', 'Airlines; locks.', '\n', '\r', '\x85'),
      fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)) }),
    ),
    { maxLength: 10 },
  )
  .map((ps) => ps.join(''));
const prose = fc.constantFrom(
  'The build passed.',
  'Réunion à 10 h, café offert.',
  'Привет, сервер ответил: всё в порядке.',
  'Сергей прислал файл «отчёт».',
  '这是一个普通的中文文本，服务器已经回答了。',
  'مرحبا بالعالم',
  'Γεια σου κόσμε',
  'airlock-cli 2.3.1 released',
  'Airlines fly; locks open.',
  'We use Airlock at work.',
  '| name | value |',
  '\u001b[1m\u001b[31m',
  '<td class="x">',
  '- ',
  '1. ',
  '¼ ½ ﬁ ™ ㎏ ⒜',
);
const piece = fc.oneof(
  { weight: 3, arbitrary: prose },
  { weight: 2, arbitrary: voice },
  { weight: 1, arbitrary: fc.constantFrom(...Object.keys(BIDI_NAMES)) },
  { weight: 1, arbitrary: member('W') },
  { weight: 2, arbitrary: fc.oneof(member('S'), member('E')) },
  { weight: 1, arbitrary: fc.constantFrom('\n', '\r\n', '\u2028', '\u0085', '\t', ' ') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
);
const text = fc.oneof(
  fc.array(piece, { maxLength: 12 }).map((ps) => ps.join('')),
  latin1Text,
  // A long line: the voice far from any line start.
  fc.tuple(prose, fc.integer({ min: 1, max: 60 }), piece).map(([p, n, v]) => `${p} `.repeat(n) + v),
  // JSON: the voice in a key or a value, written with and without escapes.
  fc
    .tuple(fc.array(piece, { maxLength: 4 }), fc.boolean(), fc.boolean())
    .map(([ps, asKey, ascii]) => {
      const s = ps.join('');
      const json = JSON.stringify(asKey ? { [s]: 1, n: [1, 2] } : { note: s, n: [1, 2] });
      return ascii
        ? json.replace(
            /[^\x20-\x7e]/g,
            (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
          )
        : json;
    }),
);

function same(t: string) {
  expect(serverContent(t)).toBe(serverContentWhole(t));
}
/** Each line that reads as Airlock is one the cue finds (its soundness, line by line). */
function sound(t: string) {
  for (const line of t.split(/\r\n|[\n\r\v\f\x85\u2028\u2029]/))
    if (
      readsAsAirlockWhole(line.replace(/^[\s\p{Cc}\p{Cf}]+/u, ''), 'read') ||
      lineSpeaksWhole(line)
    )
      expect(mayReadAsAirlock(line)).toBe(true);
  // Two lines joined, their break read as spaces (lineWords): the cue finds them in the text.
  const lines = t.split(/(\r\n|[\n\r\v\f\x85\u2028\u2029])/);
  for (let i = 0; i + 2 < lines.length; i += 2)
    if (lineSpeaksWhole(lines[i]! + ' '.repeat(lines[i + 1]!.length) + lines[i + 2]!))
      expect(mayReadAsAirlock(t)).toBe(true);
}

describe('the voice cue answers as the whole reading', () => {
  it('tuned: texts of the cue classes, prose in several scripts, JSON, long lines', () => {
    fc.assert(
      fc.property(text, (t) => {
        same(t);
        sound(t);
      }),
      { numRuns: 3000, seed: 20261206 },
    );
  });

  it('structuredContent: a string or key is changed by serverData only if the cue finds it', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 5 }), (ps) => {
        const s = ps.join('');
        const out = serverData({ [s]: s }) as Record<string, unknown>;
        if (!mayReadAsAirlock(s)) expect(out).toEqual({ [s]: s });
      }),
      { numRuns: 1000, seed: 7 },
    );
  });
});

describe('held-out: other seeds, any code points', () => {
  it('the tuned texts on seeds not tuned on', () => {
    for (const seed of [1, 99, 4242])
      fc.assert(
        fc.property(text, (t) => same(t)),
        { numRuns: 1500, seed },
      );
  });

  it('any code points, and any code points around a phrase', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 120 }),
        voice,
        fc.string({ unit: 'binary', maxLength: 40 }),
        (a, v, b) => {
          same(a);
          same(a + v + b);
          sound(a + v + b);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
