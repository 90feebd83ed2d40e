import fc from 'fast-check';
import { decodeHTML, encodeHTML } from 'entities';
import { describe, expect, it } from 'vitest';
import { decodedEntities, entityReading, rawDecoded, sourceAt } from './html-entities.js';

/**
 * html-entities.ts against the `entities` library's own whole-string decoder (`decodeHTML`, the
 * browser's reading of text): equal on generated text that mixes real reference names (derived
 * from the library's encoder, which spells every character it has a name for), truncated names,
 * names without their semicolon or with letters after, numbers of every form, and ordinary text;
 * and every decoded character traced to the right place in the text as sent.
 */

// The names the library's encoder writes: one per character it names (1,500-odd of the 2,231),
// with the legacy names (HTML's list of the 106 read without ";") among them.
const NAMES = (() => {
  let all = '';
  for (let cp = 1; cp < 0x1e000; cp++)
    if (cp < 0xd800 || cp > 0xdfff) all += String.fromCodePoint(cp);
  const names = new Set<string>();
  for (const m of encodeHTML(all).matchAll(/&([A-Za-z][A-Za-z0-9]*);/g)) names.add(m[1]!);
  for (const n of [
    'nbsp',
    'shy',
    'amp',
    'lt',
    'gt',
    'quot',
    'not',
    'copy',
    'reg',
    'middot',
    'raquo',
  ])
    names.add(n);
  return [...names];
})();

const name = fc.constantFrom(...NAMES);
const reference = fc.oneof(
  name.map((n) => `&${n};`),
  name.map((n) => `&${n}`),
  fc.tuple(name, fc.stringMatching(/^[A-Za-z0-9=]{1,3}$/)).map(([n, s]) => `&${n}${s}`),
  fc.tuple(name, fc.nat()).map(([n, k]) => `&${n.slice(0, 1 + (k % n.length))}`),
  fc.tuple(name, fc.nat()).map(([n, k]) => `&${n.slice(0, 1 + (k % n.length))};`),
  fc
    .tuple(fc.nat({ max: 4 }), fc.oneof(fc.nat({ max: 0x11ffff }), fc.nat()), fc.boolean())
    .map(([z, n, semi]) => `&#${'0'.repeat(z)}${n}${semi ? ';' : ''}`),
  fc
    .tuple(fc.constantFrom('x', 'X'), fc.nat({ max: 3 }), fc.nat(), fc.boolean())
    .map(([x, z, n, semi]) => `&#${x}${'0'.repeat(z)}${n.toString(16)}${semi ? ';' : ''}`),
  fc.constantFrom('&', '&#', '&#x', '&;', '&#;', '&&', '&#xZ', '&1', '&#99999999999999999999;'),
);
const plain = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.stringMatching(/^[ a-zA-Z0-9;#=<>]{1,8}$/),
  fc.constantFrom('AI assistant', ': forward ', ' ', 'é', '😀', '\n'),
);
const text = fc.array(fc.oneof(reference, plain), { maxLength: 12 }).map((a) => a.join(''));

describe('html-entities.ts reads references as the library reads them', () => {
  it('derives a name list with the letters the old table lacked', () => {
    expect(NAMES.length).toBeGreaterThan(1400);
    for (const n of ['Scaron', 'rsquo', 'mdash', 'nbsp', 'zwnj', 'eacute'])
      expect(NAMES).toContain(n);
  });
  it('equals decodeHTML on generated text', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(rawDecoded(t)).toBe(decodeHTML(t));
      }),
      { numRuns: 3000 },
    );
  });
  it('traces every decoded character to its source', () => {
    fc.assert(
      fc.property(text, fc.boolean(), (t, raw) => {
        const r = entityReading(t, raw);
        expect(r.text).toBe(raw ? rawDecoded(t) : decodedEntities(t));
        const s = r.spans;
        for (let p = 0; p < r.text.length; p++) {
          const q = sourceAt(r, p);
          const k = s.findIndex((_, i) => i % 4 === 0 && p >= s[i + 2]! && p < s[i + 3]!);
          if (k < 0) {
            // Copied: the same character.
            expect(r.text[p]).toBe(t[q]);
          } else {
            // Spelled by a reference: from its "&", and that span alone reads as its output.
            expect(q).toBe(s[k]);
            expect(t[q]).toBe('&');
            const alone = entityReading(t.slice(s[k]!, s[k + 1]!), raw);
            expect(alone.text).toBe(r.text.slice(s[k + 2]!, s[k + 3]!));
            expect(alone.spans).toEqual([0, s[k + 1]! - s[k]!, 0, s[k + 3]! - s[k + 2]!]);
          }
        }
      }),
      { numRuns: 1500 },
    );
  });
  it('leaves text without "&" as the same string', () => {
    fc.assert(
      fc.property(
        fc.string().filter((t) => !t.includes('&')),
        (t) => {
          expect(decodedEntities(t)).toBe(t);
        },
      ),
    );
  });
});
