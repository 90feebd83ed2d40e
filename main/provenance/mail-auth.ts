/**
 * Whether a message's From is what its receiving server verified (issue 30): 'none' when the
 * message carries no Authentication-Results at all (mail the user's own Gmail holds without
 * receiving it, test fixtures), else 'pass' or 'fail'.
 *
 * Gmail stamps each received message with `Authentication-Results`
 * (RFC 8601) for SPF, DKIM and DMARC. A From whose DMARC fails — or, without
 * DMARC, that neither SPF nor a DKIM signature verified — is not established,
 * and its words are a stranger's however known the From looks (a From forged in
 * the user's own domain).
 *
 * Anyone can write an Authentication-Results header into a message; only the
 * receiving server's counts. Gmail adds its own on top (authserv-id
 * `mx.google.com`), so that one is preferred, then the topmost.
 */

export type AuthVerdict = 'pass' | 'fail' | 'none';

const TRUSTED_AUTHSERV = /^\s*mx\.google\.com\s*(?:;|$)/i;

export function authVerdict(headerValues: readonly string[]): AuthVerdict {
  if (headerValues.length === 0) return 'none';
  const value = headerValues.find((v) => TRUSTED_AUTHSERV.test(v)) ?? headerValues[0]!;
  const result = (method: string): string | undefined =>
    new RegExp(`(?:^|[;\\s])${method}\\s*=\\s*([a-z]+)`, 'i').exec(value)?.[1]?.toLowerCase();
  const dmarc = result('dmarc');
  const spf = result('spf');
  const dkims = [...value.matchAll(/(?:^|[;\s])dkim\s*=\s*([a-z]+)/gi)].map((m) =>
    m[1]!.toLowerCase(),
  );
  if (dmarc === 'fail') return 'fail';
  if (dmarc === 'pass') return 'pass';
  // Without DMARC: the From is established when SPF or a DKIM signature passed; a message the
  // server stamped with neither (spf=none/neutral/softfail/fail, no passing signature) has an
  // author nobody verified, and fails closed.
  return spf === 'pass' || dkims.includes('pass') ? 'pass' : 'fail';
}
