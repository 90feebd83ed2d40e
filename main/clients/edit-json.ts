import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parseTree,
  type Edit,
  type FormattingOptions,
  type Node,
} from 'jsonc-parser';

/**
 * Edits a client's JSON/JSONC config in place (issue 15). jsonc-parser finds
 * the exact byte ranges; only the changed property's bytes are touched, so the
 * user's comments, key order, indentation and line endings stay as they were.
 * (`modify` with formatting re-formats the whole line it touches, which would
 * unfold the user's one-line entries, so appends and removals are cut here by
 * hand from the parse tree's offsets; replacing an entry's value uses `modify`.)
 */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indented = /\n([ \t]+)\S/.exec(text)?.[1];
  if (indented?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indented ? Math.min(indented.length, 8) : 2, eol };
}

const PARSE = { allowTrailingComma: true, disallowComments: false };

function lineStart(text: string, at: number): number {
  return text.lastIndexOf('\n', at - 1) + 1;
}

/** Sets `keyPath` (whose last key is the entry name) to `value`. */
export function setJsonEntry(text: string, keyPath: string[], value: unknown): string {
  const base = text.trim() === '' ? '{}' : text;
  const fmt = formattingOf(base);
  const tree = parseTree(base, [], PARSE);
  const parent = tree && findNodeAtLocation(tree, keyPath.slice(0, -1));
  const existing = tree && findNodeAtLocation(tree, keyPath);
  const props = parent?.type === 'object' ? (parent.children ?? []) : [];
  if (existing || props.length === 0) {
    const out = applyEdits(base, modify(base, keyPath, value, { formattingOptions: fmt }));
    return text.trim() === '' ? out + fmt.eol : out;
  }
  // Append after the last property, on a line of its own, indented like its siblings.
  const last = props[props.length - 1]!;
  const indent = /^[ \t]*/.exec(base.slice(lineStart(base, last.offset)))![0];
  const unit = fmt.insertSpaces ? ' '.repeat(fmt.tabSize ?? 2) : '\t';
  const body = JSON.stringify(value, null, unit)
    .split('\n')
    .join(fmt.eol + indent);
  const end = last.offset + last.length;
  const after = base.slice(end);
  const trailingComma = /^\s*,/.exec(after);
  const edits: Edit[] = [];
  let at = end;
  if (trailingComma) at = end + trailingComma[0].length;
  else edits.push({ offset: end, length: 0, content: ',' });
  // Past a comment that ends the line ("x": 1 // note), so the comment stays with its entry.
  const rest = /^[ \t]*(\/\/[^\n]*|\/\*.*?\*\/)?[ \t]*(?=\r?\n)/.exec(base.slice(at));
  if (rest) at += rest[0].length;
  const entry = `${fmt.eol}${indent}${JSON.stringify(keyPath[keyPath.length - 1])}: ${body}${trailingComma ? ',' : ''}`;
  edits.push({ offset: at, length: 0, content: entry });
  return applyEdits(base, edits);
}

/** Removes the named entries under `keyPath`, each with its line(s), trailing comment and comma. */
export function removeJsonEntries(text: string, keyPath: string[], names: string[]): string {
  let out = text;
  for (const name of names) {
    const tree = parseTree(out, [], PARSE);
    const value = tree && findNodeAtLocation(tree, [...keyPath, name]);
    const prop = value?.parent;
    if (!prop || prop.type !== 'property') continue;
    out = applyEdits(out, [removal(out, prop)]);
  }
  return out;
}

function removal(text: string, prop: Node): Edit {
  let start = prop.offset;
  let end = prop.offset + prop.length;
  const comma = /^[ \t]*,/.exec(text.slice(end));
  if (comma) end += comma[0].length;
  else {
    // The last property: drop the comma before it instead (past any comments in between).
    const m = /,(\s*(\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)?\s*)*$/.exec(text.slice(0, start));
    if (m) return { offset: m.index, length: end - m.index, content: '' };
  }
  // On a line of its own: take the whole line(s), its indentation and a trailing comment included.
  const ls = lineStart(text, start);
  const rest = /^[ \t]*(\/\/[^\n]*)?\r?\n/.exec(text.slice(end));
  if (/^[ \t]*$/.test(text.slice(ls, start)) && rest) {
    start = ls;
    end += rest[0].length;
  }
  return { offset: start, length: end - start, content: '' };
}
