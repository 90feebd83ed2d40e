import { addressParser } from 'postal-mime';
import { isFileNameKey, isGenericLink, roleOfPath, wordsOfKey } from './destination-words.js';
import { canonicalAddress, canonicalHost, hostOfAddress, siteOf, unveil } from './identity.js';
import { encodedArgumentTexts, namesDestination, type EncodedText } from './encoded-arguments.js';
import { isIpKey, paddedIPv4Read } from './ip-hosts.js';
import { schemaSaysDestination } from './schema-formats.js';
import { extractValues, leavesOf, type Leaf, type SignificantValue } from './values.js';

/**
 * Where a tool call sends something (issue 30): the destinations of a call,
 * found by meaning rather than by a few exact field names —
 *
 * 1. the tool's own JSON Schema: a value whose schema has `format: email`,
 *    `uri`, `hostname`, … (schema-formats.ts);
 * 2. the argument's name, split into words and judged by its head word
 *    (destination-words.ts): `to`, `add_attendees`, `recipient_email`,
 *    `webhookUrl`, `notify.list[0].addr`; a content field (`body`,
 *    `email_body`, `description`) is never a destination by its name;
 * 3. the value's shape, for names that say nothing (`value`, `x`, array
 *    items): a string that is only addresses or links (with display names),
 *    or only a host or a phone number.
 *
 * Addresses in a destination are read with postal-mime's addressParser — the
 * parser gmail_send's composer uses — and, for what a parser does not take
 * (`billing%40evil.example`, a full-width `＠`), the value scanner; every
 * value is keyed by identity.ts.
 *
 * Any string of the call, whatever its field, may also carry a destination encoded (base64, hex,
 * base32 of a link or an address: encoded-arguments.ts), read as its decoded text is read.
 * Exported for the approvals' grants, which
 * speak of "the destinations of a call" too.
 */

export interface CallDestination {
  kind: 'address' | 'url' | 'host' | 'phone';
  /** The key (identity.ts): canonical address, URL key, host without www, digits. */
  value: string;
  /** The host it reaches ('' for a phone). */
  host: string;
  /** As written in the arguments, for the card. */
  raw: string;
  /** Where in the arguments ("to[0]", "notify.list[1].addr"). */
  path: string;
  /**
   * `shown`: written where others will follow it (CallContent.shows), in any field; `encoded`:
   * decoded out of an encoded token in any field (encoded-arguments.ts).
   */
  why: 'schema' | 'name' | 'shape' | 'shown' | 'encoded';
  /** How an `encoded` destination was written ("base64", "hex inside base64"). */
  encoded?: string;
  /** A link in a field named only "url"/"link": where the call sends, or only what it records. */
  generic?: boolean;
}

/** Longest string judged by its shape alone: a destination list, not a paragraph. */
const SHAPE_MAX_CHARS = 600;

/** Values of a string: extractValues, or a memo of it shared by one check's steps. */
export type Extract = (text: string) => SignificantValue[];

