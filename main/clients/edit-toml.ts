/**
 * Targeted edits of Codex's config.toml (issue 15): Airlock's
 * `[mcp_servers.airlock]` table is replaced where it stands or appended at the
 * end, and imported servers' `[mcp_servers.<name>]` tables (with their
 * sub-tables such as `.env`) are cut out — every other byte of the file stays,
 * comments included. No TOML library both parses and rewrites with its
 * formatting intact, so the edit is textual and a real parser (smol-toml,
 * in `clients-edit.ts`) checks the result before anything is written.
 */

interface Header {
  line: number;
  path: string[];
}

/** `[a.b."c d"]` → ['a','b','c d']; array-of-tables `[[x]]` too (with `array: true`). */
function headerPath(line: string): { path: string[]; array: boolean } | null {
  const m = /^\s*(\[\[?)(.*?)(\]\]?)\s*(#.*)?$/.exec(line);
  if (!m || (m[1] === '[[') !== (m[3] === ']]')) return null;
  const path: string[] = [];
  const s = m[2]!;
  let i = 0;
  while (i < s.length) {
    while (s[i] === ' ' || s[i] === '\t') i++;
    let key = '';
    if (s[i] === '"' || s[i] === "'") {
      const q = s[i]!;
      i++;
      while (i < s.length && s[i] !== q) {
        if (q === '"' && s[i] === '\\' && i + 1 < s.length) {
          key += JSON.parse(`"${s.slice(i, i + 2)}"`) as string;
          i += 2;
        } else key += s[i++];
      }
      i++;
    } else {
      while (i < s.length && /[A-Za-z0-9_-]/.test(s[i]!)) key += s[i++];
    }
    if (key === '' && s[i - 1] !== '"' && s[i - 1] !== "'") return null;
    path.push(key);
    while (s[i] === ' ' || s[i] === '\t') i++;
    if (i < s.length && s[i] !== '.') return null;
    i++;
  }
  return { path, array: m[1] === '[[' };
}

/** Table header lines, skipping the insides of multi-line strings. */
function headers(lines: string[]): Header[] {
  const out: Header[] = [];
  let inString: string | null = null;
  lines.forEach((line, n) => {
    if (inString === null) {
      const h = headerPath(line);
      if (h) out.push({ line: n, path: h.path });
    }
    for (const q of ['"""', "'''"]) {
      const count = line.split(q).length - 1;
      if (count % 2 === 1) inString = inString === null ? q : inString === q ? null : inString;
    }
  });
  return out;
}

const startsWith = (path: string[], prefix: string[]) => prefix.every((k, i) => path[i] === k);

/** A line and its own terminator ('' on a last line without one): joined back, the bytes are the file's. */
interface Line {
  body: string;
  eol: string;
}

function splitLines(text: string): Line[] {
  if (text === '') return [];
  const out: Line[] = [];
  const re = /([^\r\n]*(?:\r(?!\n)[^\r\n]*)*)(\r\n|\n|$)/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < text.length && (m = re.exec(text))) out.push({ body: m[1]!, eol: m[2]! });
  return out;
}

const joinLines = (lines: Line[]) => lines.map((l) => l.body + l.eol).join('');

/** The file's last line break (LF when it has none): the end is where a new table goes. */
function eolOf(text: string): string {
  const nl = text.lastIndexOf('\n');
  return nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
}

/** The line indexes to drop for every table at or under `prefix`, and where the first one stood. */
function tableLines(lines: Line[], prefix: string[]): { drop: Set<number>; at: number | null } {
  const hs = headers(lines.map((l) => l.body));
  const drop = new Set<number>();
  let at: number | null = null;
  hs.forEach((h, i) => {
    if (!startsWith(h.path, prefix)) return;
    let end = hs[i + 1]?.line ?? lines.length;
    // Comments right above the next header describe that table: they stay.
    while (end - 1 > h.line && /^\s*#/.test(lines[end - 1]!.body)) end--;
    at ??= h.line;
    for (let n = h.line; n < end; n++) drop.add(n);
  });
  return { drop, at };
}

/** Removes every table at or under `prefix` (e.g. ['mcp_servers','github']); every other line keeps its bytes. */
export function cutTables(text: string, prefix: string[]): { text: string; at: number | null } {
  const lines = splitLines(text);
  const { drop, at } = tableLines(lines, prefix);
  if (at === null) return { text, at };
  return { text: joinLines(lines.filter((_, n) => !drop.has(n))), at };
}

/** A TOML key: bare when it can be, else a basic string. */
export function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k);
}

/** TOML basic strings accept JSON's escapes (\" \\ \n \t \uXXXX). */
export function tomlValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(', ')}]`;
  if (v && typeof v === 'object')
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${tomlKey(k)} = ${tomlValue(x)}`)
      .join(', ')} }`;
  throw new Error(`cannot write ${typeof v} to TOML`);
}

/**
 * Replaces (where it stands) or appends (at the end) the table `path` with `values` (inline
 * tables for objects). Only the table's own lines change; the new lines end like the file's
 * (issue 28.4: CRLF stays CRLF, a last line without a break gets one before the new table).
 */
export function setTable(text: string, path: string[], values: Record<string, unknown>): string {
  const lines = splitLines(text);
  const { drop, at } = tableLines(lines, path);
  const eol = at !== null ? lines[at]!.eol || eolOf(text) : eolOf(text);
  const block: Line[] = [
    `[${path.map(tomlKey).join('.')}]`,
    ...Object.entries(values).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`),
  ].map((body) => ({ body, eol }));
  if (at !== null) {
    const kept = lines.filter((_, n) => !drop.has(n) || n === at);
    const i = kept.indexOf(lines[at]!);
    // The old table's last line break is kept as the new table's separator from what follows.
    const after = i + 1 < kept.length ? [{ body: '', eol }] : [];
    kept.splice(i, 1, ...block, ...after);
    return joinLines(kept);
  }
  if (lines.length === 0) return joinLines(block);
  const last = lines[lines.length - 1]!;
  const tail: Line[] = [];
  if (last.eol === '') tail.push({ body: '', eol }); // close the last line
  if (last.body.trim() !== '') tail.push({ body: '', eol }); // a blank line before the table
  return text + joinLines(tail) + joinLines(block);
}
