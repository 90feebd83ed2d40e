/**
 * The significant values of a text, as Airlock compares them between what an
 * agent read and what it asks to do (issue 22): e-mail addresses, URLs,
 * domains, phone numbers, and long verbatim spans (as word shingles).
 *
 * Every pattern here is linear-time (no nested quantifiers over the same
 * characters), because the text comes from strangers: a mail body or a remote
 * server's result. Inputs are capped before scanning (MAX_SCAN_CHARS).
 */

export type ValueKind = 'email' | 'url' | 'domain' | 'phone' | 'token';

export interface SignificantValue {
  kind: ValueKind;
  /** Normalized: lower-case addresses and hosts, digits-only phones, URLs without fragments. */
  value: string;
  /** As it appeared, for the card ("billing@Evil.example"). */
  raw: string;
}

/** A text longer than this is scanned only up to here (mail bodies are paged at 20 k anyway). */
export const MAX_SCAN_CHARS = 200_000;
/** Words per shingle: 8 words is a phrase, not a coincidence (cf. plagiarism detectors' 5–10). */
export const SHINGLE_WORDS = 8;

const EMAIL = /[a-z0-9._%+-]{1,64}@(?:[a-z0-9-]{1,63}\.){1,8}[a-z]{2,24}/gi;
const URL_RE = /\bhttps?:\/\/[^\s<>"'`)\]}]{1,2048}/gi;
// A key, password or token: one long run of letters, digits, '_' and '-' with both letters and
// digits (API keys, reset links' codes). Checked for letters+digits after matching.
const TOKEN = /(?<![\w-])[A-Za-z0-9_-]{24,256}(?![\w-])/g;
// A phone: optional +, then 9–15 digits with common separators (E.164 allows 15 digits).
const PHONE = /(?<![\w@.])\+?\d[\d ().-]{7,22}\d(?![\w@])/g;

/** Domains that belong to everyone: an address there says nothing about an organisation. */
export const PUBLIC_MAIL_DOMAINS = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'yahoo.com',
  'icloud.com',
  'me.com',
  'proton.me',
  'protonmail.com',
  'aol.com',
  'gmx.com',
  'gmx.de',
  'web.de',
  'mail.com',
  'yandex.ru',
  'qq.com',
]);

export function normalizeEmail(s: string): string {
  return s.trim().toLowerCase();
}

export function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  return (at >= 0 ? address.slice(at + 1) : address).toLowerCase().replace(/\.$/, '');
}

/**
 * A URL without its fragment, lower-cased, and its host. Not `new URL()`: that costs
 * microseconds per link, and a comparison key needs no more than this.
 */
function normalizeUrl(raw: string): { url: string; host: string } | null {
  const trimmed = raw.replace(/[.,;:!?]+$/, '').toLowerCase();
  const hash = trimmed.indexOf('#');
  const url = hash >= 0 ? trimmed.slice(0, hash) : trimmed;
  const host = /^https?:\/\/(?:[^/?#@]*@)?([^/?#:]+)/.exec(url)?.[1];
  return host ? { url, host } : null;
}

/** Every significant value in `text` (deduplicated by kind+value). */
export function extractValues(text: string): SignificantValue[] {
  const t = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  const out = new Map<string, SignificantValue>();
  const add = (v: SignificantValue) => {
    const key = `${v.kind}:${v.value}`;
    if (!out.has(key)) out.set(key, v);
  };
  // Cheap guards first: most text has no '@' and no '://', and those scans are the costly ones.
  if (t.includes('@'))
    for (const m of t.matchAll(EMAIL)) {
      const value = normalizeEmail(m[0]);
      add({ kind: 'email', value, raw: m[0] });
      add({ kind: 'domain', value: domainOf(value), raw: domainOf(m[0]) });
    }
  if (t.includes('://'))
    for (const m of t.matchAll(URL_RE)) {
      const n = normalizeUrl(m[0]);
      if (!n) continue;
      add({ kind: 'url', value: n.url, raw: m[0] });
      add({ kind: 'domain', value: n.host.replace(/^www\./, ''), raw: n.host });
    }
  for (const m of t.matchAll(PHONE)) {
    const digits = m[0].replace(/\D/g, '');
    if (digits.length < 9 || digits.length > 15) continue;
    // Dates and times (2026-12-01 10:00) look like digit runs; a phone has no run of 4 digits
    // followed by '-' and 2 digits and '-' and 2 digits.
    if (/\d{4}-\d{2}-\d{2}/.test(m[0])) continue;
    add({ kind: 'phone', value: digits, raw: m[0].trim() });
  }
  for (const m of t.matchAll(TOKEN)) {
    if (!/\d/.test(m[0]) || !/[a-z]/i.test(m[0])) continue;
    add({ kind: 'token', value: m[0], raw: m[0] });
  }
  return [...out.values()];
}

/** Lower-case words (letters and digits) of a text, capped. */
function words(text: string): string[] {
  const t = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  return t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** FNV-1a, 32 bit: cheap, and a collision only costs a false match of one shingle. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Hashes of every SHINGLE_WORDS-word window of the text (none for shorter texts). Each word is
 * hashed once; a window's hash mixes its words' hashes in order (no string per window).
 */
export function shingles(text: string): number[] {
  const w = words(text).map(fnv1a);
  const out: number[] = [];
  for (let i = 0; i + SHINGLE_WORDS <= w.length; i++) {
    let h = 0x811c9dc5;
    for (let j = i; j < i + SHINGLE_WORDS; j++) h = Math.imul(h ^ w[j]!, 0x01000193);
    out.push(h >>> 0);
  }
  return out;
}

/** Every string inside a JSON value (arguments), with its path ("to[0]", "body"). */
export function stringsOf(
  value: unknown,
  path = '',
  out: [string, string][] = [],
): [string, string][] {
  if (out.length > 1000) return out;
  if (typeof value === 'string') out.push([path || '(value)', value]);
  else if (Array.isArray(value)) value.forEach((v, i) => stringsOf(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) stringsOf(v, path ? `${path}.${k}` : k, out);
  }
  return out;
}
