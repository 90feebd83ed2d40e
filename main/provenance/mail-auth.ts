/**
 * Whether a message's From is what its receiving server verified (issue 30):
 * Gmail stamps each received message with `Authentication-Results`
 * (RFC 8601) for SPF, DKIM and DMARC. A From in the user's own domain whose
 * DMARC fails — or whose SPF fails with no passing DKIM signature — is a
 * forgery, and its words are a stranger's.
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
  const dkimPass = dkims.includes('pass');
  if ((spf === 'fail' || spf === 'softfail') && !dkimPass) return 'fail';
  if (dkims.includes('fail') && !dkimPass && spf !== 'pass') return 'fail';
  if (spf === 'pass' || dkimPass) return 'pass';
  return 'none';
}
