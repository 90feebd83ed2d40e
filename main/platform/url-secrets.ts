import { ControlError } from '../../common/contract/index.js';

/**
 * Credentials in a server URL's query string (`?api_key=…`, `?token=…`; issue 29, item 5). They
 * go to the vault like header values: settings and every view keep the URL with each such value
 * replaced by MASK, in place, and the connection puts the stored values back.
 *
 * The query is worked on as the raw text of the WHATWG-normalised URL, part by part, so every
 * other byte — order, encoding, separators — reaches the server exactly as the user gave it. A
 * part is split at `&` and also at `;` (some servers take both), its name decoded exactly as
 * URLSearchParams decodes it (formDecode); url-secrets.test.ts checks over
 * generated URLs that neither URLSearchParams nor a `;`-splitting parser finds a credential left
 * in the masked URL, and that joining gives back the very same URL.
 */
export const MASK = '***';

/** One stored credential: its decoded parameter name and its value as written in the URL (encoded). */
export type QuerySecret = [name: string, rawValue: string];

/**
 * Names (lower case, only letters and digits) that carry a credential, exactly or as their end.
 * A name is compared folded (isCredentialParam), so `Api-Key`, `API_KEY` and `api.key` are one.
 * Broad on purpose: a false positive only shows `***` for a harmless value and keeps it in the
 * vault (the server still gets it, byte for byte); a false negative writes a credential to
 * settings and every view. So `key` and anything ending in it (`?key=` is Google's and many
 * gateways'; `subscription-key`, `x-api-key`) counts, though `monkey=` does too.
 */
const EXACT = new Set([
  'auth',
  'code',
  'pass',
  'pwd',
  'sid',
  'sig',
  'session',
  'sessionid',
  'bearer',
  'credential',
  'credentials',
]);
const ENDINGS = [
  'key',
  'token',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'signature',
  'auth',
  'authorization',
  'credential',
  'credentials',
  'sessionid',
  'jwt',
];

/**
 * Whether a query parameter of this (decoded) name holds a credential. The one decision: the
 * vault move (splitQuerySecrets), the mask (maskQuerySecrets) and the checks all read it through
 * `parts` below.
 */
export function isCredentialParam(name: string): boolean {
  const n = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return EXACT.has(n) || ENDINGS.some((e) => n.endsWith(e));
}

/**
 * A name or value as URLSearchParams reads it (the application/x-www-form-urlencoded parser of
 * the URL Standard): `+` is a space, each valid `%XX` a byte, the bytes UTF-8 with U+FFFD for
 * what is not; a malformed escape stays as it is.
 */
function formDecode(raw: string): string {
  const bytes = new TextEncoder().encode(raw.replace(/\+/g, ' '));
  const out = new Uint8Array(bytes.length);
  const hex = (b: number | undefined) =>
    b !== undefined && ((b >= 48 && b <= 57) || (b >= 65 && b <= 70) || (b >= 97 && b <= 102));
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x25 && hex(bytes[i + 1]) && hex(bytes[i + 2])) {
      out[n++] = parseInt(String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!), 16);
      i += 2;
    } else out[n++] = bytes[i]!;
  }
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(out.subarray(0, n));
}

export function decodeValue(raw: string): string {
  return formDecode(raw);
}

interface Part {
  sep: string;
  text: string;
  /** Set when the part is `name=value` with a credential name and a non-empty value. */
  name?: string;
  value?: string;
}

/** `https://h/p?a=1&key=x;b` → its query parts with their separators, and the URL around them. */
function parts(url: string): { head: string; parts: Part[]; tail: string } {
  const q = url.indexOf('?');
  if (q < 0) return { head: url, parts: [], tail: '' };
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const out: Part[] = [];
  const re = /([&;]?)([^&;]*)/g;
  for (let m = re.exec(query); m && m.index < query.length; m = re.exec(query)) {
    const [, sep = '', text = ''] = m;
    const eq = text.indexOf('=');
    const name = eq < 0 ? '' : formDecode(text.slice(0, eq));
    const value = eq < 0 ? '' : text.slice(eq + 1);
    out.push(
      eq > 0 && value !== '' && isCredentialParam(name)
        ? { sep, text, name, value }
        : { sep, text },
    );
    if (m[0] === '') re.lastIndex++;
  }
  return { head: url.slice(0, q + 1), parts: out, tail: hash < 0 ? '' : url.slice(hash) };
}

const render = (head: string, ps: Part[], tail: string) =>
  head + ps.map((p) => p.sep + p.text).join('') + tail;

/**
 * Masks the credentials of `url` (a normalised href). A value that already is MASK stands for
 * the one stored under that name (`stored`, as an edit form sends the URL back); there must be one.
 */
export function splitQuerySecrets(
  url: string,
  stored: readonly QuerySecret[] = [],
): { url: string; secrets: QuerySecret[] } {
  const { head, parts: ps, tail } = parts(url);
  const queue = queues(stored);
  const secrets: QuerySecret[] = [];
  for (const p of ps) {
    if (p.name === undefined) continue;
    let value = p.value!;
    if (value === MASK) {
      const kept = queue.get(p.name)?.shift();
      if (kept === undefined)
        throw new ControlError(
          'INVALID',
          `The URL's ${p.name}=${MASK} stands for a stored value, but none is stored for this server: give the real value.`,
        );
      value = kept;
    }
    secrets.push([p.name, value]);
    p.text = p.text.slice(0, p.text.indexOf('=') + 1) + MASK;
  }
  return { url: render(head, ps, tail), secrets };
}

/** The URL to connect to: each MASK replaced by the stored value for that name, in order; a MASK without one is left out. */
export function joinQuerySecrets(masked: string, stored: readonly QuerySecret[]): string {
  const { head, parts: ps, tail } = parts(masked);
  const queue = queues(stored);
  const out: Part[] = [];
  // Left out with its separator; when the very first part goes, the next one loses its own.
  let lead = false;
  for (const [i, p] of ps.entries()) {
    const value = p.name !== undefined && p.value === MASK ? queue.get(p.name)?.shift() : null;
    if (value === undefined) {
      lead ||= i === 0;
      continue;
    }
    const text = value === null ? p.text : p.text.slice(0, p.text.indexOf('=') + 1) + value;
    out.push({ sep: lead ? '' : p.sep, text });
    lead = false;
  }
  return render(head, out, tail);
}

/** A URL fit to show: every credential value replaced by MASK (one already masked stays so). */
export function maskQuerySecrets(url: string): string {
  const { head, parts: ps, tail } = parts(url);
  for (const p of ps)
    if (p.name !== undefined) p.text = p.text.slice(0, p.text.indexOf('=') + 1) + MASK;
  return render(head, ps, tail);
}

/** True when `url` holds a credential that is not masked yet (a settings file from before issue 29). */
export function hasQuerySecrets(url: string): boolean {
  return parts(url).parts.some((p) => p.name !== undefined && p.value !== MASK);
}

/** The credentials written out in `url` (masked ones are not values), to redact wherever it goes. */
export function querySecretsIn(url: string): QuerySecret[] {
  return parts(url)
    .parts.filter((p) => p.name !== undefined && p.value !== MASK)
    .map((p) => [p.name!, p.value!]);
}

/** Every form a stored value may take in text: as written, and decoded. */
export function querySecretValues(stored: readonly QuerySecret[]): string[] {
  return [...new Set(stored.flatMap(([, v]) => [v, decodeValue(v)]))];
}

function queues(stored: readonly QuerySecret[]): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const [name, value] of stored) m.set(name, [...(m.get(name) ?? []), value]);
  return m;
}
