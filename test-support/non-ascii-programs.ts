import fc from 'fast-check';

/**
 * Generated ES modules full of non-ASCII text where a printer has choices to make: strings,
 * templates, tagged templates (raw and cooked), regular expressions with and without `u`/`v`
 * (classes, ranges, identity escapes `\é` under Annex B, astral characters, named groups), names
 * of variables, properties, private fields, labels and functions (astral `𝑥`, joiners, combining
 * marks). Each module exports `out` (values a program computes) and `src` (`RegExp#source` and
 * `Function#toString` text, which an ASCII printing may spell differently). For
 * main/cli/bundle-ascii-runtime.test.ts.
 */
const TEXT = [
  'é',
  'ß',
  'ÿ',
  'Ā',
  '—',
  '。',
  '中',
  '😀',
  '𝑥',
  '\u200d',
  '\u0301',
  '\u2028',
  '\u2029',
  '\u00a0',
  '\ufeff',
  'a',
  '.',
  '-',
  ' ',
  '€',
  'ﬁ',
  'İ',
  'K',
  'ſ',
];
const ID_START = ['é', 'ß', 'Ā', '中', '𝑥', '℮', 'ª', '゛', 'ſ', 'K', 'İ', 'a', '$', '_'];
const ID_PART = [...ID_START, '\u200d', '\u200c', '\u0301', '·', '9'];
const PATTERN = [
  'é',
  'ß',
  'ÿ',
  'Ā',
  '—',
  '。',
  '中',
  '😀',
  '𝑥',
  'a',
  'K',
  'ſ',
  'İ',
  'ﬁ',
  '\u0301',
  '€',
];

const text = fc.array(fc.constantFrom(...TEXT), { maxLength: 6 }).map((a) => a.join(''));
const name = fc
  .tuple(fc.constantFrom(...ID_START), fc.array(fc.constantFrom(...ID_PART), { maxLength: 3 }))
  .map(([a, b]) => a + b.join(''));
const quoted = (s: string, q: string): string =>
  q + s.replace(/\\/g, '\\\\').replace(new RegExp(q, 'g'), `\\${q}`) + q;
const template = (s: string): string => '`' + s.replace(/[`\\$]/g, (c) => `\\${c}`) + '`';
const chars = (min: number) =>
  fc.array(fc.constantFrom(...PATTERN), { minLength: min, maxLength: 3 }).map((a) => a.join(''));
const atom = fc.oneof(
  fc.constantFrom(...PATTERN),
  fc.constantFrom(...PATTERN).map((c) => `\\${c}`),
  chars(1).map((s) => `[${s}]`),
  chars(1).map((s) => `[^${s}]`),
  fc
    .tuple(fc.constantFrom(...PATTERN), fc.constantFrom(...PATTERN))
    .map(([a, b]) =>
      (a.codePointAt(0) ?? 0) <= (b.codePointAt(0) ?? 0) ? `[${a}-${b}]` : `[${b}-${a}]`,
    ),
  fc.constantFrom('.', '\\w', '\\b', '\\p{L}', '\\u{e9}', '\\u00e9', '\\x41', '(?=é)', '(?<!。)'),
);
const regex = fc
  .tuple(
    fc.array(fc.tuple(atom, fc.constantFrom('', '', '+', '*', '?', '{2}', '{1,2}')), {
      minLength: 1,
      maxLength: 4,
    }),
    fc.constantFrom('', 'i', 'u', 'iu', 'v', 'iv', 'g', 'gu', 's', 'y', 'su'),
    fc.option(name, { nil: undefined }),
  )
  .map(([pieces, flags, group]) => {
    const p = pieces.map(([a, q]) => a + q).join('');
    return [group ? `(?<${group}>${p})\\k<${group}>` : p, flags] as const;
  })
  .filter(([p, flags]) => {
    try {
      new RegExp(p, flags);
      return !/[\n\r\u2028\u2029/]/.test(p);
    } catch {
      return false;
    }
  });
const subject = fc
  .array(fc.constantFrom(...PATTERN, 'u', '{', '}', '\\'), { maxLength: 6 })
  .map((a) => a.join(''));

const statement = fc.oneof(
  fc.tuple(text, fc.constantFrom('"', "'")).map(([s, q]) => `out.push(${quoted(s, q)});`),
  text.map((s) => `out.push(${template(s)}, ${template(s)}.length);`),
  fc
    .tuple(text, text)
    .map(([a, b]) => `out.push(tag${template(a).slice(0, -1)}\${1}${template(b).slice(1)});`),
  text.map((s) => `out.push(String.raw${template(s)});`),
  fc
    .tuple(regex, fc.array(subject, { minLength: 1, maxLength: 4 }))
    .map(
      ([[p, flags], subjects]) =>
        `{ const r = /${p}/${flags}; out.push(${JSON.stringify(subjects)}.map((s) => { r.lastIndex = 0; const m = r.exec(s); return m && [...m, m.index, m.groups && { ...m.groups }]; }), r.flags); src.push(r.source); }`,
    ),
  fc.tuple(name, fc.integer()).map(([i, n]) => `{ let ${i} = ${n}; ${i}++; out.push(${i}); }`),
  fc
    .tuple(name, text, text)
    .map(
      ([i, a, b]) =>
        `out.push(Object.keys({ ${i}: 1, ${quoted(a, '"')}: 2, [${template(b)}]: 3, ${quoted(`${a}x`, "'")}() {} }));`,
    ),
  name.map(
    (i) =>
      `{ class C { static ${i} = 1; #${i} = 2; get ${i}() { return this.#${i}; } } out.push(Object.getOwnPropertyNames(C), new C().${i}, C.${i}); }`,
  ),
  name.map((i) => `{ function ${i}() {} out.push(${i}.name); src.push(${i}.toString()); }`),
  name.map((i) => `{ ${i}: for (;;) { break ${i}; } out.push(1); }`),
  fc
    .tuple(name, text)
    .map(([i, s]) => `{ const { ${i} = ${quoted(s, '"')} } = {}; out.push(${i}); }`),
  text.map((s) => `out.push([...${quoted(s, '"')}].length, ${quoted(s, '"')}.toUpperCase());`),
  text.map((s) => `/* ${s} */ out.push(0);`),
);

export const nonAsciiProgram = fc
  .array(statement, { minLength: 1, maxLength: 8 })
  .map(
    (ss) =>
      `const tag = (s, ...v) => [[...s.raw], [...s], v];\nexport const out = [];\nexport const src = [];\n${ss.join('\n')}\n`,
  );
