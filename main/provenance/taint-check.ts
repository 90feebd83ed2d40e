import type { ContentIndex, ContentItem } from './content-index.js';
import { isPassiveTool } from './destination-words.js';
import {
  destinationText,
  destinationsOf,
  shownDestinationsOf,
  type CallDestination,
} from './destinations.js';
import {
  describeItem,
  evidence,
  noun,
  report,
  type TaintFinding,
  type TaintReport,
} from './finding-text.js';
import type { KnownParties } from './known-parties.js';
import type { ProvenanceMetaItem } from './content-describer.js';
import { htmlReferencesDecoded } from './decodings.js';
import { encodedArgumentTexts } from './encoded-arguments.js';
import { linkPayloads } from './link-payloads.js';
import { isAddressedParty, isParty, itemsNaming, replyToNote, sentBefore } from './parties.js';
import { privateDataFinding } from './private-data-rule.js';
import { privateReadings } from './private-readings.js';
import { spelledReadings } from './call-spellings.js';
import { effectOf, instructedEffectFinding } from './instructed-effects.js';
import { isDigest } from './stranger-destinations.js';
import { extractValues, leavesOf, tokensOf, type SignificantValue } from './values.js';

export type { TaintEvidence, TaintFinding, TaintReport } from './finding-text.js';

/**
 * The taint check (issue 22, issue 30): does a call that sends data out carry
 *  1. a destination (address, link, host, phone — found by meaning,
 *     destinations.ts) that appeared in a stranger's content this agent read,
 *     as itself or as its host or a parent domain of its host, that the user
 *     has not used and that is not a party to that content (its author's
 *     organisation, its recipients: a reply is judged by rule 2 alone; of content
 *     that addresses the agent, its author alone: parties.ts isAddressedParty); or
 *  2. the user's private words, keys, short codes or message ids to a
 *     destination the user has not used, or to a third-party server
 *     (private-data-rule.ts)? Or does
 *  3. a call that destroys, hides or answers for the user (CallFacts.effect) follow a stranger's
 *     content this agent read that addresses an AI agent (instructed-effects.ts)?
 *
 * A read-only third-party tool (a fetch) given a link exactly as a stranger
 * wrote it sends nothing of the user's by the link itself: rule 2 judges it.
 * What it cannot see: values paraphrased by the model in ways no reading
 * decodes (an address built by code; spelled-out, letter-by-letter, reversed,
 * base64, escaped and other encoded forms are read as the address,
 * readings.ts and encoded-readings.ts), content read outside Airlock, and
 * phrases under 8 words.
 */
export interface CallFacts {
  tool: string;
  sourceKind: 'builtin' | 'google' | 'remote' | 'test';
  sourceLabel: string;
  readOnly: boolean;
  args: Record<string, unknown>;
  /** The tool's input schema: `format: email|uri|hostname` says where a value goes. */
  schema?: Record<string, unknown>;
  /**
   * Content the call sends whole that its arguments only name (a file taken from a message),
   * as the source describes it (ToolSource.callContent): private content going somewhere new.
   */
  carried?: ProvenanceMetaItem[];
  /** References under which the agent may have received what it sends (a file's digest). */
  refs?: string[];
  /**
   * The destinations get the user's mail from now on (a forwarding filter, CallContent.forwards):
   * a party to what the agent read is no party to that mail, so rule 1 does not let one off.
   */
  forwards?: boolean;
  /**
   * What a standing effect acts on (a filter's criteria, CallContent.selects): no destinations,
   * but judged as rule 1 judges one, so a stranger who chose them is named on the card.
   */
  selects?: Record<string, unknown>;
  /**
   * What the call puts before other people who will follow what it names (an event's place,
   * description and attachments, for its guests: CallContent.shows). Every destination in it,
   * in any field, is judged as rule 1 judges one, but a stranger's own is no party to the people
   * sent there, and a link given verbatim is no passive record: others will open it.
   */
  shows?: Record<string, unknown>;
  /**
   * What the call destroys, hides or answers for the user, in words after "This call" (trashes
   * mail, a filter that archives): declared by the tool that acts (CallContent.effect). Judged by
   * the instructed-effect rule (instructed-effects.ts).
   */
  effect?: string;
}

