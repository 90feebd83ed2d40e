import type { ContentIndex, ContentItem } from './content-index.js';
import type { KnownParties } from './known-parties.js';
import {
  extractValues,
  PUBLIC_MAIL_DOMAINS,
  shingles,
  stringsOf,
  type SignificantValue,
} from './values.js';

/**
 * The taint check (issue 22): does a call that sends data out carry
 *  1. a destination (address, URL, phone, domain) that appeared in a
 *     stranger's content this agent read, and that the user has not used; or
 *  2. the user's private words, keys or files (phrases, tokens, message ids
 *     from their mail) to a destination the user has not used, or to a
 *     third-party server?
 *
 * Replying to a stranger who wrote is not by itself suspicious (the address
 * is the message's sender); sending them the user's *other* mail is (rule 2).
 * What it cannot see: values paraphrased by the model ("billing at evil dot
 * example"), content read outside Airlock, and phrases under 8 words.
 */

export interface CallFacts {
  tool: string;
  sourceKind: 'builtin' | 'google' | 'remote' | 'test';
  sourceLabel: string;
  readOnly: boolean;
  args: Record<string, unknown>;
}

export interface TaintEvidence {
  label: string;
  kind: ContentItem['kind'];
  tool: string;
  ref?: string;
  from?: string[];
  /** ISO time the agent received it. */
  at: string;
}

export interface TaintFinding {
  rule: 'untrusted-destination' | 'private-data-out';
  /** The value in the arguments that matched (an address, a URL, …) or the destination. */
  value: string;
  evidence: TaintEvidence[];
  /** One plain sentence for the approval card and Activity. */
  text: string;
}

export interface TaintReport {
  findings: TaintFinding[];
  summary: string;
}

type Destination = SignificantValue & { known: boolean };

/**
 * Argument paths that say where a call sends something (the last key of the path, or any key
 * on it for nested recipients like `attendees[0].email`).
 */
const DESTINATION_FIELD =
  /(^|[.\]])(to|cc|bcc|recipients?|attendees?|invitees?|guests?|emails?|address(es)?|share_?with|url|uri|link|endpoint|webhook|callback|destination|target|host|domain|phone|number|forward_?to|reply_?to)(\[\d+\])?($|\.)/i;

/** The organisation domain of an address or URL (none for public mail providers). */
function orgDomain(d: SignificantValue): string | null {
  let host: string | null = null;
  if (d.kind === 'email') host = d.value.slice(d.value.lastIndexOf('@') + 1);
  else if (d.kind === 'url') host = safeHost(d.value)?.replace(/^www\./, '') ?? null;
  else if (d.kind === 'domain') host = d.value;
  if (!host || PUBLIC_MAIL_DOMAINS.has(host)) return null;
  return host;
}

export function checkCall(
  index: ContentIndex,
  known: KnownParties,
  call: CallFacts,
  now: number,
): TaintReport | null {
  // A read-only first-party call sends nothing out. Any call to a remote server does: its
  // arguments reach a third party.
  const thirdParty = call.sourceKind === 'remote';
  if (call.readOnly && !thirdParty) return null;
  const strings = stringsOf(call.args);
  const text = strings.map(([, s]) => s).join('\n');
  const values = extractValues(text);
  // Where the call sends things: recipients, attendees, URLs to fetch or post to. An address
  // mentioned in a message body to a colleague sends nothing to that address.
  const destText = strings
    .filter(([path]) => DESTINATION_FIELD.test(path))
    .map(([, s]) => s)
    .join('\n');
  const destinations = destinationsOf(extractValues(destText), known);
  const unknown = destinations.filter((d) => !d.known);
  const findings: TaintFinding[] = [];

  // Rule 1: a destination taken from a stranger's words.
  for (const d of unknown) {
    const org = orgDomain(d);
    const items = [
      ...index.itemsWithValue(d),
      ...(org ? index.itemsWithValue({ kind: 'domain', value: org }) : []),
    ].filter((i, n, all) => all.indexOf(i) === n);
    const untrusted = items.filter((i) => i.untrusted);
    if (untrusted.length === 0) continue;
    // The stranger is the sender (or of the sender's organisation): a reply, judged by rule 2.
    const isSender = (i: ContentItem) =>
      (i.from ?? []).some((f) => f === d.value || (org !== null && f.endsWith(`@${org}`)));
    const inBody = untrusted.filter((i) => !isSender(i));
    if (inBody.length === 0) continue;
    const only = items.every((i) => i.untrusted);
    findings.push({
      rule: 'untrusted-destination',
      value: d.raw,
      evidence: inBody.slice(0, 3).map((i) => evidence(i)),
      text: `${noun(d)} ${d.raw} appears${only ? ' only' : ''} in ${describe(inBody[0]!, now)}, and you have not sent to it before.`,
    });
  }

  // Rule 2: the user's private content going to someone new (or to a third-party server).
  const target = thirdParty
    ? `the third-party server "${call.sourceLabel}"`
    : unknown.length > 0
      ? `${unknown[0]!.raw}, which you have not sent to before`
      : null;
  if (target) {
    const spoken = new Set(unknown.map((d) => d.value));
    const own = (i: ContentItem) => (i.from ?? []).some((f) => spoken.has(f));
    const privateItems = new Map<ContentItem, string>();
    for (const [item, n] of index.itemsWithPhrases(shingles(text))) {
      if (item.private && !own(item)) privateItems.set(item, `${n} phrase${n === 1 ? '' : 's'}`);
    }
    for (const v of values.filter((x) => x.kind === 'token')) {
      for (const item of index.itemsWithValue(v)) {
        if (item.private && !own(item)) privateItems.set(item, 'a key or code');
      }
    }
    const refs = new Set(strings.map(([, s]) => s.trim()));
    for (const item of privateRefs(index, refs)) {
      if (!own(item)) privateItems.set(item, 'a reference to it');
    }
    if (privateItems.size > 0) {
      const [first, what] = [...privateItems][0]!;
      findings.push({
        rule: 'private-data-out',
        value: thirdParty ? call.sourceLabel : unknown[0]!.raw,
        evidence: [...privateItems.keys()].slice(0, 3).map((i) => evidence(i)),
        text: `The arguments carry ${what} from ${describe(first, now)}, and the call sends it to ${target}.`,
      });
    }
  }
  if (findings.length === 0) return null;
  return { findings, summary: findings.map((f) => f.text).join(' ') };
}

