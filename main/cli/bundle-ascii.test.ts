import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect, promisify } from 'node:util';
import { parse, type Node } from 'acorn';
import { describe, expect, it } from 'vitest';
import { requireBuilt } from '../../test-support/cli-process.js';
import { BUILD_CLI, bundleCheckout } from '../../test-support/bundle-checkout.js';

/**
 * The CLI bundle is built ASCII-only with its comments dropped (scripts/build-cli.mjs, `charset`,
 * issue 34): V8 keeps every module's source on its heap, two bytes a character if one character
 * is not Latin-1. The promise is that this changes the bytes and nothing else. So the shipped
 * bundle is built beside a reference build (`--charset=utf8`: characters as written, comments
 * kept) from the same tsc output, and both are parsed by acorn — a parser that is not the one that
 * printed them — and compared node by node: every string, template, regular expression and name
 * must denote the same characters; only a tagged template's raw text has to match as written.
 */
async function built(...flags: string[]): Promise<Map<string, string>> {
  const dir = bundleCheckout('airlock-bundle-ascii-');
  await promisify(execFile)(process.execPath, [BUILD_CLI, dir, ...flags], {
    cwd: dir,
    timeout: 120_000,
  });
  const bundle = join(dir, 'dist/main/bundle');
  const names = readdirSync(bundle).filter((n) => n.endsWith('.js'));
  const canonical = new Map(
    // rolldown's runtime chunk has no map: it holds no module of ours (its sources are none).
    names.map((f) => {
      const map = join(bundle, `${f}.map`);
      return [f, chunkName(f, existsSync(map) ? readFileSync(map, 'utf8') : '{"sources":[]}')];
    }),
  );
  const files = new Map<string, string>();
  for (const f of names) {
    let text = readFileSync(join(bundle, f), 'utf8');
    // Every reference to a chunk (`import "./vault-B8Atp48L.js"`) names it as the other build does.
    for (const [hashed, name] of canonical)
      if (hashed !== name) text = text.replaceAll(hashed, name);
    files.set(canonical.get(f) ?? f, text);
  }
  // Each chunk compared with its own counterpart: none hides behind another of the same name.
  expect(files.size, 'two chunks under one name').toBe(names.length);
  return files;
}

/**
 * A chunk's name with its content hash (the two builds' hashes differ) replaced by one of the
 * modules it holds (its source map's `sources`, the same in both builds): two chunks can share a
 * name (`vault-B8Atp48L.js` holds platform/vault/vault.js, `vault-De_p5we9.js` cli/vault.js).
 * An entry (`cli.js`, no hash) keeps its name.
 */
export function chunkName(file: string, map: string): string {
  const m = /^(.*)-[\w-]{8}\.js$/.exec(file);
  if (!m) return file;
  const { sources } = JSON.parse(map) as { sources: string[] };
  return `${m[1]}~${createHash('sha256').update(sources.join('\n')).digest('hex').slice(0, 12)}.js`;
}

/**
 * A regular expression's pattern with every `\u` escape of a non-ASCII code point written as the
 * character: the two spell the same pattern (no non-ASCII character has a meaning in a pattern's
 * syntax), and a pair of escaped surrogates makes the same pair. Any other escape is kept as it is.
 * `\u{…}` is an escape only with the `u` or `v` flag: without, `/\u{e9}/` is `u{e9}` as written
 * (ECMA-262 Annex B.1.2, IdentityEscape and ExtendedPatternCharacter), not `é`; and there a
 * backslash before a non-ASCII character escapes it to itself (`/\é/` is `/é/`).
 */
export function patternText(source: string, flags = ''): string {
  const unicode = /[uv]/.test(flags);
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const m = (unicode ? /^u(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]+)\})/ : /^u([0-9a-fA-F]{4})/).exec(
      source.slice(i + 1),
    );
    // Without `u` or `v`, `\é` is an identity escape: `é` (Annex B.1.2); a printer drops the `\`.
    if (!unicode && source.charCodeAt(i + 1) > 0x7f) continue;
    const code = m ? parseInt(m[1] ?? m[2] ?? '', 16) : -1;
    if (m && code > 0x7f) {
      out += String.fromCodePoint(code);
      i += m[0].length;
    } else {
      out += source.slice(i, i + 2);
      i++;
    }
  }
  return out;
}

const POSITION = new Set(['start', 'end', 'loc', 'range', 'raw']);

