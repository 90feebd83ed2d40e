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

function verified(value: string): Verified[] {
  // Comments ("(google.com: domain of …)") say nothing the properties do not.
  const sections = value
    .replace(/\([^()]*\)/g, ' ')
    .split(';')
    .slice(1);
  const out: Verified[] = [];
  for (const section of sections) {
    const m = /^\s*([a-z]+)\s*=\s*([a-z]+)/i.exec(section);
    if (!m) continue;
    const props = new Map<string, string>();
    for (const p of section.matchAll(/([a-z]+\.[a-z-]+)\s*=\s*"?([^\s";]+)/gi))
      props.set(p[1]!.toLowerCase(), p[2]!);
    const after = (v: string | undefined) =>
      v === undefined ? undefined : v.slice(v.lastIndexOf('@') + 1);
    const method = m[1]!.toLowerCase();
    const domain =
      method === 'dmarc'
        ? props.get('header.from')
        : method === 'spf'
          ? after(props.get('smtp.mailfrom'))
          : method === 'dkim'
            ? (props.get('header.d') ?? after(props.get('header.i')))
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
  return domainToASCII(d.trim().toLowerCase().replace(/\.$/, ''));
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
