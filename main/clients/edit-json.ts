import { applyEdits, findNodeAtLocation, parseTree, type Edit, type Node } from 'jsonc-parser';

/**
 * Edits a client's JSON/JSONC config in place (issue 15). jsonc-parser finds
 * the exact byte ranges; a new entry (or the missing objects above it) is
 * only ever inserted, and an existing entry's value replaced where it stands,
 * so every byte outside the edited entry stays as it was: comments, key
 * order, indentation, trailing commas, tabs and line endings (issue 28.4).
 * (jsonc-parser's `modify` re-formats the whole line an insertion lands on,
 * which unfolds the user's one-line entries and can rewrite a comment's line,
 * so edits are cut here from the parse tree's offsets; a real parser checks
 * the result in clients-edit.ts.) The caller strips a byte-order mark first.
 */
const PARSE = { allowTrailingComma: true, disallowComments: false };

/** A block comment: to its first `*\/`. */
const BLOCK = String.raw`/\*(?:[^*]|\*(?!/))*\*/`;
/**
 * Whitespace and comments: what may stand between two tokens of JSONC. Each alternative
 * matches one way only (a line comment runs to its line's end, a block comment to its first
 * `*\/`), so a failing match cannot backtrack through the ways of splitting the comments.
 */
const GAP = String.raw`(?:\s|//[^\r\n]*(?![^\r\n])|${BLOCK})*`;
/** The rest of a line after a value: blanks and comments (a block one within the line), up to the break. */
const LINE_REST = new RegExp(
  String.raw`^(?:[ \t]|//[^\r\n]*(?![^\r\n])|/\*(?:[^*\r\n]|\*(?!/))*\*/)*(?=\r?\n)`,
);

/** The line break used by the line holding `at` (the file's last one on its last line); LF if none. */
export function eolAt(text: string, at: number): '\r\n' | '\n' {
  const next = text.indexOf('\n', at);
  const nl = next >= 0 ? next : text.lastIndexOf('\n');
  return nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
}

/** One level of indentation as the file uses it: a tab, or its smallest run of leading spaces. */
export function indentUnit(text: string): string {
  const m = /\n([ \t]+)["}\]/]/.exec(text);
  if (m?.[1]!.startsWith('\t')) return '\t';
  const spaces = [...text.matchAll(/\n( +)["/]/g)].map((x) => x[1]!.length);
  return ' '.repeat(spaces.length ? Math.min(...spaces, 8) : 2);
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf('\n', at - 1) + 1;
}

const indentOf = (text: string, at: number) => /^[ \t]*/.exec(text.slice(lineStart(text, at)))![0];

/** `{ a: { b: value } }` for keys ['a','b']. */
function nest(keys: string[], value: unknown): unknown {
  return keys.reduceRight<unknown>((v, k) => ({ [k]: v }), value);
}

/** Sets `keyPath` (whose last key is the entry name) to `value`, creating the objects above it. */
export function setJsonEntry(text: string, keyPath: string[], value: unknown): string {
  const unit = indentUnit(text);
  if (text.trim() === '') {
    const eol = eolAt(text, 0);
    return JSON.stringify(nest(keyPath, value), null, unit).split('\n').join(eol) + eol;
  }
  const tree = parseTree(text, [], PARSE);
  // Not a config object (or only comments): unchanged, and clients-edit.ts refuses the edit.
  if (tree?.type !== 'object') return text;
  let node: Node = tree;
  for (let depth = 0; depth < keyPath.length; depth++) {
    const child = findNodeAtLocation(node, [keyPath[depth]!]);
    if (!child)
      return insertProperty(
        text,
        node,
        keyPath[depth]!,
        nest(keyPath.slice(depth + 1), value),
        unit,
      );
    if (depth === keyPath.length - 1 || child.type !== 'object') {
      // Replace the value where it stands, unfolded from the indentation of the line it starts on.
      const eol = eolAt(text, child.offset);
      const indent = indentOf(text, child.offset);
      const body = JSON.stringify(nest(keyPath.slice(depth + 1), value), null, unit)
        .split('\n')
        .join(eol + indent);
      return applyEdits(text, [{ offset: child.offset, length: child.length, content: body }]);
    }
    node = child;
  }
  return text;
}

/** Inserts `"key": value` as the last property of `obj`, on a line of its own, indented like its siblings. */
function insertProperty(
  text: string,
  obj: Node,
  key: string,
  value: unknown,
  unit: string,
): string {
  const props = obj.children ?? [];
  const last = props[props.length - 1];
  const edits: Edit[] = [];
  let at: number;
  let indent: string;
  let closeOnOwnLine = false;
  let comma = false;
  if (last) {
    const end = last.offset + last.length;
    const trailing = new RegExp(`^${GAP},`).exec(text.slice(end));
    if (trailing) at = end + trailing[0].length;
    else {
      at = end;
      edits.push({ offset: end, length: 0, content: ',' });
    }
    comma = trailing !== null; // keep the user's trailing-comma style
    // A property that starts its line sets the indentation; one sharing `{`'s line, its object's + 1.
    const ownLine = /^[ \t]*$/.test(text.slice(lineStart(text, last.offset), last.offset));
    indent = ownLine ? indentOf(text, last.offset) : indentOf(text, obj.offset) + unit;
  } else {
    at = obj.offset + 1;
    indent = indentOf(text, obj.offset) + unit;
    // `{}` or `{ }`: the closing brace moves to a line of its own.
    closeOnOwnLine = /^[ \t]*\}/.test(text.slice(at));
  }
  // Past a comment that ends the line ("x": 1 // note), so the comment stays with its entry.
  const rest = LINE_REST.exec(text.slice(at));
  if (rest) at += rest[0].length;
  const eol = eolAt(text, at);
  const body = JSON.stringify(value, null, unit)
    .split('\n')
    .join(eol + indent);
  const close = closeOnOwnLine ? eol + indentOf(text, obj.offset) : '';
  const entry = `${eol}${indent}${JSON.stringify(key)}: ${body}${comma ? ',' : ''}${close}`;
  edits.push({ offset: at, length: 0, content: entry });
  return applyEdits(text, edits);
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
  const comma = new RegExp(`^${GAP.replace('\\s', '[ \\t]')},`).exec(text.slice(end));
  if (comma) end += comma[0].length;
  else {
    // The last property: drop the comma after the one before it instead (past comments between).
    const siblings = prop.parent?.children ?? [];
    const prev = siblings[siblings.indexOf(prop) - 1];
    if (prev) {
      const prevEnd = prev.offset + prev.length;
      const m = new RegExp(`^${GAP},`).exec(text.slice(prevEnd));
      if (m) {
        const trail = LINE_REST.exec(text.slice(end));
        return {
          offset: prevEnd + m[0].length - 1,
          length: end + (trail?.[0].length ?? 0) - (prevEnd + m[0].length - 1),
          content: '',
        };
      }
    }
  }
  // On a line of its own: take the whole line(s), its indentation and a trailing comment included.
  const ls = lineStart(text, start);
  const rest = /^[ \t]*(\/\/[^\r\n]*)?\r?\n/.exec(text.slice(end));
  if (/^[ \t]*$/.test(text.slice(ls, start)) && rest) {
    start = ls;
    end += rest[0].length;
  }
  return { offset: start, length: end - start, content: '' };
}
