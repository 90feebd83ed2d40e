import { domainToASCII } from 'node:url';
import { ipHostKey, isIpKey } from './ip-hosts.js';

/**
 * One normalisation of who and where (issue 30), used by the user's circle
 * (known-parties.ts), the content index and the check alike, so that the
 * same mailbox or host always has the same key wherever it was seen:
 *
 * - text is unveiled first (unveil): invisible characters removed, NFKC
 *   (full-width `＠` and letters become ASCII), `%40`, `&#64;`, `&commat;`
 *   and bracketed `[at]`/`[dot]` decoded;
 * - hosts: lower case, no trailing dot, IDN as punycode (WHATWG's
 *   domainToASCII, the same algorithm `new URL()` and fetch use); an IP
 *   address as the network stack reaches it (ip-hosts.ts): IPv4 in any
 *   spelling WHATWG accepts as dotted decimal (`3405803853`, `0xcb00714d`
 *   → `203.0.113.77`), IPv6 as WHATWG serialises it, an IPv4-mapped one as
 *   its IPv4 address;
 * - addresses: host as above, local part lower case without quotes and
 *   without a `+tag` (sub-addressing, RFC 5233; Gmail, Outlook, iCloud,
 *   Fastmail, Proton deliver `a+x@` to `a@`), and the provider's own rules:
 *   Gmail ignores dots, and googlemail.com is gmail.com.
 */

/** Zero-width, soft hyphen, bidi controls, word joiner, BOM, variation selectors, tag characters. */
const INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class -- invisible code points listed one by one; none is meant to combine
  /[\u00AD\u061C\u115F\u1160\u17B4\u17B5\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0]|[\u034F\u180B-\u180F\uFE00-\uFE0F]|[\u{E0000}-\u{E007F}]/gu;
const ENTITY =
  /&(?:#(\d{2,5})|#x([0-9a-f]{2,4})|(commat|period|amp|nbsp|hyphen|dash|lowbar|plus|colon|sol));?/gi;
const NAMED: Record<string, string> = {
  commat: '@',
  period: '.',
  amp: '&',
  nbsp: ' ',
  hyphen: '-',
  dash: '-',
  lowbar: '_',
  plus: '+',
  colon: ':',
  sol: '/',
};
// Only the characters addresses and hosts are made of: decoding every %XX would turn a URL's
// encoded query into other text.
const PERCENT = /%(40|2e|2d|5f|2b|3a|2f)/gi;
const BRACKETED_AT = /\s*[[({<]\s*(?:at|@)\s*[\])}>]\s*/gi;
const SPACED_AT = /([\p{L}\p{N}._%+-])[ \t]+@[ \t]+(?=[\p{L}\p{N}-]+\.)/gu;
const BRACKETED_DOT = /\s*[[({<]\s*(?:dot|\.)\s*[\])}>]\s*/gi;

/**
 * Text as a reader sees it: what a mail client or browser renders as `billing@evil.example`
 * becomes that string. Cheap when there is nothing to decode (every step is guarded).
 */
export function unveil(text: string): string {
  let t = text;
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7F]/.test(t)) t = t.normalize('NFKC').replace(INVISIBLE, '');
  if (t.includes('&')) t = t.replace(ENTITY, entity);
  if (t.includes('%'))
    t = t.replace(PERCENT, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  if (/[[({<]\s*(?:at|dot|@|\.)\s*[\])}>]/i.test(t))
    t = t.replace(BRACKETED_AT, '@').replace(BRACKETED_DOT, '.');
  // "billing @ evil.example": spaces around the at sign, a common way to dodge scanners.
  if (/\s@\s/.test(t)) t = t.replace(SPACED_AT, '$1@');
  // Defanged links ("hxxps://") are links.
  if (/hxxp/i.test(t)) t = t.replace(/\bhxxp(s?):\/\//gi, 'http$1://');
  return t;
}

function entity(whole: string, dec?: string, hex?: string, name?: string): string {
  if (name) return NAMED[name.toLowerCase()] ?? whole;
  const code = dec ? Number(dec) : parseInt(hex ?? '', 16);
  // Printable ASCII only: other code points are not what an address is written with.
  return code >= 0x20 && code < 0x7f ? String.fromCharCode(code) : whole;
}

/**
 * A small memo for the normalisers: the same few hosts and addresses recur in every check and
 * every mail. Cleared whole when full, so it stays bounded.
 */
function memo(fn: (s: string) => string): (s: string) => string {
  const cache = new Map<string, string>();
  return (s) => {
    let v = cache.get(s);
    if (v === undefined) {
      if (cache.size >= 4096) cache.clear();
      v = fn(s);
      cache.set(s, v);
    }
    return v;
  };
}

/**
 * A host as a key: lower case, no trailing dot, punycode, an IP address as it is reached
 * (ip-hosts.ts); '' when it is not a host.
 */
export const canonicalHost = memo(hostKey);

function hostKey(host: string): string {
  let h = host.trim().replace(/\.+$/, '');
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7F]/.test(h))
    // IDNA on the name as written first — as the composer (nodemailer's normalizeDomain) and
    // fetch read it; IDNA folds case and width itself (UTS #46 §4, the mapping step). Lower-casing
    // first read "ẞ" as "ß", which IDNA keeps (a deviation) where it maps "ẞ" to "ss", and a final
    // "Σ" as "ς" (lowerAscii); NFKC first reads "ϲ" (U+03F2) as "ς" where IDNA maps it to "σ".
    // Only a name IDNA refuses as written is read otherwise: as a person sees it (NFKC,
    // invisible characters dropped), then lower-cased — IDNA refuses some capitals whose small
    // letter it takes (Georgian Asomtavruli, Cyrillic palochka "Ӏ", "Ⅎ"), and a stranger's
    // `bob@PAYPAӀ.com` retyped in lower case goes to xn--paypa-iof.com: it needs a key.
    h = readAnyway(h).replace(/\.+$/, '');
  else {
    h = h.toLowerCase();
    if (h.includes('xn--')) h = domainToASCII(h);
  }
  // After domainToASCII, as WHATWG's host parser does it: full-width digits are digits.
  return ipHostKey(h) ?? h;
}

