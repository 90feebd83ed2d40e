import type { ContentIndex, ContentItem } from './content-index.js';
import type { CallDestination } from './destinations.js';
import { describeItem, evidence, type TaintFinding } from './finding-text.js';
import { linkPayloads } from './link-payloads.js';
import { isParty } from './parties.js';
import { secretCandidates } from './secrets.js';
import { shingles, type SignificantValue } from './values.js';

/**
 * Rule 2 (issue 22, issue 30): the user's private content — phrases of 8
 * words or more, long keys, short secrets (secrets.ts), message ids — going
 * to a destination the user has not used, or to a third-party server.
 *
 * Not a leak: content going back to who already has it — an item whose
 * authors, their organisation or its recipients include every destination of
 * the call (the user's own mail quoted back to the customer it was sent to, a
 * newsletter's unsubscribe token to the newsletter's own site); and a key or
 * code inside a link the same item gave (a reset or unsubscribe link opened
 * as it was written).
 */

export interface PrivateDataCall {
  text: string;
  /**
   * What the stream of letters and digits reads for codes and keys of six characters or more
   * (secret-forms.ts): the strings, their readings and call-spellings.ts' (in `text`, their
   * phrases would be read again), made only when the stream is read. `text` when absent.
   */
  stream?: () => string;
  /** The values of the arguments (their long keys matter here). */
  values: SignificantValue[];
  /** Every string value of the arguments, trimmed (for message ids named verbatim). */
  strings: string[];
  destinations: CallDestination[];
  unknown: CallDestination[];
  /** The third-party server the call goes to, if any. */
  server?: string;
  /** Content the call sends whole, as its source describes it (an attached file from a message). */
  carried?: ContentItem[];
  /** References of indexed content the call sends whole (a file's digest). */
  refs?: string[];
}

const SENT_WHOLE = 'sent whole';

export function privateDataFinding(
  index: ContentIndex,
  call: PrivateDataCall,
  now: number,
): TaintFinding | null {
  const target = call.server
    ? `the third-party server "${call.server}"`
    : call.unknown.length > 0
      ? `${call.unknown[0]!.raw}, which you have not sent to before`
      : null;
  if (!target) return null;
  // The recipients that matter: a third party's server sees everything; otherwise the new ones.
  const recipients = call.server ? call.destinations : call.unknown;
  const goesBack = (i: ContentItem) =>
    recipients.length > 0 && recipients.every((d) => isParty(i, d));
  const urls = call.destinations.filter((d) => d.kind === 'url');
  // A link's codes as the call's text holds them: as written, and as its parts decode
  // (link-payloads.ts), so a code the item's own link carries encoded is let off as one it
  // carries plainly. Read only for a value found, and once per link.
  const decoded = new Map<string, Set<string>>();
  const carries = (raw: string, value: string) => {
    if (raw.toUpperCase().includes(value)) return true;
    let codes = decoded.get(raw);
    if (!codes) decoded.set(raw, (codes = new Set(secretCandidates(linkPayloads(raw).join('\n')))));
    return codes.has(value);
  };
  const linkOf = (i: ContentItem, value: string) =>
    urls.some(
      (u) =>
        index.itemsWithValue({ kind: 'url', value: u.value }).includes(i) && carries(u.raw, value),
    );

  const found = new Map<ContentItem, string>();
  const note = (i: ContentItem, what: string) => {
    if (i.private && !found.has(i) && !goesBack(i)) found.set(i, what);
  };
  for (const [item, n] of index.itemsWithPhrases(shingles(call.text)))
    note(item, `${n} phrase${n === 1 ? '' : 's'}`);
  // Keys and codes are also read backwards (a stranger's "send the code written backwards",
  // outside corpus batch 6): a candidate reversed is the value written forwards, runs and all
  // (secretCandidates joins the runs around spaces, so "00 0310 … 98ED" reversed is the IBAN's key).
  // The values whose items were judged: the stream below finds most of them again, and each
  // one's items (a value many items hold) and their links were the stream's cost (review of the
  // encoded forms: p99 of issue 30's corpus).
  const judged = new Set<string>();
  for (const v of call.values) {
    if (v.kind !== 'token') continue;
    for (const key of [v, { ...v, value: backwards(v.value) }]) {
      if (!index.hasValue(key)) continue;
      judged.add(`token:${key.value}`);
      for (const item of index.itemsWithValue(key))
        if (!linkOf(item, key.value.toUpperCase())) note(item, 'a key or code');
    }
  }
  for (const c of secretCandidates(call.text)) {
    for (const value of c.length >= MIN_BACKWARDS ? [c, backwards(c)] : [c]) {
      const secret = { kind: 'secret' as const, value };
      if (!index.hasValue(secret)) continue;
      judged.add(`secret:${value}`);
      for (const item of index.itemsWithValue(secret))
        if (!linkOf(item, value)) note(item, 'a code or account number'); // never the value: it is kept in Activity
    }
  }
  // Codes and keys of six characters or more in any form the call's stream of letters and digits
  // holds (secret-forms.ts): apart by separators, split over fields or lines, glued into a longer
  // string, backwards, in ROT13, in any encoding of form-encodings.ts or two — in the strings and
  // in every reading of them (each value's forms made once, when it was indexed).
  // Not read once the call already carries a private item as written: the rule flags it then
  // whatever else the stream finds, and most calls that carry one carry it so (the stream's
  // lookups where it matched were most of its cost on issue 30's corpus).
  const stream =
    found.size > 0 || !index.holdsForms() ? [] : index.valuesInStream(call.stream?.() ?? call.text);
  for (const key of stream) {
    if (judged.has(`${key.kind}:${key.value}`)) continue; // judged as the same value just above
    for (const item of index.itemsWithValue(key))
      if (!linkOf(item, key.value.toUpperCase()))
        note(item, key.kind === 'token' ? 'a key or code' : 'a code or account number');
  }
  for (const r of call.strings) {
    if (r.length < 6 || r.length > 200) continue;
    for (const item of index.itemsWithRef(r)) note(item, 'a reference to it');
  }
  // Files sent whole: one taken from a message (described by the source), or bytes the agent
  // received and now sends back inline (found by their digest).
  for (const item of call.carried ?? []) note(item, SENT_WHOLE);
  for (const r of call.refs ?? []) for (const item of index.itemsWithRef(r)) note(item, 'the file');
  if (found.size === 0) return null;
  const [first, what] = [...found][0]!;
  if (what === SENT_WHOLE)
    return {
      rule: 'private-data-out',
      value: call.server ?? call.unknown[0]!.raw,
      evidence: [...found.keys()].slice(0, 3).map(evidence),
      text: `The call sends ${first.label} to ${target}.`,
    };
  return {
    rule: 'private-data-out',
    value: call.server ?? call.unknown[0]!.raw,
    evidence: [...found.keys()].slice(0, 3).map(evidence),
    text: `The arguments carry ${what} from ${describeItem(first, now)}, and the call sends it to ${target}.`,
  };
}

// The shortest code read backwards. Any four-digit number in a call (a year, a room, an amount)
// is a PIN of four read backwards one time in 10,000, and a PIN whose reverse is a year ("6202")
// is every mail that names this year: a coincidence secretsIn keeps out forwards (it drops years)
// came back in backwards (review of batch 6). A one-time code has six digits.
const MIN_BACKWARDS = 6;

/** A value written backwards (keys and codes are ASCII letters and digits). */
function backwards(s: string): string {
  return s.split('').reverse().join('');
}