export function destinationsOf(
  args: Record<string, unknown>,
  schema?: Record<string, unknown>,
  leaves: Leaf[] = leavesOf(args),
  extract: Extract = extractValues,
  /** The tool is Airlock's own: its schema's and its fields' word on files is taken. */
  ownTool = false,
  /**
   * The call's encoded texts, read once for both rules (encodedArgumentTexts with `every`, as
   * the check reads them when the private-data rule will want them too); read here otherwise.
   */
  encoded: readonly EncodedText[] = encodedArgumentTexts(leaves, schema, ownTool),
): CallDestination[] {
  const out: CallDestination[] = [];
  const seen = new Map<string, CallDestination>();
  const work = [...leaves];
  for (let i = 0; i < work.length && i < 2000; i++) {
    const leaf = work[i]!;
    if (typeof leaf.value !== 'string' || !leaf.value) continue;
    let why: CallDestination['why'] | null = null;
    if (!leaf.path.includes('(query)') && schemaSaysDestination(schema, leaf.path)) why = 'schema';
    else {
      const role = roleOfPath(leaf.path);
      if (role === 'destination') why = 'name';
      else if (role === 'neutral' && leaf.value.length <= SHAPE_MAX_CHARS) why = 'shape';
      // A file's name is content, but a "filename" with a scheme is where a tool writes.
      else if (
        role === 'content' &&
        leaf.value.length <= SHAPE_MAX_CHARS &&
        leaf.value.includes('://') &&
        isFileNameKey(leaf.path)
      )
        why = 'shape';
    }
    if (!why) continue;
    const found = valuesOf(leaf.value, why === 'shape', extract);
    const ip = ipHostAlone(leaf.value, leaf.path, why);
    if (ip && !found.some((f) => f.kind === 'host' && f.value === ip))
      found.push({ kind: 'host', value: ip, host: ip, raw: leaf.value.trim() });
    if (found.length > 0) found.push(...paddedDecimalHosts(leaf.value, found, extract));
    const path = pathText(leaf.path);
    for (const d of found) {
      const key = `${d.kind}:${d.value}`;
      const generic = d.kind === 'url' && isGenericLink(leaf.path);
      const kept = seen.get(key);
      if (kept) {
        // One destination however many fields name it, but judged by its strictest field: the
        // same link under "url" and under "webhook" is where a passive tool sends, whichever
        // field the agent wrote first (the first field's `generic` alone let a stranger's link
        // through rule 1 by the order of the arguments).
        if (kept.generic && !generic) delete kept.generic;
        continue;
      }
      const dest: CallDestination = { ...d, path, why, ...(generic ? { generic } : {}) };
      seen.set(key, dest);
      out.push(dest);
      // A link's query names more destinations (`…/send?to=billing%40evil.example`).
      if (d.kind === 'url') work.push(...queryLeaves(d.raw, leaf.path));
    }
  }
  // Destinations carried encoded, in any field (a shell command's base64, a note's hex): each
  // judged as the same destination written plainly would be; one written plainly is that one.
  for (const e of encoded) {
    if (!namesDestination(e.text)) continue;
    for (const d of valuesOf(e.text, false, extract)) {
      const key = `${d.kind}:${d.value}`;
      if (seen.has(key)) continue;
      const dest: CallDestination = {
        ...d,
        path: pathText(e.leaf.path),
        why: 'encoded',
        encoded: e.how,
      };
      seen.set(key, dest);
      out.push(dest);
    }
  }
  return out;
}

/** A destination as the card names it: an encoded one says how it was written. */
export function destinationText(d: CallDestination): string {
  return d.encoded ? `${d.raw} (${d.encoded} in the call's arguments)` : d.raw;
}

/**
 * Every destination written anywhere in content others will see and follow (an event's
 * description, place, attachments: CallContent.shows): each string read whole, as a destination
 * field is read — by the same scanner and keys, so any spelling the readings decode is read
 * here as there — whatever its field is called, and a link's query too.
 */
export function shownDestinationsOf(
  shows: Record<string, unknown>,
  extract: Extract = extractValues,
): CallDestination[] {
  const out = new Map<string, CallDestination>();
  const work = leavesOf(shows);
  for (let i = 0; i < work.length && i < 2000; i++) {
    const leaf = work[i]!;
    if (typeof leaf.value !== 'string' || !leaf.value) continue;
    for (const d of valuesOf(leaf.value, false, extract)) {
      const key = `${d.kind}:${d.value}`;
      if (out.has(key)) continue;
      out.set(key, { ...d, path: pathText(leaf.path), why: 'shown' });
      if (d.kind === 'url') work.push(...queryLeaves(d.raw, leaf.path));
    }
  }
  return [...out.values()];
}

