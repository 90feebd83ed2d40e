import fc from 'fast-check';

/**
 * Generated secrets and credential headers for the redaction properties (redact-schemes,
 * proxy-userinfo, log-redaction). Two families: `tuning` (the characters the audit named —
 * quotes, backslashes, '@', ':', '%', unicode — mixed with letters), which the fixes were written
 * against, and `heldOut` (any UTF-16 string, lone surrogates included), which they were not.
 */
const AWKWARD = ['"', '\\', '@', ':', '%', '/', ' ', "'", '=', 'é', 'ß', '密', '😀', '\u2028'];
const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~+';

const tuningChar = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...PLAIN) },
  { weight: 1, arbitrary: fc.constantFrom(...AWKWARD) },
);

export type SecretFamily = 'tuning' | 'heldOut';

/** A secret of 8–24 characters (the logger's minimum is 8). */
export function secretText(family: SecretFamily, minLength = 8): fc.Arbitrary<string> {
  return family === 'tuning'
    ? fc.array(tuningChar, { minLength, maxLength: 24 }).map((cs) => cs.join(''))
    : fc.string({ unit: 'binary', minLength, maxLength: 24 });
}

/** The usual RFC 9110 auth-schemes, in any case. */
const knownScheme = fc.constantFrom(
  'Bearer',
  'bearer',
  'Token',
  'token',
  'Basic',
  'BASIC',
  'Digest',
  'ApiKey',
  'SSWS',
  'Bot',
);
/** Any RFC 9110 auth-scheme (a token), made up. */
const madeUpScheme = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,10}$/);

/** RFC 9110 §11.2 token68: what follows most schemes (a token as GitHub, Okta, Django give it). */
export const token68 = fc.stringMatching(/^[A-Za-z0-9._~+/-]{8,40}=*$/);
/** An API key as vendors issue them: a vendor prefix or none, then 16–40 random letters and digits. */
const apiKey = fc
  .tuple(
    fc.constantFrom('', 'ghp_', 'sk-', 'xoxb-', 'AKIA', 'glpat-', 'pk_live_'),
    fc.stringMatching(/^[A-Za-z0-9]{16,40}$/),
  )
  .map(([prefix, body]) => prefix + body);

/**
 * A credential header value and what a server that echoes it may send back: the value, the
 * credential after the scheme, and for Basic what the server decodes (user:pass, the password).
 * The echoes are computed from the value as a server receives it (Buffer's base64, UTF-8), not
 * from the generator's inputs: a lone surrogate reaches the server as U+FFFD.
 */
export interface CredentialHeader {
  value: string;
  echoes: string[];
}

export function credentialHeader(family: SecretFamily): fc.Arbitrary<CredentialHeader> {
  const spaces = fc.constantFrom(' ', '  ', ' \t');
  const opaque = fc
    .oneof(
      // After a known scheme any token68; after a made-up one an API key as vendors issue them.
      fc.tuple(knownScheme, spaces, token68),
      fc.tuple(madeUpScheme, spaces, apiKey),
    )
    .map(([scheme, sp, cred]) => ({ value: `${scheme}${sp}${cred}`, echoes: [cred] }));
  // #auth-param: name="quoted string" pairs (Digest, Signature), quotes and backslashes escaped;
  // after a known scheme (after a made-up word, `flags beta=true` is a setting, not a credential).
  const params = fc
    .tuple(
      knownScheme,
      spaces,
      fc.array(fc.tuple(token68, secretText(family, 1)), { minLength: 1, maxLength: 3 }),
    )
    .map(([scheme, sp, ps]) => {
      const cred = ps
        .map(([k, v]) => `${k.replace(/[^A-Za-z]/g, '') || 'k'}="${v.replace(/["\\]/g, '\\$&')}"`)
        .join(', ');
      return { value: `${scheme}${sp}${cred}`, echoes: [cred] };
    });
  const basic = fc
    .tuple(
      fc.constantFrom('Basic', 'basic', 'BASIC'),
      spaces,
      secretText(family, 1).map((u) => u.replace(/:/g, '')),
      secretText(family),
    )
    .map(([scheme, sp, user, pass]) => {
      const b64 = Buffer.from(`${user}:${pass}`, 'utf8').toString('base64');
      const decoded = Buffer.from(b64, 'base64').toString('utf8');
      const password = decoded.slice(decoded.indexOf(':') + 1);
      return { value: `${scheme}${sp}${b64}`, echoes: [b64, decoded, password] };
    });
  return fc.oneof(opaque, params, basic).map((h) => ({
    value: h.value,
    echoes: [h.value, ...h.echoes],
  }));
}
