import { findNodeAtLocation, parse as parseJsonc, parseTree, type ParseError } from 'jsonc-parser';
import fc from 'fast-check';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import {
  jsonDoc,
  OLD_URL,
  printJson,
  style,
  tomlDoc,
  type Style,
} from '../../test-support/config-fixtures.js';
import { clientDefs, type ConfigSource } from './client-defs.js';
import { editFile } from './clients-edit.js';
import { BOM, parseText, serversAt, type ReadFile } from './read-config.js';

/**
 * Issue 28.4, as a property over generated files (test-support/config-fixtures.ts) for every
 * app's file: writing Airlock's entry changes nothing but that entry — every other byte stays,
 * whatever the line endings, BOM, indentation, trailing commas or comments — the result parses
 * with the apps' own kind of parser (jsonc-parser; smol-toml for Codex) and holds the entry, and
 * the inserted text ends its lines like the file does.
 */
const URL_NOW = 'http://127.0.0.1:39905/mcp';
const TOKEN = 'alk_generated_token';
const defs = clientDefs({ home: '/home/me', platform: 'linux' });
/** Every file Airlock writes, plus VS Code's settings.json (`mcp.servers`: a key path two deep). */
const targets: { id: string; source: ConfigSource; entry: Record<string, unknown> }[] = [
  ...defs
    .filter((d) => d.target.format === 'json')
    .map((d) => ({ id: d.id, source: d.target, entry: d.entry(URL_NOW, TOKEN) })),
  ...defs
    .flatMap((d) =>
      d.sources().map((source) => ({ id: d.id, source, entry: d.entry(URL_NOW, TOKEN) })),
    )
    .filter((t) => t.source.keyPath.length > 1),
];
const codex = defs.find((d) => d.id === 'codex')!;

function read(source: ConfigSource, text: string): ReadFile {
  const parsed = parseText(text, source.format);
  expect(parsed.error, `generated fixture parses:\n${text}`).toBeUndefined();
  return { source, exists: true, text, ...parsed };
}

/** The changed span: original = P + removed + S, result = P + added + S. */
function diff(a: string, b: string): { at: number; removed: string; added: string } {
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  return { at: p, removed: a.slice(p, a.length - s), added: b.slice(p, b.length - s) };
}

function isSubsequence(short: string, long: string): boolean {
  let i = 0;
  for (let j = 0; j < long.length && i < short.length; j++) if (long[j] === short[i]) i++;
  return i === short.length;
}

/** Every line break in `text` is `eol` (no lone CR, no LF without its CR in a CRLF file). */
function breaksAre(text: string, s: Style, original: string): boolean {
  // A file without any line break has no style to keep: the new lines are LF.
  const eol = original.includes('\n') ? s.eol : '\n';
  return eol === '\r\n' ? !/[\r\n]/.test(text.replace(/\r\n/g, '')) : !text.includes('\r');
}