/**
 * Where a call sends things, as the user's circle records them: addresses, and hosts (of
 * links and domains; phones as `tel:<digits>`). Used to learn from calls the user approved.
 */
export function destinationsIn(args: Record<string, unknown>): {
  kind: 'address' | 'host';
  value: string;
}[] {
  const text = stringsOf(args)
    .filter(([path]) => DESTINATION_FIELD.test(path))
    .map(([, s]) => s)
    .join('\n');
  const out: { kind: 'address' | 'host'; value: string }[] = [];
  for (const v of extractValues(text)) {
    if (v.kind === 'email') out.push({ kind: 'address', value: v.value });
    else if (v.kind === 'url') {
      const host = safeHost(v.value);
      if (host) out.push({ kind: 'host', value: host.replace(/^www\./, '') });
    } else if (v.kind === 'domain') out.push({ kind: 'host', value: v.value });
    else if (v.kind === 'phone') out.push({ kind: 'host', value: `tel:${v.value}` });
  }
  return out;
}

function destinationsOf(values: SignificantValue[], known: KnownParties): Destination[] {
  const out: Destination[] = [];
  const covered = new Set<string>();
  for (const v of values) {
    if (v.kind === 'email') {
      out.push({ ...v, known: known.isKnownAddress(v.value) });
      covered.add(v.value.slice(v.value.lastIndexOf('@') + 1));
    } else if (v.kind === 'url') {
      const host = safeHost(v.value);
      out.push({ ...v, known: host ? known.isKnownHost(host) : false });
      if (host) covered.add(host.replace(/^www\./, ''));
    } else if (v.kind === 'phone') {
      out.push({ ...v, known: known.isKnownHost(`tel:${v.value}`) });
    }
  }
  for (const v of values) {
    if (v.kind === 'domain' && !covered.has(v.value)) {
      out.push({ ...v, known: known.isKnownHost(v.value) });
    }
  }
  return out;
}

/** Private items whose reference (message id, file) is named verbatim in the arguments. */
function privateRefs(index: ContentIndex, refs: Set<string>): ContentItem[] {
  const out: ContentItem[] = [];
  for (const r of refs) {
    if (r.length < 6 || r.length > 200) continue;
    for (const item of index.itemsWithRef(r)) if (item.private) out.push(item);
  }
  return out;
}

function safeHost(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

function noun(v: SignificantValue): string {
  return {
    email: 'The address',
    url: 'The link',
    domain: 'The domain',
    phone: 'The number',
    token: 'The code',
  }[v.kind];
}

function ago(at: number, now: number): string {
  const m = Math.round((now - at) / 60_000);
  if (m < 1) return 'just now';
  if (m < 60) return `${m} minute${m === 1 ? '' : 's'} ago`;
  const h = Math.round(m / 60);
  return `${h} hour${h === 1 ? '' : 's'} ago`;
}

function describe(i: ContentItem, now: number): string {
  return `${i.label} that this agent read ${ago(i.at, now)}`;
}

function evidence(i: ContentItem): TaintEvidence {
  return {
    label: i.label,
    kind: i.kind,
    tool: i.tool,
    ...(i.ref ? { ref: i.ref } : {}),
    ...(i.from ? { from: i.from } : {}),
    at: new Date(i.at).toISOString(),
  };
}