function queryLeaves(raw: string, path: readonly (string | number)[]): Leaf[] {
  const q = raw.indexOf('?');
  if (q < 0) return [];
  const out: Leaf[] = [];
  for (const [k, v] of new URLSearchParams(raw.slice(q + 1).split('#')[0]))
    if (v) out.push({ path: [...path, '(query)', k], value: v });
  return out;
}

type Found = Omit<CallDestination, 'path' | 'why'>;

// An address with nothing around it (no name, quotes, brackets or separators).
const PLAIN_ADDRESS = /^[^@\s<>"(),;:[\]\\]+@[^@\s<>"(),;:[\]\\]+$/;

/** The destinations in one value; with `shapeOnly`, none unless the value is nothing else. */
function valuesOf(text: string, shapeOnly: boolean, extract: Extract): Found[] {
  const found: Found[] = [];
  const covered = new Set<string>();
  const push = (f: Found) => {
    if (!found.some((x) => x.kind === f.kind && x.value === f.value)) found.push(f);
  };
  const values = extract(text);
  // A plain address needs no parser only when the scanner's match is all of it: then the two read
  // it the same. The scanner's local part is narrower than RFC 5322's atext (no "'", "=", "!",
  // "/", "&", …): of "x=ceo@bank.example" it reads ceo@bank.example, a known party say, while
  // the composer sends to x=ceo@bank.example. Then the parser reads the value too, and both
  // readings are judged.
  const readWhole =
    PLAIN_ADDRESS.test(text) && values.some((v) => v.kind === 'email' && v.raw === text);
  // The composer's parser first: quoted local parts, display names, groups.
  if (text.includes('@') && !/^\s*https?:/i.test(text) && !readWhole) {
    for (const box of addressParser(text, { flatten: true })) {
      const value = box.address ? canonicalAddress(box.address) : '';
      if (!value) continue;
      push({ kind: 'address', value, host: hostOfAddress(value), raw: box.address! });
      covered.add(siteOf(hostOfAddress(value)));
    }
  }
  for (const v of values) {
    if (v.kind === 'email') {
      push({ kind: 'address', value: v.value, host: hostOfAddress(v.value), raw: v.raw });
      covered.add(siteOf(hostOfAddress(v.value)));
    } else if (v.kind === 'url') {
      const host = hostOfUrlKey(v.value);
      push({ kind: 'url', value: v.value, host, raw: v.raw });
      covered.add(host);
    }
  }
  for (const v of values) {
    if (v.kind === 'domain' && !covered.has(v.value))
      push({ kind: 'host', value: v.value, host: v.value, raw: v.raw });
    else if (v.kind === 'phone') push({ kind: 'phone', value: v.value, host: '', raw: v.raw });
  }
  if (!shapeOnly || found.length === 0) return found;
  return isOnly(text, found) ? found : [];
}

/**
 * Whether a value is only destinations: what is left after removing them, `mailto:`, brackets
 * and separators is at most a display name (three words) per destination.
 */
