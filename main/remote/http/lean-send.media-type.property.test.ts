import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { essence, mediaTypeEssence } from './lean-send.js';

/**
 * lean-send.ts `mediaTypeEssence` repeats the `content-type` package's two checks rather than
 * depending on it. Held here to the thing itself: the installed `content-type` (1.0.5, the one the
 * SDK bundles) and the SDK 2.4 fallback around it (core-internal/src/shared/mediaType.ts, copied
 * below word for word), over generated headers built of what its grammar turns on — tokens and
 * the characters just outside them, `;`, `=`, quoted strings with escapes, spaces, HTAB, VT,
 * Latin-1 and wider characters, commas — and over arbitrary strings.
 */

const require = createRequire(import.meta.url);
const contentType = require('content-type') as { parse(header: string): { type: string } };

/** The SDK's `mediaTypeEssence`, as its client dist bundles it. */
function sdkEssence(header: string | null): string | undefined {
  if (!header) return;
  try {
    return contentType.parse(header).type;
  } catch {
    const essence = (header.split(';', 1)[0] ?? '').trim().toLowerCase();
    if (essence === '' || header.slice(essence.length).includes(',')) return;
    return essence;
  }
}

const piece = fc.constantFrom(
  'text/event-stream',
  'application/json',
  'Application/JSON',
  'a',
  'Z',
  '/',
  ';',
  '; ',
  '=',
  '"',
  '\\',
  ' ',
  '\t',
  '\v',
  ',',
  'charset',
  'utf-8',
  '"utf-8"',
  '"a\\"b"',
  '"\u00e9"',
  '\u00e9',
  '\u0100',
  '\u0130', // İ: lower-cases to two code units
  '\u00a0',
  '\ufeff',
  '\r\n',
  '()',
  '@',
  '{}',
);
/** One parameter as the grammar nearly has it: `;`, spaces, a name, `=`, a token or a quoted string. */
const qchar = fc.constantFrom(
  'a',
  ' ',
  '\t',
  '\v',
  '\\',
  '"',
  '\x7f',
  '\x80',
  '\u00ff',
  '\u0100',
  ',',
  ';',
  '=',
);
const parameter = fc
  .record({
    before: fc.constantFrom('', ' ', '  ', '\t'),
    name: fc.constantFrom('charset', 'q', 'a-b', 'é', ''),
    around: fc.constantFrom('', ' ', '\t'),
    value: fc.oneof(
      fc.constantFrom('utf-8', 'UTF-8', '', 'a b', 'a,b'),
      fc.array(qchar, { maxLength: 5 }).map((cs) => `"${cs.join('')}"`),
    ),
    after: fc.constantFrom('', ' ', '\t'),
  })
  .map((p) => `;${p.before}${p.name}${p.around}=${p.around}${p.value}${p.after}`);
const structured = fc
  .record({
    type: fc.constantFrom(
      'text/event-stream',
      'APPLICATION/json',
      'text/plain',
      ' application/json',
      'a/b/c',
      'x',
    ),
    parameters: fc.array(parameter, { maxLength: 3 }),
    tail: fc.constantFrom('', '', '', ';', ', text/plain', ' ,'),
  })
  .map((h) => h.type + h.parameters.join('') + h.tail);

const header = fc.oneof(
  { weight: 6, arbitrary: fc.array(piece, { maxLength: 8 }).map((ps) => ps.join('')) },
  { weight: 6, arbitrary: structured },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constant(null) },
);

describe("mediaTypeEssence ≡ the SDK's (content-type's parse and its fallback)", () => {
  it('over generated headers', () => {
    fc.assert(
      fc.property(header, (h) => {
        expect(mediaTypeEssence(h)).toBe(sdkEssence(h));
        expect(essence(h)).toBe(sdkEssence(h));
      }),
      { seed: 34, numRuns: 20000 },
    );
  });

  it('and on held-out seeds', () => {
    for (const seed of [271828, 8128])
      fc.assert(
        fc.property(header, (h) => {
          expect(mediaTypeEssence(h)).toBe(sdkEssence(h));
        }),
        { seed, numRuns: 5000 },
      );
  });

  it('and on hand-picked cases', () => {
    for (const h of [
      'text/event-stream; charset=utf-8',
      'TEXT/EVENT-STREAM;CHARSET=UTF-8',
      'text/event-stream; a=b, c',
      'application/json;',
      'application/json; charset=',
      'application/json; charset="a\\\u000bb"',
      'application/json; charset="\u00ff"',
      'application/json; charset="\u0100"',
      ' \u0130/json; x',
      'text/event-stream, application/json',
      'application/json ;q=1 ',
    ])
      expect(mediaTypeEssence(h)).toBe(sdkEssence(h));
  });
});
