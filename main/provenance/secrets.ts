import { MAX_SCAN_CHARS } from './values.js';

/**
 * Short secrets (issue 30): values too short to be recognised by shape alone
 * (a 6-digit bank code, a PIN) that the user's private content itself calls
 * a code, PIN, OTP or password, and bank identifiers that carry their own
 * check digits (IBAN, card numbers) or that the content calls an account,
 * routing or sort code number. Found in private content when it is indexed;
 * an outgoing call is searched for them (secretCandidates), so a code from a
 * bank's mail going to a phisher's URL is private data going out.
 *
 * A secret's key is its letters and digits, upper case ("DE89 3704…" →
 * "DE893704…"); a code written with a prefix ("G-482913") is also keyed by its
 * digits alone, which is how it is typed back.
 */

// Words that name a secret code. "code" alone counts unless a word before it says it is public
// (zip code, promo code, error code, …).
const NAMED_CODE =
  /\b(?:(zip|postal|post|area|country|promo|promotion|discount|coupon|voucher|error|status|exit|source|tracking|order|product|item|colou?r|dress|qr|bar|html|language|currency|airport|station|style|dial|region|zone|sku|ref|reference|class|course)[ -])?(codes?|pins?|otps?|passcodes?|passwords?|passwort|kennwort|mot de passe|tans?|cvv|cvc|one[- ]time pass\w*|2fa|mfa)\b/gi;
const NAMED_ACCOUNT =
  /\b(account(?: number| no\.?| nr\.?| #)?|acct(?: no\.?)?|routing(?: number)?|aba|sort code|swift|bic|iban|bsb|transit number|member(?:ship)? number|customer number|policy number|ssn|social security number|tax id|passport number)\b/gi;
// A code near such a word: 4–16 letters and digits (hyphens inside), with at least 3 digits.
const CODE = /(?<![\w-])[A-Za-z0-9](?:[A-Za-z0-9-]{2,18})[A-Za-z0-9](?![\w-])/g;
// An account number: digits (spaces and hyphens between), after at most a short letter prefix.
const ACCOUNT = /(?<![\w-])[A-Z]{0,4}\d[\d -]{3,36}\d(?![\w-])/g;
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;
const CARD = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g;

const WINDOW = 48;

export interface ShortSecret {
  value: string;
  raw: string;
}

const norm = (s: string) => s.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
const digits = (s: string) => s.replace(/\D/g, '').length;

/** Short secrets in (private) content, each keyed as described above. */
export function secretsIn(text: string): ShortSecret[] {
  const t = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  const out = new Map<string, ShortSecret>();
  const add = (raw: string) => {
    const value = norm(raw);
    if (value.length < 4 || value.length > 34) return;
    if (!out.has(value)) out.set(value, { value, raw });
    // "G-482913" is typed back as "482913".
    const core = raw.match(/\d{4,}/g);
    if (core?.length === 1 && core[0] !== value && !out.has(core[0]))
      out.set(core[0], { value: core[0], raw });
  };
  if (!/\d/.test(t)) return [];
  for (const m of t.matchAll(NAMED_CODE)) {
    if (m[1]) continue; // a public code
    for (const c of near(t, m.index, m[0].length, CODE)) {
      const n = norm(c);
      if (digits(n) < 3 || digits(n) * 2 < n.length) continue;
      if (/^(19|20)\d\d$/.test(n) || /\d{4}-\d\d-\d\d/.test(c)) continue; // a year, a date
      add(c);
    }
  }
  for (const m of t.matchAll(NAMED_ACCOUNT)) {
    for (const c of near(t, m.index, m[0].length, ACCOUNT)) {
      if (digits(c) >= 6) add(c.trim());
    }
  }
  for (const m of t.matchAll(IBAN)) if (ibanValid(norm(m[0]))) add(m[0]);
  for (const m of t.matchAll(CARD)) if (luhnValid(norm(m[0]))) add(m[0]);
  return [...out.values()];
}

/** Matches of `re` within WINDOW characters either side of a keyword. */
function near(t: string, at: number, len: number, re: RegExp): string[] {
  const from = Math.max(0, at - WINDOW);
  const window = t.slice(from, at + len + WINDOW);
  return [...window.matchAll(re)].map((m) => m[0]);
}

/** ISO 13616: move the first four characters to the end, letters to numbers, mod 97 = 1. */
export function ibanValid(s: string): boolean {
  if (s.length < 15 || s.length > 34 || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(s)) return false;
  const moved = s.slice(4) + s.slice(0, 4);
  let r = 0;
  for (const ch of moved) {
    const v = ch >= 'A' ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    r = v >= 10 ? (r * 100 + v) % 97 : (r * 10 + v) % 97;
  }
  return r === 1;
}

export function luhnValid(s: string): boolean {
  if (!/^\d{13,19}$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < s.length; i++) {
    let d = s.charCodeAt(s.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * What in an outgoing call could be one of those secrets: every run of letters and digits with
 * a digit (4–34 long), and such runs joined across single spaces or hyphens, as IBANs and card
 * numbers are written ("DE89 3704 0044 …", "4111-1111-…"). Runs without a digit are never
 * candidates, so prose costs one scan.
 */
export function secretCandidates(text: string): string[] {
  if (!/\d/.test(text)) return [];
  const out = new Set<string>();
  for (const m of text.matchAll(DIGIT_GROUP)) {
    const runs = m[0].split(/[ -]/);
    for (let i = 0; i < runs.length && i < 64; i++) {
      let joined = '';
      for (let j = i; j < runs.length && j < i + 10; j++) {
        joined += runs[j]!;
        if (joined.length > 34) break;
        if (joined.length >= 4) out.add(joined.toUpperCase());
      }
    }
  }
  return [...out];
}

// Runs of letters and digits that hold a digit, joined by single spaces or hyphens.
const DIGIT_GROUP =
  /(?<![A-Za-z0-9])[A-Za-z]*\d[A-Za-z0-9]*(?:[ -][A-Za-z]*\d[A-Za-z0-9]*)*(?![A-Za-z0-9])/g;
