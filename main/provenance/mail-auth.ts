import { domainToASCII } from 'node:url';

/**
 * Whether a message's From is what its receiving server verified (issue 30): 'none' when the
 * message carries no Authentication-Results at all (mail the user's own Gmail holds without
 * receiving it, test fixtures), else 'pass' or 'fail'.
 *
 * Gmail stamps each received message with `Authentication-Results`
 * (RFC 8601) for SPF, DKIM and DMARC. A From whose DMARC fails — or, without
 * DMARC, that neither an aligned SPF nor an aligned DKIM signature verified — is not established,
 * and its words are a stranger's however known the From looks (a From forged in
 * the user's own domain).
 *
 * Anyone can write an Authentication-Results header into a message; only the
 * receiving server's counts. Gmail adds its own on top (authserv-id
 * `mx.google.com`), so that one is preferred, then the topmost.
 */

export type AuthVerdict = 'pass' | 'fail' | 'none';

const TRUSTED_AUTHSERV = /^\s*mx\.google\.com\s*(?:;|$)/i;

/** One method's result in an Authentication-Results value, and the domain it verified. */
interface Verified {
  method: string;
  result: string;
  /** dmarc: header.from; spf: smtp.mailfrom's domain; dkim: header.d, else header.i's domain. */
  domains: string[];
}

/**
 * The resinfo sections of an Authentication-Results value (RFC 8601 §2.2), each as its words:
 * comments dropped, `;` and spaces splitting only outside quoted strings. A quoted string can
 * hold what the sender chose — the local part of the envelope sender in `smtp.mailfrom`, such as
 * `"a;dmarc=pass header.from=example.com"@evil.test` (RFC 5321 §4.1.2) — and is one value, never
 * a section or a property of its own.
 */
function sections(value: string): string[][] {
  const out: string[][] = [[]];
  let word = '';
  let depth = 0;
  let quoted = false;
  const end = () => {
    if (word) out.at(-1)!.push(word);
    word = '';
  };
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === '\\' && (quoted || depth > 0)) {
      if (depth === 0) word += value.slice(i, i + 2);
      i++;
    } else if (depth > 0) {
      if (c === '(') depth++;
      else if (c === ')') depth--;
    } else if (quoted) {
      word += c;
      if (c === '"') quoted = false;
    } else if (c === '"') {
      word += c;
      quoted = true;
    } else if (c === '(') {
      end();
      depth = 1;
    } else if (c === ';') {
      end();
      out.push([]);
    } else if (/\s/.test(c)) end();
    else word += c;
  }
  end();
  // An unclosed quote or comment: where the sections end is in doubt, and nothing is read.
  return quoted || depth > 0 ? [] : out;
}

/** A section's words with `name = value` (CFWS around `=`, RFC 8601 §2.2) made one word. */
function joined(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    const last = out.at(-1);
    if (last !== undefined && (last.endsWith('=') || w.startsWith('='))) out[out.length - 1] += w;
    else out.push(w);
  }
  return out;
}

function verified(value: string): Verified[] {
  const out: Verified[] = [];
  // The first section is the authserv-id.
  for (const section of sections(value).slice(1)) {
    const words = joined(section);
    const m = /^([a-z0-9-]+)=([a-z]+)$/i.exec(words[0] ?? '');
    if (!m) continue;
    // Each property is one word: a quoted string in a value stays inside it.
    const props = new Map<string, string>();
    for (const w of words.slice(1)) {
      const p = /^([a-z]+\.[a-z0-9-]+)=(.+)$/i.exec(w);
      if (p) props.set(p[1]!.toLowerCase(), p[2]!);
    }
    const after = (v: string | undefined) =>
      v === undefined ? undefined : v.slice(v.lastIndexOf('@') + 1).replace(/^"|"$/g, '');
    const method = m[1]!.toLowerCase();
    const domain =
      method === 'dmarc'
        ? after(props.get('header.from'))
        : method === 'spf'
          ? after(props.get('smtp.mailfrom'))
          : method === 'dkim'
            ? (after(props.get('header.d')) ?? after(props.get('header.i')))
            : undefined;
    out.push({
      method,
      result: m[2]!.toLowerCase(),
      domains: domain ? [domainOf(domain)].filter(Boolean) : [],
    });
  }
  return out;
}

/** A domain as DNS compares it: IDNA ASCII, lower case, no trailing dot; '' when invalid. */
function domainOf(d: string): string {
  // As written: IDNA folds case itself (identity.ts lowerAscii).
  return domainToASCII(d.trim().replace(/\.$/, ''));
}

/**
 * Whether a verified domain speaks for the From's: DMARC's relaxed alignment (RFC 7489 §3.1.1)
 * without a public suffix list — the same domain, or one inside the other.
 */
function aligned(verifiedDomain: string, from: string): boolean {
  return (
    verifiedDomain === from ||
    from.endsWith(`.${verifiedDomain}`) ||
    verifiedDomain.endsWith(`.${from}`)
  );
}

/**
 * `from`: the From header's addresses as Airlock read them. The verdict holds for that From only
 * when the domain the server verified is its domain: DMARC's `header.from` is the server's own
 * reading of the From (a From whose reading differs — an encoded display name decoded into
 * another address — is not the one verified), and an SPF or DKIM pass speaks for the From only
 * when aligned with it (RFC 7489 §3.1), not for whatever domain the sender signed or sent with.
 */
export function authVerdict(headerValues: readonly string[], from: readonly string[]): AuthVerdict {
  if (headerValues.length === 0) return 'none';
  const value = headerValues.find((v) => TRUSTED_AUTHSERV.test(v)) ?? headerValues[0]!;
  const results = verified(value);
  const fromDomains = from.map((a) => domainOf(a.slice(a.lastIndexOf('@') + 1)));
  if (fromDomains.length === 0 || fromDomains.some((d) => !d)) return 'fail';
  const dmarc = results.filter((r) => r.method === 'dmarc');
  if (dmarc.some((r) => r.result === 'fail')) return 'fail';
  if (dmarc.some((r) => r.result === 'pass'))
    return dmarc.some(
      (r) =>
        r.result === 'pass' && r.domains.length > 0 && fromDomains.every((d) => d === r.domains[0]),
    )
      ? 'pass'
      : 'fail';
  // Without DMARC: the From is established when an aligned SPF or DKIM check passed; a message
  // the server stamped with neither has an author nobody verified, and fails closed.
  const speaks = results.some(
    (r) =>
      (r.method === 'spf' || r.method === 'dkim') &&
      r.result === 'pass' &&
      r.domains.length > 0 &&
      fromDomains.every((d) => aligned(r.domains[0]!, d)),
  );
  return speaks ? 'pass' : 'fail';
}
