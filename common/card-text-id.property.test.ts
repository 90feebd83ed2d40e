import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quotedId, quotedUnless } from './card-text.js';

/**
 * card-text.ts quotedId: an id the agent gives stands bare on a card only when it is of the shape
 * Google's ids are; any other text — letters of any script, marks, commas, colons — is quoted,
 * so no bare id draws a quote mark, passes for another id or writes a list.
 */
const GOOGLE_ID = /^[A-Za-z0-9_-]+$/;
const idLike = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc
    .array(
      fc.constantFrom(
        'm',
        '7',
        'r',
        '-',
        '_',
        'м',
        '\u0313',
        '\u0315',
        ',',
        ':',
        '@',
        '.',
        ';',
        '=',
      ),
      { minLength: 1, maxLength: 20 },
    )
    .map((p) => p.join('')),
);

describe('quotedId: an id bare only in the shape Google gives ids', () => {
  it('property: bare only when Google-shaped, otherwise quoted', () => {
    fc.assert(
      fc.property(idLike, (id) => {
        const shown = quotedId(id);
        if (shown === id) expect(id).toMatch(GOOGLE_ID);
        else expect(shown.startsWith('“')).toBe(true);
        if (GOOGLE_ID.test(id)) expect(shown).toBe(id);
      }),
      { numRuns: 2000 },
    );
  });

  it('quotes an id drawing a quote, passing for another id, or writing a list', () => {
    // U+0313 U+0315 on a letter draw ” (card-text.ts COMMA_MARK): named once quoted.
    expect(quotedId('m7\u0313\u0315')).toBe('“m7[U+0313][U+0315]”');
    expect(quotedId('м7')).toBe('“м7”');
    expect(quotedId('r1,Bcc:eve@x.test')).toBe('“r1,Bcc:eve@x.test”');
    expect(quotedId('18f3a2b4c5d6e7f8')).toBe('18f3a2b4c5d6e7f8');
    expect(quotedId('r-5938107163462818937')).toBe('r-5938107163462818937');
    expect(quotedId('ANGjdJ8_xYz-1')).toBe('ANGjdJ8_xYz-1');
  });

  it('a word with marks that draw quotes is quoted even where its shape is allowed (quotedUnless)', () => {
    const address = (v: string) => v.includes('@');
    // U+0312 twice over a letter draws “; U+0313 U+0315 draw ” (COMMA_MARK).
    expect(quotedUnless('bob@x.test\u0312\u0312', address)).toBe('“bob@x.test[U+0312][U+0312]”');
    expect(quotedUnless('bob@x.test\u0313\u0315', address)).toBe('“bob@x.test[U+0313][U+0315]”');
    // A mark first sits on what comes before it: Airlock's words (LOOSE_MARKS).
    expect(quotedUnless('\u0301bob@x.test', address)).toBe('“[U+0301]bob@x.test”');
    // Writing's own marks stay bare: an accented address, a Greek breathing on its letter.
    expect(quotedUnless('re\u0301mi@x.test', address)).toBe('re\u0301mi@x.test');
    expect(quotedUnless('\u1f00\u03bb\u03c6\u03b1@x.test', address)).toBe(
      '\u1f00\u03bb\u03c6\u03b1@x.test',
    );
  });
});