export function checkCall(
  index: ContentIndex,
  known: KnownParties,
  call: CallFacts,
  now: number,
  carried: ContentItem[] = [],
): TaintReport | null {
  // A read-only first-party call sends nothing out. Any call to a remote server does: its
  // arguments reach a third party.
  const thirdParty = call.sourceKind === 'remote';
  if (call.readOnly && !thirdParty) return null;
  const leaves = leavesOf(call.args);
  // A string's values are read once, however many destinations share it.
  const seen = new Map<string, SignificantValue[]>();
  const extract = (s: string) => {
    let v = seen.get(s);
    if (!v) seen.set(s, (v = extractValues(s)));
    return v;
  };
  // The call's encoded texts, read once for both rules: every one kept when rule 2 will run (it
  // only ever names private items: none held, none carried, it does not), else only those that
  // may name a destination (encoded-arguments.ts).
  const rule2 = carried.length > 0 || index.holdsPrivate();
  const encoded = encodedArgumentTexts(leaves, call.schema, !thirdParty, rule2);
  const destinations = destinationsOf(
    call.args,
    call.schema,
    leaves,
    extract,
    !thirdParty,
    encoded,
  );
  const unknown = destinations.filter((d) => !isKnown(known, d) && !sentBefore(index, d));
  const findings: TaintFinding[] = [];

  // Rule 1: a destination taken from a stranger's words. A reply to a party of the stranger's
  // content is judged by rule 2 alone; a forward of the user's future mail is not a reply; and
  // content that addresses the agent has no party but its author (parties.ts isAddressedParty).
  for (const d of unknown) {
    const items = itemsNaming(index, d);
    let untrusted = items.filter(
      (i) =>
        i.untrusted &&
        (call.forwards || !(i.addressesAgent ? isAddressedParty(i, d) : isParty(i, d))) &&
        !(thirdParty && fromServer(i, call.sourceLabel)),
    );
    // A read-only tool (a fetch), or one that only records links (a reading list), sends only
    // its link: one exactly as a stranger wrote it, or a page without a query, carries nothing of
    // the user's by itself — rule 2 judges the rest.
    if (d.kind === 'url' && (call.readOnly || (d.generic && isPassiveTool(call.tool))))
      untrusted = untrusted.filter((i) => !verbatim(index, d, i) && carriesData(d.raw));
    if (untrusted.length === 0) continue;
    const only = items.every((i) => i.untrusted);
    // The card says why a party of the content is not let off: the content spoke to the agent.
    const withdrawn = (i: ContentItem, dest: CallDestination) =>
      !call.forwards && i.addressesAgent === true && isParty(i, dest);
    findings.push({
      rule: 'untrusted-destination',
      value: d.raw,
      evidence: untrusted.slice(0, 3).map(evidence),
      text: `${noun(d)} ${destinationText(d)} appears${only ? ' only' : ''} in ${describeItem(untrusted[0]!, now)}${withdrawn(untrusted[0]!, d) ? ', which addresses an AI assistant with instructions' : ''}, and you have not sent to it before${replyToNote(untrusted[0]!, d)}${call.forwards ? '; your mail would be forwarded there from now on' : ''}.`,
    });
  }
  // What a standing effect acts on (a filter's criteria) sends nothing there; a value of it a
  // stranger gave, who is no party to it, is named as rule 1 names a destination.
  if (call.selects) findings.push(...selectorFindings(index, known, call.selects, extract, now));
  // What others will follow (an event's description or place, for its guests): a stranger's
  // link there sends them where the stranger chose, whoever's own it is — unless they are all
  // the stranger's own conversation.
  if (call.shows) {
    // Whom it shows them to: the call's addresses besides the user's own (an event's guests).
    const audience = destinations.filter(
      (d) => d.kind === 'address' && !known.isOwnAddress(d.value),
    );
    findings.push(...shownFindings(index, known, call.shows, audience, extract, now, findings));
  }

  // Rule 3: an effect with no destination, after a stranger addressed the agent.
  const instructed = instructedEffectFinding(effectOf(call), index.addressedSince(), now);
  if (instructed) findings.push(instructed);

  // Rule 2: the user's private content going to someone new (or to a third-party server). It only
  // ever names private items, so with none held and none carried there is nothing to look up
  // (issue 34: about half of a remote call's check; private-rule.property.test.ts).
  if (!rule2) return report(findings);
  const strings = leaves.map((l) => l.value);
  // The strings as a stranger may have asked for them to be written: encoded tokens decoded,
  // percent-encoding undone (private-readings.ts; a key or code backwards is the rule's own
  // reading). Only where rule 2 has somewhere to judge (a new destination, a third-party server).
  const readings =
    thirdParty || unknown.length > 0
      ? privateReadings(leaves, call.schema, !thirdParty, encoded)
      : [];
  // What the rule's stream of letters and digits reads for her codes and keys (secret-forms.ts):
  // the strings and their readings (their links' parts and HTML references decoded are forms
  // already: base64, hex as percent-encoding, decimal references), and escapes and hex spellings
  // around an encoding the index has no form for (call-spellings.ts), read only while the index
  // holds a code or key with forms (made when it was indexed). Made only when the rule reads it.
  const stream = () => {
    const plain = [...strings, ...readings].join('\n');
    const spelled = index.holdsForms() ? spelledReadings(plain) : [];
    return spelled.length > 0 ? `${plain}\n${spelled.join('\n')}` : plain;
  };
  const leak = privateDataFinding(
    index,
    {
      // Text hidden in a link's parts (percent-encoded, base64, base32, …) is text too, and so is
      // text written as HTML numeric references (`&#68;&#69;…` in an HTML body).
      // The links' bounds are the call's, not each string's (link-payloads.ts).
      text: [
        ...strings,
        ...linkPayloads(strings),
        ...strings.flatMap(entityText),
        ...readings,
      ].join('\n'),
      values: [...strings, ...readings].flatMap(tokensOf),
      stream,
      // Message ids matter where a third party could look them up; Airlock's own tools (a
      // reply's reply_to_message_id) only name them.
      strings: thirdParty ? strings.map((s) => s.trim()) : [],
      destinations,
      unknown,
      ...(thirdParty ? { server: call.sourceLabel } : {}),
      carried,
      refs: call.refs ?? [],
    },
    now,
  );
  if (leak) findings.push(leak);
  return report(findings);
}