/** The first difference between two parsed programs, as a path and both sides; undefined when equal. */
export function difference(a: unknown, b: unknown, path = '', tagged = false): string | undefined {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
    return Object.is(a, b) ? undefined : `${path}: ${inspect(a)} ≠ ${inspect(b)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array against object`;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  if (x.type === 'Literal' && x.regex) {
    const r = x.regex as { pattern: string; flags: string };
    const s = y.regex as { pattern: string; flags: string } | undefined;
    if (
      !s ||
      r.flags !== s.flags ||
      patternText(r.pattern, r.flags) !== patternText(s.pattern, s.flags)
    )
      return `${path}: /${r.pattern}/${r.flags} ≠ ${s ? `/${s.pattern}/${s.flags}` : 'no regex'}`;
    return undefined;
  }
  if (x.type === 'TemplateElement') {
    const v = x.value as { cooked: string | null; raw: string };
    const w = y.value as { cooked: string | null; raw: string } | undefined;
    // An untagged template's raw text is never read: its cooked text is the value. A tag reads both.
    if (v.cooked !== w?.cooked || (tagged && v.raw !== w.raw))
      return `${path}: template ${JSON.stringify(v)} ≠ ${JSON.stringify(w)}`;
    return undefined;
  }
  const keys = new Set([...Object.keys(x), ...Object.keys(y)].filter((k) => !POSITION.has(k)));
  for (const k of keys) {
    // A tag's template: its `quasis` array, and that array's elements.
    const inTag =
      (k === 'quasi' && x.type === 'TaggedTemplateExpression') ||
      (tagged && (k === 'quasis' || Array.isArray(x)));
    const d = difference(x[k], y[k], `${path}.${k}`, inTag);
    if (d) return d;
  }
  return undefined;
}

const program = (text: string): Node =>
  parse(text, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true });

describe('the CLI bundle, ASCII-only', () => {
  it('is ASCII in every file and parses to the same program as the bundle as written', async () => {
    requireBuilt();
    const [ascii, reference] = await Promise.all([built(), built('--charset=utf8')]);
    expect([...ascii.keys()].sort()).toEqual([...reference.keys()].sort());
    let escaped = 0;
    for (const [name, text] of ascii) {
      // V8 stores a source one byte a character only if every character is Latin-1; ASCII is the
      // promise the build makes (and what keeps a `\u` in a tagged template from being needed).
      const wide = [...text].filter((c) => c.charCodeAt(0) > 0x7f);
      expect(wide, `${name} has non-ASCII characters`).toEqual([]);
      const ref = reference.get(name) ?? '';
      if ([...ref].some((c) => c.charCodeAt(0) > 0x7f)) escaped++;
      expect(difference(program(text), program(ref)), name).toBeUndefined();
      expect(text.length, `${name} is not smaller than its reference`).toBeLessThanOrEqual(
        ref.length,
      );
    }
    // The comparison had something to compare: most chunks carry non-ASCII text as written.
    expect(escaped).toBeGreaterThan(5);
  }, 240_000);

  it('the comparison sees a changed escape, a changed tagged raw text and a changed pattern', () => {
    const base = 'const a = "\u2014"; const r = /[\u3002.]/u; const t = String.raw`[\u3002]`;';
    const same = 'const a = "\\u2014"; const r = /[\\u3002.]/u; const t = String.raw`[\u3002]`;';
    expect(difference(program(same), program(base))).toBeUndefined();
    for (const changed of [
      'const a = "\\u2013"; const r = /[\\u3002.]/u; const t = String.raw`[\u3002]`;',
      'const a = "\\u2014"; const r = /[\\u3002\\.]/u; const t = String.raw`[\u3002]`;',
      'const a = "\\u2014"; const r = /[\\u3002.]/u; const t = String.raw`[\\u3002]`;',
    ])
      expect(difference(program(changed), program(base))).toBeDefined();
    // Without `u` or `v`, `\u{1F600}` is not an escape: it cannot stand for a character as written.
    expect(difference(program('/\\u{1F600}/'), program('/\u{1F600}/'))).toBeDefined();
    expect(difference(program('/\\u{e9}/'), program('/\u00e9/'))).toBeDefined();
    expect(difference(program('/\\u{1F600}/u'), program('/\u{1F600}/u'))).toBeUndefined();
    expect(difference(program('/\\uD83D\\uDE00/'), program('/\u{1F600}/'))).toBeUndefined();
    // Annex B's identity escape of a non-ASCII character, as the ASCII printer writes it.
    expect(
      difference(program('/\\u00e9\\uD83D\\uDE00/'), program('/\\\u00e9\\\u{1F600}/')),
    ).toBeUndefined();
    expect(difference(program('/\\u00e8/'), program('/\\\u00e9/'))).toBeDefined();
    // Two chunks of one name (`vault-*.js`) stay apart; the same chunk is named alike in both builds.
    const map = (...sources: string[]) => JSON.stringify({ sources });
    expect(chunkName('vault-B8Atp48L.js', map('../platform/vault/vault.js'))).not.toBe(
      chunkName('vault-De_p5we9.js', map('../cli/vault.js')),
    );
    expect(chunkName('vault-B8Atp48L.js', map('../cli/vault.js'))).toBe(
      chunkName('vault-Xx_-9aZQ.js', map('../cli/vault.js')),
    );
    expect(patternText('\\\\u00e9\\u00e9\\u{1F600}\\u002e', 'u')).toBe('\\\\u00e9é😀\\u002e');
  });
});