describe('editing a client file changes only Airlock’s entry (generated files)', () => {
  it.each(targets.map((t) => [`${t.id} ${t.source.keyPath.join('.')}`, t] as const))(
    '%s',
    (_name, t) => {
      fc.assert(
        fc.property(fc.gen(), (g) => {
          const s = style(g);
          const { root, hasAirlock } = jsonDoc(g, t.source.keyPath);
          const text = printJson(g, root, s);
          const f = read(t.source, text);
          let edit;
          try {
            edit = editFile(f, { entry: t.entry, remove: [] });
          } catch (err) {
            throw new Error(`${(err as Error).message}\n${JSON.stringify(text)}`, { cause: err });
          }
          expect(edit.entry).toBe(hasAirlock ? 'updated' : 'added');

          // Parses (past the BOM, which stays), holds the entry; the rest of the data is the same.
          expect(edit.text.startsWith(BOM)).toBe(s.bom);
          const body = edit.text.slice(s.bom ? 1 : 0);
          const errors: ParseError[] = [];
          const after = parseJsonc(body, errors, { allowTrailingComma: true }) as Record<
            string,
            unknown
          >;
          expect(errors).toEqual([]);
          expect(serversAt(after, t.source.keyPath).airlock).toEqual(t.entry);
          const expected = structuredClone(f.data);
          let at: Record<string, unknown> = expected;
          for (const k of t.source.keyPath) at = (at[k] ??= {}) as Record<string, unknown>;
          at.airlock = t.entry;
          expect(after).toEqual(expected);

          // Line endings: the whole result still uses the file's, the new lines included.
          expect(breaksAre(edit.text, s, text), JSON.stringify(edit.text)).toBe(true);

          // Bytes: only the entry changed.
          const d = diff(text, edit.text);
          if (!hasAirlock) {
            // Insertions only: the original is the result minus the entry (and a comma before it).
            const k = d.added.indexOf(d.removed);
            expect(k, JSON.stringify({ text, result: edit.text })).toBeGreaterThanOrEqual(0);
            expect(['', ',']).toContain(d.added.slice(0, k));
            expect(d.added.slice(k + d.removed.length)).toContain(JSON.stringify(URL_NOW));
          } else {
            // Within the old entry's value.
            const tree = parseTree(text.slice(s.bom ? 1 : 0), [], { allowTrailingComma: true })!;
            const old = findNodeAtLocation(tree, [...t.source.keyPath, 'airlock'])!;
            const from = old.offset + (s.bom ? 1 : 0);
            expect(d.at).toBeGreaterThanOrEqual(from);
            expect(d.at + d.removed.length).toBeLessThanOrEqual(from + old.length);
            expect(d.removed).toContain(OLD_URL);
          }

          // A second run changes nothing.
          const again = editFile(read(t.source, edit.text), { entry: t.entry, remove: [] });
          expect(again).toMatchObject({ changed: false, entry: 'unchanged' });

          // --remove-imported: one of the user's servers cut out, deletions only, the rest parses the same.
          const names = Object.keys(serversAt(f.data, t.source.keyPath)).filter(
            (n) => n !== 'airlock',
          );
          if (names.length === 0) return;
          const gone = names[names.length > 1 ? 1 : 0]!;
          const cut = editFile(f, { remove: [gone] });
          expect(cut.removed).toEqual([gone]);
          expect(breaksAre(cut.text, s, text)).toBe(true);
          const dc = diff(text, cut.text);
          expect(dc.added).toBe('');
          const prop = findNodeAtLocation(
            parseTree(text.slice(s.bom ? 1 : 0), [], { allowTrailingComma: true })!,
            [...t.source.keyPath, gone],
          )!.parent!;
          expect(dc.removed.length).toBeGreaterThanOrEqual(prop.length);
          const left = structuredClone(f.data);
          let servers: Record<string, unknown> = left;
          for (const k of t.source.keyPath) servers = servers[k] as Record<string, unknown>;
          delete servers[gone];
          expect(parseText(cut.text, 'json').data).toEqual(left);
        }),
        { numRuns: 150, endOnFailure: true },
      );
    },
  );

  it('codex config.toml', () => {
    const entry = codex.entry(URL_NOW, TOKEN);
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const s = style(g);
        const { text, hasAirlock } = tomlDoc(g, s);
        const f = read(codex.target, text);
        let edit;
        try {
          edit = editFile(f, { entry, remove: [] });
        } catch (err) {
          throw new Error(`${(err as Error).message}\n${JSON.stringify(text)}`, { cause: err });
        }
        expect(edit.entry).toBe(hasAirlock ? 'updated' : 'added');
        expect(edit.text.startsWith(BOM)).toBe(s.bom);
        const after = parseToml(edit.text.slice(s.bom ? 1 : 0)) as Record<string, unknown>;
        expect(serversAt(after, ['mcp_servers']).airlock).toEqual(entry);
        const expected = JSON.parse(JSON.stringify(f.data)) as Record<string, unknown>;
        ((expected.mcp_servers ??= {}) as Record<string, unknown>).airlock = entry;
        expect(JSON.parse(JSON.stringify(after))).toEqual(expected);
        expect(breaksAre(edit.text, s, text), JSON.stringify(edit.text)).toBe(true);

        const d = diff(text, edit.text);
        if (!hasAirlock) {
          // Appended: the file is kept whole, closed with a line break if it had none.
          expect(d.removed).toBe('');
          expect(d.at).toBe(text.length);
        } else {
          // Within the old table's own lines: its header to the next other table (or the end).
          const from = text.indexOf('[mcp_servers.airlock]');
          const next = /^\[(?!mcp_servers\.airlock[.\]])/m.exec(text.slice(from));
          const to = next ? from + next.index : text.length;
          expect(d.at).toBeGreaterThanOrEqual(from);
          expect(d.at + d.removed.length).toBeLessThanOrEqual(to);
          expect(d.removed).toContain('47821');
        }
        const again = editFile(read(codex.target, edit.text), { entry, remove: [] });
        expect(again).toMatchObject({ changed: false, entry: 'unchanged' });

        const names = Object.keys(serversAt(f.data, ['mcp_servers'])).filter(
          (n) => n !== 'airlock',
        );
        if (names.length === 0) return;
        let cut;
        try {
          cut = editFile(f, { remove: [names[0]!] });
        } catch (err) {
          throw new Error(`${(err as Error).message}\n${names[0]}\n${JSON.stringify(text)}`, {
            cause: err,
          });
        }
        expect(breaksAre(cut.text, s, text)).toBe(true);
        // Deletions only (a server's sub-tables may stand apart from it: several cuts).
        expect(isSubsequence(cut.text, text), JSON.stringify({ text, cut: cut.text })).toBe(true);
        const left = JSON.parse(JSON.stringify(f.data)) as { mcp_servers: Record<string, unknown> };
        delete left.mcp_servers[names[0]!];
        // TOML has no `mcp_servers` left once its last table is cut.
        if (Object.keys(left.mcp_servers).length === 0)
          delete (left as Record<string, unknown>).mcp_servers;
        expect(JSON.parse(JSON.stringify(parseText(cut.text, 'toml').data))).toEqual(left);
      }),
      { numRuns: 300, endOnFailure: true },
    );
  });
});

