import { readDomain } from '../../approvals/addresses.js';
import { lowerAscii } from '../../provenance/identity.js';
import { InputError } from './errors.js';

/**
 * Typed readers for tool arguments. The pipeline validates against the input
 * schema first; these checks keep call() safe when it is reached another way
 * (tests, edited approvals) and give the same clear messages.
 */
export type Args = Record<string, unknown>;

export function optString(args: Args, key: string): string | undefined {
  const v = args[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new InputError(`${key} must be a string.`);
  return v;
}

/**
 * The calendar a call names, as every Calendar tool reads it: absent or empty is "primary". The
 * checks' read of an event (event-guests.ts) uses this same reader as the write it guards, so an
 * argument the two read differently (calendar_id "") cannot leave the write unread and unbound.
 */
export function calendarIdOf(args: Args): string {
  return optString(args, 'calendar_id') ?? 'primary';
}

export function reqString(args: Args, key: string): string {
  const v = optString(args, key);
  if (v === undefined) throw new InputError(`${key} is required.`);
  return v;
}

export function optNumber(args: Args, key: string, min: number, max: number): number | undefined {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    throw new InputError(`${key} must be a number from ${min} to ${max}.`);
  }
  return v;
}

export function optBool(args: Args, key: string): boolean | undefined {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new InputError(`${key} must be true or false.`);
  return v;
}

export function optStrings(args: Args, key: string): string[] | undefined {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || list.some((x) => typeof x !== 'string' || !x.trim())) {
    throw new InputError(`${key} must be a list of non-empty strings.`);
  }
  return [...new Set((list as string[]).map((x) => x.trim()))];
}

export function optEnum<T extends string>(
  args: Args,
  key: string,
  values: readonly T[],
): T | undefined {
  const v = optString(args, key);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v))
    throw new InputError(`${key} must be one of: ${values.join(', ')}.`);
  return v as T;
}

/**
 * A bare address ("bob@example.com"); display names are not accepted, so nothing is guessed. A
 * guest goes to Google with its local part lower-cased and its domain as readDomain reads it
 * (IDNA ASCII: emails below), and a grant reads its domain with readDomain
 * (main/approvals/addresses.ts, inDomain), as the taint check does (destinations.ts,
 * canonicalHost): so the domain is taken only when readDomain reads all of it, label for label —
 * dot-separated labels of letters, digits, marks, hyphens and underscores (IDN letters allowed;
 * "_" as DNS allows it, `x@my_team.example.com`, but not in the last label: no top-level domain
 * has one, and the taint check's scanner (values.ts) ends a host before it, as Markdown's
 * `_x@evil.example_` needs). The URL host parser stops at "/", "?", "#" or
 * "\" ("x@example.com/.evil.test" read as example.com names a domain under evil.test), decodes
 * "%41", and reads `0x7f.1` as 127.0.0.1: a label holds none of these. What is left is IDNA's
 * mapping (case, width, ignored code points), which DNS applies too; a mapping that splits a
 * label ("⒈" is "1.") or empties one (a lone variation selector) is refused.
 */
const EMAIL = /^[^\s@<>(),;:"]+@((?:[\p{L}\p{N}\p{M}_-]+\.)+[\p{L}\p{N}\p{M}-]+)$/u;

// An IPv4 address, as the URL host parser writes one: a name whose last label is a number is read
// as one (RFC 5321 writes an address literal in brackets; no mail domain ends in a number).
const IPV4 = /^\d+\.\d+\.\d+\.\d+$/;

/** `address` is one the Calendar tools take as a guest (EMAIL above). */
export function isGuestAddress(address: string): boolean {
  const domain = EMAIL.exec(address)?.[1];
  if (domain === undefined) return false;
  const read = readDomain(domain);
  const labels = read.split('.');
  return (
    read !== '' &&
    !IPV4.test(read) &&
    labels.length === domain.split('.').length &&
    !labels.includes('')
  );
}

export function emails(list: string[] | undefined, key: string): string[] | undefined {
  if (!list) return undefined;
  for (const e of list)
    if (!isGuestAddress(e))
      throw new InputError(
        `${key}: "${e}" is not an e-mail address (give bare addresses like bob@example.com).`,
      );
  return [...new Set(list.map(guestKey))];
}

/**
 * A guest as Airlock sends it and compares it: the local part lower-cased, the domain as IDNA
 * reads it (readDomain: punycode for a name that is not ASCII), so that what the grant and the
 * taint check read is what Google gets whatever IDNA Google applies — lower-cased as written,
 * `bob@STRAẞE.de` went as bob@straße.de, a domain other than the strasse.de both checks read
 * (IDNA maps "ẞ" to "ss", keeps "ß"). Google's stored guests are compared in the same form, so a
 * guest stored as `ann@jõgeva.ee` is the `ann@xn--jgeva-dua.ee` an update names (event-input.ts,
 * event-guests.ts). A domain IDNA cannot read keeps its ASCII letters folded only.
 */
export function guestKey(address: string): string {
  const a = address.trim();
  const at = a.lastIndexOf('@');
  if (at < 0) return a.toLowerCase();
  const domain = a.slice(at + 1);
  return `${a.slice(0, at).toLowerCase()}@${readDomain(domain) || lowerAscii(domain)}`;
}

export const SEND_UPDATES = ['all', 'externalOnly', 'none'] as const;
export type SendUpdates = (typeof SEND_UPDATES)[number];

export const SCOPES = ['this_instance', 'this_and_following', 'all'] as const;
export type SeriesScope = (typeof SCOPES)[number];
