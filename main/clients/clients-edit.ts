import { isDeepStrictEqual } from 'node:util';
import { removeJsonEntries, setJsonEntry } from './edit-json.js';
import { cutTables, setTable } from './edit-toml.js';
import { BOM, isObject, parseText, serversAt, type ReadFile } from './read-config.js';

export class ClientEditError extends Error {
  override name = 'ClientEditError';
}

export interface FileEdit {
  text: string;
  changed: boolean;
  entry?: 'added' | 'updated' | 'unchanged';
  removed: string[];
}

export const AIRLOCK_ENTRY = 'airlock';

/**
 * Computes a config file's new text: Airlock's entry set (when `entry` is
 * given) and `remove` entries dropped. Nothing changes when the file already
 * says so — a second run is a no-op. The result is parsed back with a real
 * parser and compared with what was meant, key by key; any difference (an
 * entry Airlock could not locate textually, say) refuses the edit.
 */
export function editFile(
  f: ReadFile,
  o: { entry?: Record<string, unknown>; remove: string[] },
): FileEdit {
  if (f.error) throw new ClientEditError(`${f.source.path} is ${f.error}; fix it first.`);
  const keyPath = f.source.keyPath;
  const before = serversAt(f.data, keyPath);
  const remove = o.remove.filter((n) => n in before && n !== AIRLOCK_ENTRY);
  const current = before[AIRLOCK_ENTRY];
  const entryState =
    o.entry === undefined
      ? undefined
      : current === undefined
        ? 'added'
        : isDeepStrictEqual(normalize(current), normalize(o.entry))
          ? 'unchanged'
          : 'updated';
  const setEntry = entryState === 'added' || entryState === 'updated';
  if (!setEntry && remove.length === 0)
    return {
      text: f.text,
      changed: false,
      ...(entryState ? { entry: entryState } : {}),
      removed: [],
    };

  // A byte-order mark stays where it is; the editors work on the text after it (issue 28.4).
  const bom = f.text.startsWith(BOM) ? BOM : '';
  let text = f.text.slice(bom.length);
  if (f.source.format === 'json') {
    text = removeJsonEntries(text, keyPath, remove);
    if (setEntry) text = setJsonEntry(text, [...keyPath, AIRLOCK_ENTRY], o.entry);
  } else {
    for (const n of remove) text = cutTables(text, [...keyPath, n]).text;
    if (setEntry) text = setTable(text, [...keyPath, AIRLOCK_ENTRY], o.entry!);
  }
  text = bom + text;
  verify(f, text, o.entry, remove, setEntry);
  return { text, changed: true, ...(entryState ? { entry: entryState } : {}), removed: remove };
}

function verify(
  f: ReadFile,
  text: string,
  entry: Record<string, unknown> | undefined,
  remove: string[],
  setEntry: boolean,
): void {
  const after = parseText(text, f.source.format);
  const fail = (why: string) => {
    throw new ClientEditError(
      `Airlock could not edit ${f.source.path} safely (${why}); nothing was written. Edit it by hand.`,
    );
  };
  if (after.error) fail(`the result would be ${after.error}`);
  const expected = structuredClone(f.data);
  let servers: Record<string, unknown> = expected;
  for (const k of f.source.keyPath) {
    if (!isObject(servers[k])) servers[k] = {};
    servers = servers[k] as Record<string, unknown>;
  }
  for (const n of remove) delete servers[n];
  if (setEntry) servers[AIRLOCK_ENTRY] = entry;
  // TOML has no empty `[mcp_servers]` once its last table is cut: an empty servers object is none.
  const prune = (data: Record<string, unknown>) => {
    const copy = normalize(data) as Record<string, unknown>;
    const keys = f.source.keyPath;
    const parent = keys.length > 1 ? serversAt(copy, keys.slice(0, -1)) : copy;
    const last = keys[keys.length - 1]!;
    if (isObject(parent[last]) && Object.keys(parent[last]).length === 0) delete parent[last];
    return copy;
  };
  if (!isDeepStrictEqual(prune(after.data), prune(expected)))
    fail('the parsed result differs from the intended change');
}

/** TOML dates and the like compare by their JSON form. */
function normalize(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v)) as unknown;
}
