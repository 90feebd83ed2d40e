/**
 * The forms in which a configured credential header value may come back from a server that
 * echoes it: the value itself, the credential after its scheme, and for Basic what it decodes to.
 *
 * RFC 9110 §11.4: `credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`, and §11.1:
 * `auth-scheme = token`. Any scheme (`Bearer`, `Token`, `Basic`, `Digest`, a vendor's own), not
 * only "Bearer ": a server that echoes `ghp_…` of `Authorization: Token ghp_…` hands the agent
 * the credential without its scheme. Tabs are taken as spaces too: more is redacted, never less.
 * RFC 7617 §2: Basic's token68 is base64 of `user-id ":" password`; the user-id has no colon.
 * Short forms (a 3-letter password) are dropped by the redactor's own minimum, not here.
 */
const CREDENTIALS = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)[ \t]+(.*?)[ \t]*$/s;
/** RFC 9110 §11.2 token68. */
const TOKEN68 = /^[A-Za-z0-9._~+/-]+=*$/;
/** RFC 9110 §11.2 `#auth-param`: `name = ( token / quoted-string )`, comma-separated. */
const PARAM = `[!#$%&'*+.^_\`|~0-9A-Za-z-]+[ \t]*=[ \t]*(?:[!#$%&'*+.^_\`|~0-9A-Za-z-]+|"(?:[^"\\\\]|\\\\.)*")`;
const AUTH_PARAMS = new RegExp(`^${PARAM}(?:[ \\t]*,[ \\t]*${PARAM})*$`, 's');
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Schemes whose word after them is always a credential: the IANA HTTP Authentication Scheme
 * Registry (RFC 9110 §16.4; Basic, Bearer, Digest, DPoP, …) and the vendor schemes APIs document
 * (`Token` GitHub and Django REST, `SSWS` Okta, `Bot` Discord, `ApiKey`/`Key`, `JWT`, `Splunk`).
 */
const KNOWN_SCHEMES = new Set([
  'basic',
  'bearer',
  'digest',
  'dpop',
  'gnap',
  'hoba',
  'mutual',
  'negotiate',
  'ntlm',
  'oauth',
  'privatetoken',
  'scram-sha-1',
  'scram-sha-256',
  'vapid',
  'aws4-hmac-sha256',
  'token',
  'ssws',
  'bot',
  'apikey',
  'api-key',
  'key',
  'jwt',
  'splunk',
  'geniekey',
  'concealed',
  'sharedkey',
  'client-id',
]);
/**
 * After any other word, a token68 that reads as a credential, not as a word, a version, a date,
 * a region, a host, a path or a number: one of its pieces (split at `-._~+/=`) of 10 characters or
 * more with a letter and a digit or both cases (`ghp_…`, `sk-proj-…`, `xoxb-…`, `AKIA…`), a piece
 * of 20 letters or more, or 16 hex digits or more in a row (a key, a UUID's hex). A configured
 * header of two plain words (`X-Env: eu production`, `aws eu-central-1`, `Client 1.2.3-beta.4`,
 * `Host api.example.com`) matches the grammar too, and its second word taken alone would redact
 * that word wherever a server writes it; such a value is still redacted whole.
 */
const CREDENTIAL_LIKE = (t: string): boolean =>
  /[0-9a-f]{16,}/i.test(t.replace(/-/g, '')) && /\d/.test(t) && /[a-f]/i.test(t)
    ? true
    : t
        .split(/[-._~+/=]+/)
        .some(
          (p) =>
            (p.length >= 10 && /[A-Za-z]/.test(p) && /\d|[a-z].*[A-Z]|[A-Z].*[a-z]/.test(p)) ||
            /^[A-Za-z]{20,}$/.test(p),
        );
/** All digits and signs: a number in a result, turned into a string if it were a target. */
const NUMERIC = /^[\d.+-]+$/;
/** An auth-param's value, quoted or a token (RFC 9110 §11.2). */
const PARAM_VALUES = /=[ \t]*("(?:[^"\\]|\\.)*"|[^,\s]+)/g;

export function credentialForms(value: string): string[] {
  const m = CREDENTIALS.exec(value);
  const credential = m?.[2];
  if (!m || !credential) return [value];
  const known = KNOWN_SCHEMES.has(m[1]!.toLowerCase());
  // Only what the grammar allows after a scheme (a header of plain words, "My App Name", is not
  // cut into pieces), and after an unknown word only what reads as a credential.
  // Behind a known scheme a number too is a credential; after another word it is a number.
  const split = known
    ? TOKEN68.test(credential) || AUTH_PARAMS.test(credential)
    : !NUMERIC.test(credential) &&
      ((TOKEN68.test(credential) && CREDENTIAL_LIKE(credential)) ||
        (AUTH_PARAMS.test(credential) && credentialParams(credential)));
  if (!split) return [value];
  const out = [value, credential];
  if (/^basic[ \t]/i.test(value)) out.push(...basicForms(credential));
  return out;
}

/** Auth-params after an unknown word that carry a credential: a quoted value, or one that reads as one. */
function credentialParams(params: string): boolean {
  for (const [, v] of params.matchAll(PARAM_VALUES))
    if (v!.startsWith('"') || CREDENTIAL_LIKE(v!)) return true;
  return false;
}

/** `user:pass` and `pass` of a Basic credential, as a server may decode it (UTF-8 or Latin-1). */
function basicForms(token68: string): string[] {
  if (!BASE64.test(token68)) return [];
  const bytes = Buffer.from(token68, 'base64');
  // RFC 7617 §2.1: UTF-8 when the server asked for it; many decode as Latin-1 (ISO-8859-1).
  const decoded = new Set([bytes.toString('latin1')]);
  try {
    decoded.add(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    // Not UTF-8: a server can only have read it as Latin-1.
  }
  const out: string[] = [];
  for (const pair of decoded) {
    const colon = pair.indexOf(':');
    if (colon < 0) continue;
    out.push(pair, pair.slice(colon + 1));
  }
  return out;
}