/**
 * Values that choose which of the user's mail a standing effect acts on (a filter's `from`), read
 * as a destination would be (destinationsOf, the same names) and judged as rule 1 judges one:
 * the user's own and circle, and a stranger's own organisation, are passed over.
 */
function selectorFindings(
  index: ContentIndex,
  known: KnownParties,
  selects: Record<string, unknown>,
  extract: (s: string) => SignificantValue[],
  now: number,
): TaintFinding[] {
  const out: TaintFinding[] = [];
  for (const d of destinationsOf(selects, undefined, leavesOf(selects), extract)) {
    if (isKnown(known, d) || sentBefore(index, d)) continue;
    const untrusted = itemsNaming(index, d).filter((i) => i.untrusted && !isParty(i, d));
    if (untrusted.length === 0) continue;
    out.push({
      rule: 'untrusted-destination',
      value: d.raw,
      evidence: untrusted.slice(0, 3).map(evidence),
      text: `${noun(d)} ${destinationText(d)}, which chooses the mail this acts on from now on, appears in ${describeItem(untrusted[0]!, now)}.`,
    });
  }
  return out;
}

/**
 * Destinations written where others will follow them (CallFacts.shows), judged as rule 1 judges
 * one with no party let off for the link: the stranger's own meeting link moved into the user's
 * meeting sends her guests to the stranger. The let-off is for the people instead: shown only to
 * parties of the stranger's content (`audience`, the call's addresses but the user's), it sends
 * no one the stranger had not already written to. What the user's own content (her events and mail, not a
 * stranger's) names as itself is hers — her own Meet link read from her own event — and a host
 * her own content names too is matched only by the stranger's exact link or address, not by a
 * link of theirs on the same host (a Meet link of theirs and one of hers share meet.google.com).
 */
