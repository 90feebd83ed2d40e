import fc from 'fast-check';
import { encodeHTML } from 'entities';
import { describe, expect, it } from 'vitest';
import { decodedOnceNamed, htmlReferencesDecoded } from './decodings.js';

/**
 * decodings.ts read HTML numeric references in a link's values by hand; it now reads them, and
 * named ones, by the `entities` library (htmlReferencesDecoded). Equal or better, over generated
 * values: equal to the hand-written decoder (kept here as the oracle, as it was) on every value whose
 * references are valid numbers; and every value the library's own encoder writes with named
 * references ("&commat;", "&period;", "&num;") reads back whole, which the hand-written one did not.
 */

// The decoder decodings.ts had (numericEntitiesDecoded), verbatim.
const NUMERIC_REF = /&#(?:[xX]0*([0-9a-fA-F]{1,6})|0*(\d{1,7}));?/g;
function handDecoded(s: string): string {
  return s.replace(NUMERIC_REF, (whole, hex?: string, dec?: string) => {
    const code = hex ? parseInt(hex, 16) : Number(dec);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
      ? String.fromCodePoint(code)
      : whole;
  });
}

// A valid code point outside 0x80–0x9F (which HTML reads as Windows-1252, the hand decoder as C1
// controls) and outside the surrogates.
const codePoint = fc
  .integer({ min: 1, max: 0x10ffff })
  .filter((n) => (n < 0x80 || n > 0x9f) && (n < 0xd800 || n > 0xdfff));
// Every form HTML's tokenizer reads: decimal, hex in either case of "x", leading zeros, the ";"
// kept or left off (then the next piece must not continue the number: a space follows).
const numericRef = fc
  .tuple(codePoint, fc.constantFrom('dec', 'x', 'X'), fc.nat({ max: 3 }), fc.boolean())
  .map(([n, form, zeros, semi]) => {
    const digits = form === 'dec' ? String(n) : n.toString(16);
    const ref = `&#${form === 'dec' ? '' : form}${'0'.repeat(zeros)}${digits}`;
    return semi ? `${ref};` : `${ref} `;
  });
// Text between references without "&" (a named reference is the other property's).
const plain = fc.string({ maxLength: 12 }).map((s) => s.replace(/&/g, ''));
const value = fc.array(fc.oneof(numericRef, plain), { maxLength: 12 }).map((xs) => xs.join(''));

describe('HTML references in link values, by the entities library', () => {
  it('equals the hand-written decoder on every valid numeric reference', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(htmlReferencesDecoded(v)).toBe(handDecoded(v));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads back whatever the library writes as named references, which the hand decoder did not', () => {
    let handMissed = 0;
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        const encoded = encodeHTML(s);
        expect(htmlReferencesDecoded(encoded)).toBe(s);
        if (handDecoded(encoded) !== s) handMissed++;
      }),
      { numRuns: 2000 },
    );
    expect(handMissed).toBeGreaterThan(0);
  });

  it('reads a code spelled with named references as one decoding of the value', () => {
    const v = 'code&colon;&num;4&period;8&period;2&comma;9';
    expect(decodedOnceNamed(v)).toContainEqual({ text: 'code:#4.8.2,9', how: 'HTML references' });
    // The browser's reading of what the hand decoder left as written: U+FFFD, which carries nothing.
    expect(htmlReferencesDecoded('&#0; &#xD800; &#x110000;')).toBe('\uFFFD \uFFFD \uFFFD');
    expect(htmlReferencesDecoded('plain text')).toBe('plain text');
  });
});
