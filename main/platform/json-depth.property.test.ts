import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonTooDeep } from './json-depth.js';

/**
 * The depth scan decides on the very text `JSON.parse` then reads (servers' messages,
 * upstream/json-values.ts; agents' bodies, gateway/guards.ts): it must say "too deep" exactly
 * when what `JSON.parse` builds nests deeper than the bound, on the text and on its UTF-8 bytes
 * alike, whatever the strings hold (brackets, quotes, backslashes, non-ASCII).
 */
function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  const inner = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
  return 1 + inner.reduce<number>((m, x) => Math.max(m, depthOf(x)), 0);
}

const unit = fc.constantFrom('[', ']', '{', '}', '"', '\\', '/', 'a', ',', ':', 'é', '😀', '\n');
const tricky = fc.string({ unit });

describe('jsonTooDeep', () => {
  it('is true exactly when the parsed value nests deeper than the bound, as text or bytes', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 10, stringUnit: 'binary' }),
        fc.array(fc.tuple(fc.boolean(), tricky), { maxLength: 12 }),
        fc.integer({ min: 0, max: 14 }),
        (inner, wraps, max) => {
          // Wrapped in arrays and objects whose keys and neighbours are strings full of brackets.
          let v: unknown = inner;
          for (const [array, s] of wraps) v = array ? [s, v, s] : { [s]: v, k: s };
          const text = JSON.stringify(v);
          const deeper = depthOf(JSON.parse(text)) > max;
          expect(jsonTooDeep(text, max)).toBe(deeper);
          expect(jsonTooDeep(Buffer.from(text, 'utf8'), max)).toBe(deeper);
        },
      ),
    );
  });

  it('agrees with JSON.parse on text JSON.stringify never writes: whitespace, \\u escapes', () => {
    // Any JSON text a server may send: whitespace between every token, and strings written with
    // \uXXXX escapes (of quotes, backslashes and brackets too), `\/`, or as JSON.stringify does.
    const ws = fc.constantFrom('', ' ', '\t', '\r\n', ' \n ');
    const style = fc.constantFrom('plain', 'unicode', 'solidus');
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 12, stringUnit: fc.oneof(unit, fc.string({ unit: 'binary' })) }),
        ws,
        style,
        fc.integer({ min: 0, max: 14 }),
        (v, space, how, max) => {
          const text = written(v, space, how);
          const deeper = depthOf(JSON.parse(text)) > max;
          expect(jsonTooDeep(text, max)).toBe(deeper);
          expect(jsonTooDeep(Buffer.from(text, 'utf8'), max)).toBe(deeper);
        },
      ),
    );
  });
});

/** `v` as JSON text with `space` around every token and strings escaped as `how` says. */
function written(v: unknown, space: string, how: 'plain' | 'unicode' | 'solidus'): string {
  const str = (s: string) =>
    how === 'plain'
      ? JSON.stringify(s)
      : how === 'solidus'
        ? JSON.stringify(s).replaceAll('/', '\\/')
        : `"${unicodeEscaped(s)}"`;
  const w = (x: unknown): string => {
    if (typeof x === 'string') return str(x);
    if (x === null || typeof x !== 'object') return JSON.stringify(x);
    if (Array.isArray(x)) return `[${space}${x.map(w).join(`${space},${space}`)}${space}]`;
    const members = Object.entries(x).map(([k, y]) => `${str(k)}${space}:${space}${w(y)}`);
    return `{${space}${members.join(`${space},${space}`)}${space}}`;
  };
  return `${space}${w(v)}${space}`;
}

/** Every UTF-16 unit of `s` as a \uXXXX escape (lone surrogates, quotes and brackets alike). */
function unicodeEscaped(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}
