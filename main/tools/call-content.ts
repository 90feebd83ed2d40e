import type { ToolEntry } from './registry.js';
import type { CallContent } from './types.js';
import { boundedRead, PRECHECK_MS } from './precheck.js';

/**
 * What a call sends beyond its arguments (ToolSource.callContent, issue 33 item 2), read before
 * the taint check and a grant decide — or null when the source has nothing to add, is a third
 * party (its own description of its call is not trusted), is slow or fails. Null means the checks
 * see the arguments only; a source whose grant depends on the read (gmail_send_draft) then
 * reports no destinations to a grant, so the call asks.
 */
/** Whether `callContentOf` may read anything for this entry (else it answers null). */
export function mayHaveCallContent(entry: ToolEntry): boolean {
  return entry.source.callContent !== undefined && entry.source.kind !== 'remote';
}

export async function callContentOf(
  entry: ToolEntry,
  args: Record<string, unknown>,
  signal: AbortSignal,
  ms = PRECHECK_MS,
): Promise<CallContent | null> {
  if (!mayHaveCallContent(entry)) return null;
  const read = entry.source.callContent!.bind(entry.source);
  const found = signal.aborted
    ? null
    : await boundedRead((stop) => read(entry.def.name, args, stop), signal, ms);
  // A call whose reach its arguments show (a filter's forward_to) is read from them when the read
  // gave nothing: the arguments as written would make every criterion a destination, and a
  // forward a reply (ToolSource.argsReach).
  return found ?? entry.source.argsReach?.(entry.def.name, args) ?? null;
}
