/**
 * Whether a URL path segment looks like a credential (docs/security.md, "No credentials of a server URL"): hosted MCP servers put
 * the user's secret in the path — Zapier `https://mcp.zapier.com/api/mcp/s/<base64>/mcp`,
 * Pipedream and Composio per-user URLs with a UUID or random token — and tell users to treat the
 * URL as a password. url-secrets.ts moves such a segment to the vault like a query credential.
 *
 * There is no name to go by, so the segment's text decides. A token is what an encoder of random
 * bytes writes: hex, base64/base64url (padding `=` allowed), a UUID. The rule, in order:
 *   1. only [A-Za-z0-9-_.~+/] (after percent-decoding: standard base64's `/` is `%2F` in a path;
 *      a trailing `=` run is padding) — anything
 *      else (spaces, `@`, `:`, non-ASCII) is text, not an encoder's output;
 *   2. a UUID (8-4-4-4-12 hex), or a hex run of 16+ holding both digits and letters (64+ bits):
 *      a credential;
 *   3. fewer than 16 letters and digits, digits only (a numeric id), or a Shannon entropy under
 *      3 bits a character (`aaaaaaaaaaaaaaaaaaaaa`): not one;
 *   4. otherwise cut it into the pieces a reader of names would (between separators: a camelCase
 *      word, an upper-case run, a digit run, `v2`) and count what words do not do and random text
 *      does all the time: a piece of one or two characters inside a longer run, a letter piece of
 *      5+ with no vowel, a run of 5+ consonants, digits between letters; and upper and lower case
 *      letters mixed in near-equal shares (≥ 30 % each of 10+ letters; camelCase words have one
 *      capital in five or so). Two such signs, or as many pieces as one per 3.2 characters, make
 *      it a credential.
 * Measured over generated segments (path-segment.property.test.ts prints the rates): no UUID,
 * hex 32/40/64, Zapier-like or base64url of 26+ characters missed; base64url of 22 characters
 * (128 bits) about 1 in 6,000 missed, nearly all draws without a digit; tuned ordinary families
 * (slugs, dates, versions, numeric ids, camelCase of ordinary words) none taken in 2,000 draws;
 * held-out camelCase of short Latin words (`inCurabiturInSit…`) about 3 % taken.
 * A false positive costs little: the segment shows as `***` and the server still gets it byte
 * for byte. A miss writes the secret to settings; for what no rule can tell (`tinkling-faint-car-f6g1xk`)
 * the user marks the whole URL secret (`--url-stdin`, docs/remote.md).
 */
const PIECE = /[vV][0-9]+(?![0-9a-z])|[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^(?:[0-9a-f]{16,}|[0-9A-F]{16,})$/;

export function isCredentialSegment(raw: string): boolean {
  let s: string;
  try {
    s = decodeURIComponent(raw);
  } catch {
    s = raw;
  }
  s = s.replace(/=+$/, '');
  // `/` too: standard base64 in a path has it percent-encoded (`%2F`), one segment still.
  if (!/^[A-Za-z0-9\-_.~+/]+$/.test(s)) return false;
  if (UUID.test(s)) return true;
  const chunks = s.split(/[-_.~+/]/);
  if (chunks.some((c) => HEX.test(c) && /[0-9]/.test(c) && /[a-f]/i.test(c))) return true;
  const alnum = chunks.join('');
  if (alnum.length < 16 || /^[0-9]+$/.test(alnum) || entropy(alnum) < 3) return false;
  let signs = 0;
  const upper = (alnum.match(/[A-Z]/g) ?? []).length;
  const lower = (alnum.match(/[a-z]/g) ?? []).length;
  if (upper + lower >= 10 && upper >= 0.3 * (upper + lower) && lower >= 0.3 * (upper + lower))
    signs += 2;
  let pieces = 0;
  for (const c of chunks) {
    const ps = c.match(PIECE) ?? [];
    if (ps.length > 1) pieces += ps.length;
    ps.forEach((p, i) => {
      if (ps.length > 1 && p.length <= 2 && !/^[vV][0-9]+$/.test(p)) signs++;
      else if (p.length >= 5 && /[a-z]/.test(p) && !/[aeiouy]/i.test(p)) signs++;
      else if (/[b-df-hj-np-tv-xz]{5,}/i.test(p)) signs++;
      else if (
        /^[0-9]/.test(p) &&
        /[a-z]$/i.test(ps[i - 1] ?? '') &&
        /^[a-z]/i.test(ps[i + 1] ?? '')
      )
        signs++;
    });
  }
  return signs >= 2 || pieces >= alnum.length / 3.2;
}

/** Shannon entropy of the text's characters, in bits a character. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}