function isOnly(text: string, found: Found[]): boolean {
  // A value that is one link (tabs or line breaks inside it too: link-text.ts) is only that.
  if (found.some((f) => f.kind === 'url' && f.raw === text.trim())) return true;
  let rest = unveil(text);
  for (const f of found) rest = rest.split(f.raw).join(' ');
  rest = rest.replace(/mailto:|tel:|[<>"'()[\],;:|]/gi, ' ');
  const words = rest.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length <= 3 * found.length;
}

/** The host (without www) of a URL key (values.ts urlKey: `scheme://host[:port]/…`). */
function hostOfUrlKey(key: string): string {
  const start = key.indexOf('//') + 2;
  // An IPv6 host is bracketed and full of ':' (`http://[2001:db8::1]:8080/`): it ends at `]`.
  if (key[start] === '[') return key.slice(start, key.indexOf(']', start) + 1);
  let end = start;
  while (end < key.length && key[end] !== '/' && key[end] !== ':' && key[end] !== '?') end++;
  return siteOf(key.slice(start, end));
}

// Field names that say the value is a machine to connect to (`host`, `server_ip`, `proxy`).
const HOST_WORDS = new Set(
  'host hosts hostname hostnames ip ips ipv server servers proxy peer upstream remote endpoint relay'.split(
    ' ',
  ),
);

/**
 * The field's own name ends in a host word (`host`, `server_ip`, `hosts[2]`, `ip_address`):
 * `server_id` and `proxy_port` hold numbers that are no host.
 */
function namesHost(path: readonly (string | number)[]): boolean {
  const key = path.findLast((k): k is string => typeof k === 'string');
  const words = key === undefined ? [] : wordsOfKey(key);
  const last = words.at(-1);
  if (last === undefined) return false;
  return HOST_WORDS.has(last) || ((last === 'address' || last === 'addr') && words.includes('ip'));
}

/**
 * An IP host given alone in a spelling the text scan does not read as one: one number
 * (`3405803853`), hex (`0xcb00714d`), fewer parts (`127.1`), IPv6 without brackets
 * (`::ffff:cb00:714d`), ideographic dots (`203。0。113。77`). Node's net/http (getaddrinfo) and
 * WHATWG URL connect to the IPv4 address these spell, so it is that host (ip-hosts.ts keys it):
 * a mail's `203.0.113.77` and a call's `{ host: "3405803853" }` are one destination. A value
 * of digits and dots alone is a phone number or a version as often: it is read so only where
 * the schema or a host word in the field's name says it is a host; hex and IPv6 spellings are
 * no phone number, and are read in any field that is a destination by its name.
 */
function ipHostAlone(
  value: string,
  path: readonly (string | number)[],
  why: CallDestination['why'],
): string | undefined {
  const v = value.trim();
  if (!v || v.length > 64 || !/\d/.test(v)) return undefined;
  const host = canonicalHost(v);
  if (!host || !isIpKey(host)) return undefined;
  if (why === 'schema') return host;
  if (namesHost(path)) return host;
  return why === 'name' && !/^[\d\s.()+-]+$/.test(v) ? host : undefined;
}

/**
 * A zero-padded IPv4 address in a call (`http://203.000.113.077/`) is ambiguous: octal to WHATWG
 * and inet_aton (`203.0.113.63`), decimal to a parser that reads it as a person does
 * (`203.0.113.77`), rejected by others (Go, Python's `ipaddress`). A third-party server's stack
 * is unknown, so both are its hosts, as both are keys of a stranger's padded address
 * (readings.ts): a mail's `203.0.113.77` retyped padded otherwise named no host the mail gave.
 */
function paddedDecimalHosts(value: string, found: Found[], extract: Extract): Found[] {
  const read = paddedIPv4Read(value);
  if (read === value) return [];
  const out: Found[] = [];
  for (const v of extract(read))
    if (v.kind === 'domain' && isIpKey(v.value) && !found.some((f) => f.host === v.value))
      out.push({ kind: 'host', value: v.value, host: v.value, raw: value.trim() });
  return out;
}

function pathText(path: readonly (string | number)[]): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s ? `.${p}` : p;
  return s || '(value)';
}

/**
 * The destinations of a call as the user's circle records them (known-parties.ts): addresses,
 * and hosts (of links and domains; phones as `tel:<digits>`). Learned from calls the user approved.
 */
export function circleKeysOf(
  args: Record<string, unknown>,
  schema?: Record<string, unknown>,
): { kind: 'address' | 'host'; value: string }[] {
  // Where the call sends, not what it carries encoded (a base64 blob in a note's text): a
  // destination written plainly in a body is not learned either.
  return destinationsOf(args, schema)
    .filter((d) => d.why !== 'encoded')
    .map((d) =>
      d.kind === 'address'
        ? { kind: 'address', value: d.value }
        : d.kind === 'phone'
          ? { kind: 'host', value: `tel:${d.value}` }
          : { kind: 'host', value: d.host },
    );
}
