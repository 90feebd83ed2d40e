import { ControlError } from '../../common/contract/index.js';

/**
 * Does `name` still name the tool of `key`, the stable key the caller saw under it (the Tools
 * page's row, the CLI's reading)? A public name can pass to another tool meanwhile: a server
 * relists its tools and a new tool whose name cleans up to the same one sorts first (naming.ts).
 * Returns the refusal (CONFLICT, nothing changed) when the name now names another tool, or the
 * key is listed under another name; undefined when it still names that tool, or when neither the
 * name nor the key is listed (left to the caller's own "No tool named …").
 *
 * One decision for the change itself (app/tool-named.ts, on the registry it writes by) and the
 * loosening gate's early refusal (gateway/loosening.ts, on listTools), so they cannot differ.
 */
export function nameMoved(
  name: string,
  key: string,
  /** The key the name names now, if any. */
  keyNamedNow: string | undefined,
  /** Is a tool of this key listed now (under any name)? */
  keyListed: (key: string) => boolean,
): ControlError | undefined {
  if (keyNamedNow === key) return undefined;
  if (keyNamedNow !== undefined)
    return new ControlError(
      'CONFLICT',
      `${name} now names another tool than the one you chose (its server's tools changed); nothing was changed. List the tools again and choose again.`,
    );
  if (keyListed(key))
    return new ControlError(
      'CONFLICT',
      `The tool you chose is no longer named ${name} (its server's tools changed); nothing was changed. List the tools again and choose again.`,
    );
  return undefined;
}

/** The refusal for a name no tool bears (the change itself and the gate's early refusal alike). */
export function noToolNamed(name: string): ControlError {
  return new ControlError(
    'NOT_FOUND',
    `No tool named "${name}". Run "airlock tools list" to see the names.`,
  );
}
