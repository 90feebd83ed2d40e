import { ControlError } from '../../common/contract/index.js';
import type { BoundArgs } from '../tools/types.js';
import { canonicalJson } from './canonical.js';

/**
 * An "Edit & Allow" decision keeps what the checks read (ToolSource.boundArgs). The card shows the
 * draft or event as the read before the checks found it, and the call is bound to that version
 * (CallContent.bind: gmail_send_draft's `message_id`, a Calendar update's or delete's etags). An
 * edit that dropped the binding would send the draft or change the event as it is by the time it
 * runs — a version the user never saw; one that named another draft or event would act on
 * something no check read. So a bound argument the edit leaves out is put back as the request
 * holds it, and any other change to a bound or naming argument is refused (nothing is decided).
 * To act on another version or another item, the user denies and the agent calls again: that call
 * is read, checked and shown afresh.
 */
export function keepBinding(
  tool: string,
  original: Record<string, unknown>,
  edited: Record<string, unknown>,
  b: BoundArgs | undefined,
): Record<string, unknown> {
  if (!b) return edited;
  const out = { ...edited };
  for (const key of b.bound)
    if (out[key] === undefined && original[key] !== undefined) out[key] = original[key];
  for (const key of [...b.bound, ...b.named]) {
    if (canonicalJson(out[key]) === canonicalJson(original[key])) continue;
    const why = b.bound.includes(key)
      ? 'Airlock fills it in with the version its checks read and the card showed'
      : 'it names what Airlock read, checked and showed on the card';
    throw new ControlError(
      'INVALID',
      `${key} cannot be edited in ${tool}: ${why}. To act on another version or item, deny this request and let the agent call again, so it is checked and shown first.`,
    );
  }
  return out;
}

/** A copy of the arguments without these keys. */
export function withoutKeys(
  args: Record<string, unknown>,
  keys: readonly string[],
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([k]) => !keys.includes(k)));
}