function readAnyway(h: string): string {
  const seen = h.normalize('NFKC').replace(INVISIBLE, '');
  return (
    domainToASCII(h) ||
    domainToASCII(seen) ||
    domainToASCII(h.toLowerCase()) ||
    domainToASCII(seen.toLowerCase())
  );
}

/**
 * Lower case for ASCII letters only: what may be done to an address or a domain before IDNA reads
 * it. `toLowerCase()` maps "ẞ" to "ß" and a word-final "Σ" to "ς", which IDNA then keeps, while
 * on the text as written it maps them to "ss" and "σ" — `bob@evil-busineẞ.com` goes to
 * evil-business.com, lower-cased first it reads as another domain (hostKey).
 */
export function lowerAscii(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** An address lower-cased as mail compares it: the local part whole, the domain's ASCII letters only (lowerAscii). */
export function lowerMailbox(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0
    ? address.toLowerCase()
    : `${address.slice(0, at).toLowerCase()}@${lowerAscii(address.slice(at + 1))}`;
}

/** The host without a leading `www.`: how domains are compared. */
export function siteOf(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}

/** Domains that belong to everyone: an address there says nothing about an organisation. */
export const PUBLIC_MAIL_DOMAINS = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'hotmail.co.uk',
  'live.com',
  'msn.com',
  'yahoo.com',
  'yahoo.co.uk',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'aol.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  'mail.com',
  'yandex.ru',
  'yandex.com',
  'mail.ru',
  'qq.com',
  '163.com',
  'fastmail.com',
  'zoho.com',
  'tutanota.com',
  'hey.com',
]);

/** Providers whose mailboxes ignore dots in the local part. */
const DOTLESS = new Set(['gmail.com']);
const ALIASES: Record<string, string> = { 'googlemail.com': 'gmail.com' };

/** An address as a key ('' when it is not one): `B.i.l.l+x@GoogleMail.com.` → `bill@gmail.com`. */
export const canonicalAddress = memo(addressKey);

function addressKey(address: string): string {
  const a = address.trim();
  const at = a.lastIndexOf('@');
  if (at <= 0 || at === a.length - 1) return '';
  let host = canonicalHost(a.slice(at + 1));
  if (!host || !host.includes('.')) return '';
  host = ALIASES[host] ?? host;
  let local = a.slice(0, at);
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7F]/.test(local)) local = local.normalize('NFKC').replace(INVISIBLE, '');
  local = local.toLowerCase();
  if (local.startsWith('"') && local.endsWith('"') && local.length > 1) local = local.slice(1, -1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (DOTLESS.has(host)) local = local.replace(/\./g, '');
  return local ? `${local}@${host}` : '';
}

/** The host of a canonical address. */
export function hostOfAddress(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}

// Second-level labels under a country code that are registries, not organisations (co.uk,
// com.au, ac.jp, …). No public-suffix list ships with Node; this covers the common ones.
const REGISTRY_LABELS = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'ne', 'or', 'go']);

/**
 * The host and its parent domains that can belong to one organisation, nearest first:
 * `mail.billing.evil.example` → itself, `billing.evil.example`, `evil.example`. Never a bare
 * top-level domain or a registry suffix such as `co.uk`.
 */
export function hostAndParents(host: string): string[] {
  let hit = parents.get(host);
  if (!hit) {
    if (parents.size >= 4096) parents.clear();
    hit = parentsOf(host);
    parents.set(host, hit);
  }
  return hit;
}
const parents = new Map<string, string[]>();

function parentsOf(host: string): string[] {
  // An IP address has no parent domains: 203.0.113.77 and 198.51.113.77 share no owner.
  if (isIpKey(host)) return [host];
  const labels = siteOf(host).split('.');
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) {
    const rest = labels.slice(i);
    if (rest.length === 2 && REGISTRY_LABELS.has(rest[0]!) && rest[1]!.length === 2) break;
    out.push(rest.join('.'));
  }
  return out;
}

/** The organisation's domain of a host (its shortest parent that is not a registry suffix). */
export function organisationOf(host: string): string {
  return hostAndParents(host).at(-1) ?? host;
}

/** A host that is `domain` or one of its sub-domains. */
export function withinDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * A host in the organisation of an author's (canonical) address: the author's organisation's
 * domain or one of its sub-domains (`billing.vendor.example` for `ann@mail.vendor.example`). Never
 * for an author at a public provider: gmail.com is everyone's, no organisation (an author there
 * is only their own mailbox). One definition for who is a party to a stranger's content
 * (parties.ts) and which of a mail's Reply-To addresses are its sender's (content-describer.ts).
 */
export function inOrganisationOf(host: string, author: string): boolean {
  const h = hostOfAddress(author);
  return !PUBLIC_MAIL_DOMAINS.has(h) && withinDomain(host, organisationOf(h));
}