describe('issue 28.4 as reported', () => {
  it('Cursor, CRLF, a // comment ending the last entry: that line keeps one CR, the new entry ends in CRLF', () => {
    const cursor = defs.find((d) => d.id === 'cursor')!;
    const text =
      '{\r\n  "mcpServers": {\r\n    "a": { "url": "https://a.example/mcp" } // note\r\n  }\r\n}\r\n';
    const edit = editFile(read(cursor.target, text), {
      entry: cursor.entry(URL_NOW, TOKEN),
      remove: [],
    });
    expect(edit.text).not.toContain('\r\r');
    expect(edit.text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(edit.text).toContain(
      '"a": { "url": "https://a.example/mcp" }, // note\r\n    "airlock": {',
    );
  });

  it('a mixed file: the new lines take the line ending of the line they follow', () => {
    const cursor = defs.find((d) => d.id === 'cursor')!;
    const text = '{\n  "mcpServers": {\r\n    "a": {}\r\n  }\n}\n';
    const edit = editFile(read(cursor.target, text), { entry: { url: 'u' }, remove: [] });
    expect(edit.text).toBe(
      '{\n  "mcpServers": {\r\n    "a": {},\r\n    "airlock": {\r\n      "url": "u"\r\n    }\r\n  }\n}\n',
    );
  });

  it('a blank file: the object is written whole', () => {
    const cursor = defs.find((d) => d.id === 'cursor')!;
    expect(editFile(read(cursor.target, '\n'), { entry: { url: 'u' }, remove: [] }).text).toBe(
      '{\n  "mcpServers": {\n    "airlock": {\n      "url": "u"\n    }\n  }\n}\n',
    );
  });
});