function shownFindings(
  index: ContentIndex,
  known: KnownParties,
  shows: Record<string, unknown>,
  audience: CallDestination[],
  extract: (s: string) => SignificantValue[],
  now: number,
  already: TaintFinding[],
): TaintFinding[] {
  const out: TaintFinding[] = [];
  const named = new Set(already.map((f) => f.value));
  for (const d of shownDestinationsOf(shows, extract)) {
    if (named.has(d.raw) || isKnown(known, d) || sentBefore(index, d)) continue;
    const items = itemsNaming(index, d);
    const exact = new Set(index.itemsWithValue(valueKeyOf(d)));
    const hers = items.filter((i) => !i.untrusted);
    if (hers.some((i) => exact.has(i))) continue;
    // A stranger who shows their own link only to their own conversation (every one the call
    // reaches is a party to their content: a vendor's Zoom link in a meeting with that vendor)
    // sends no one anywhere they were not already sent, as a reply to them is no flag.
    const untrusted = items.filter(
      (i) =>
        i.untrusted &&
        (hers.length === 0 || exact.has(i)) &&
        !(audience.length > 0 && audience.every((g) => isParty(i, g))),
    );
    if (untrusted.length === 0) continue;
    named.add(d.raw);
    out.push({
      rule: 'untrusted-destination',
      value: d.raw,
      evidence: untrusted.slice(0, 3).map(evidence),
      text: `${noun(d)} ${d.raw}, written where others will see and follow it, appears in ${describeItem(untrusted[0]!, now)}, and you have not sent to it before.`,
    });
  }
  return out;
}

/** The index key of a destination as itself (not its host's). */
function valueKeyOf(d: CallDestination): {
  kind: 'email' | 'url' | 'phone' | 'domain';
  value: string;
} {
  const kind = d.kind === 'address' ? 'email' : d.kind === 'host' ? 'domain' : d.kind;
  return { kind, value: d.value };
}

function isKnown(known: KnownParties, d: CallDestination): boolean {
  if (d.kind === 'address') return known.isKnownAddress(d.value);
  if (d.kind === 'phone') return known.isKnownHost(`tel:${d.value}`);
  return known.isKnownHost(d.host);
}

/**
 * The called server's own tool descriptions: a server names what its own tools take (its API's
 * domain, its webhook form) and receives the arguments anyway; the data going to it is rule 2's
 * concern. Its results are not exempt: a fetch server's results are any web page's words.
 */
function fromServer(i: ContentItem, server: string): boolean {
  return i.kind === 'remote' && i.tool === 'tools/list' && i.ref === server;
}

/** A link that can carry data by itself: a query, credentials, a long data-like path segment. */
function carriesData(raw: string): boolean {
  try {
    const u = new URL(raw);
    if (u.search.length > 1 || u.username !== '' || u.password !== '') return true;
    return u.pathname.split('/').some((seg) => seg.length >= 24);
  } catch {
    return true;
  }
}

/**
 * The link is exactly one the item gave (not one built on its domain). Never a digest of the
 * stranger record: it holds every link of its filter, and one filled past its capacity answers
 * "maybe" for any link, so a fetch carrying data to the stranger's host passed as verbatim
 * (stranger-digest.property.test.ts).
 */
function verbatim(index: ContentIndex, d: CallDestination, i: ContentItem): boolean {
  return !isDigest(i) && index.itemsWithValue({ kind: 'url', value: d.value }).includes(i);
}

/**
 * A string with HTML numeric references, decoded with its named ones (decodings.ts, the `entities`
 * library); none for any other string: a mail body's "&amp;" alone is not read twice.
 */
function entityText(s: string): string[] {
  if (!s.includes('&#')) return [];
  const d = htmlReferencesDecoded(s);
  return d === s ? [] : [d];
}
