import { ControlError } from '../../common/contract/index.js';
import { isCredentialSegment } from './path-segment.js';

/**
 * Credentials in a server URL (issue 29, item 5; docs/security.md, "No credentials of a server URL"): a query parameter named like
 * one (`?api_key=…`, `?token=…`) and a path segment that looks like a random token
 * (`https://mcp.zapier.com/api/mcp/s/<secret>/mcp`; path-segment.ts decides). They go to the
 * vault like header values: settings and every view keep the URL with each such value replaced
 * by MASK, in place, and the connection puts the stored values back. A URL the user marks secret
 * as a whole (`whole`; `airlock remote add NAME --url-stdin`) has every path segment and every
 * query value moved so; scheme, host and port stay, to tell servers apart.
 *
 * The query is worked on as the raw text of the WHATWG-normalised URL, part by part, so every
 * other byte — order, encoding, separators — reaches the server exactly as the user gave it. A
 * part is split at `&` and also at `;` (some servers take both), its name decoded exactly as
 * URLSearchParams decodes it (formDecode); url-secrets.test.ts checks over
 * generated URLs that neither URLSearchParams nor a `;`-splitting parser finds a credential left
 * in the masked URL, and that joining gives back the very same URL.
 */
export const MASK = '***';

/**
 * One stored credential: its decoded parameter name and its value as written in the URL
 * (encoded). A path segment is stored under PATH, a name no query credential has (it folds to
 * nothing, see isCredentialParam); in a `whole` URL a query parameter named `/` shares the list,
 * harmless because splitting and joining both take the path first, then the query, in order.
 */
export type UrlSecret = [name: string, rawValue: string];
export const PATH = '/';

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
 * vault move (splitUrlSecrets), the mask (maskUrlSecrets) and the checks all read it through
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
  /** Set when the part holds a credential (its value may be MASK): its name, its value as written. */
  name?: string;
  value?: string;
  /** A `name=***` whose name is no credential's: a stored value of that name, if any, goes back. */
  plain?: boolean;
}

interface Parts {
  head: string;
  path: Part[];
  /** null: the URL has no `?`. */
  query: Part[] | null;
  tail: string;
}

/**
 * `https://h/a/<tok>/mcp?a=1&key=x;b#f` → its path segments and query parts, each with the
 * separator before it, and the text around them. Works on text, so a string that is not a URL
 * (an error quoting what the user typed) is masked too: the path starts at the first `/` after
 * `://`, or at the first `/` when there is none.
 */
function parts(url: string, whole: boolean): Parts {
  const hash = url.indexOf('#');
  const body = hash < 0 ? url : url.slice(0, hash);
  const q = body.indexOf('?');
  const beforeQuery = q < 0 ? body : body.slice(0, q);
  const scheme = beforeQuery.indexOf('://');
  const slash = beforeQuery.indexOf('/', scheme < 0 ? 0 : scheme + 3);
  const path: Part[] = [];
  if (slash >= 0)
    for (const text of beforeQuery.slice(slash + 1).split('/'))
      path.push(
        text !== '' && (whole || text === MASK || isCredentialSegment(text))
          ? { sep: '/', text, name: PATH, value: text }
          : { sep: '/', text },
      );
  let query: Part[] | null = null;
  if (q >= 0) {
    query = [];
    const raw = body.slice(q + 1);
    const re = /([&;]?)([^&;]*)/g;
    for (let m = re.exec(raw); m && m.index < raw.length; m = re.exec(raw)) {
      const [, sep = '', text = ''] = m;
      const eq = text.indexOf('=');
      const name = eq < 0 ? '' : formDecode(text.slice(0, eq));
      const value = eq < 0 ? '' : text.slice(eq + 1);
      if (eq >= 0 && value !== '' && (whole || (eq > 0 && isCredentialParam(name))))
        query.push({ sep, text, name, value });
      else if (eq >= 0 && value === MASK) query.push({ sep, text, name, value, plain: true });
      else query.push({ sep, text });
      if (m[0] === '') re.lastIndex++;
    }
  }
  return {
    head: slash >= 0 ? beforeQuery.slice(0, slash) : beforeQuery,
    path,
    query,
    tail: hash < 0 ? '' : url.slice(hash),
  };
}

const render = (p: Parts) =>
  p.head +
  p.path.map((x) => x.sep + x.text).join('') +
  (p.query === null ? '' : '?' + p.query.map((x) => x.sep + x.text).join('')) +
  p.tail;

/** The part with its value replaced: a whole path segment, or what follows a query part's `=`. */
function withValue(p: Part, value: string): string {
  return p.name === PATH && p.sep === '/'
    ? value
    : p.text.slice(0, p.text.indexOf('=') + 1) + value;
}

const all = (p: Parts) => [...p.path, ...(p.query ?? [])];

/**
 * Masks the credentials of `url` (a normalised href). A value that already is MASK stands for
 * the one stored under that name (`stored`, as an edit form sends the URL back); there must be
 * one — except a `name=***` whose name is no credential's and nothing is stored under, which is
 * an ordinary value and stays.
 */
export function splitUrlSecrets(
  url: string,
  stored: readonly UrlSecret[] = [],
  whole = false,
): { url: string; secrets: UrlSecret[] } {
  const ps = parts(url, whole);
  const queue = queues(stored);
  const secrets: UrlSecret[] = [];
  for (const p of all(ps)) {
    if (p.name === undefined) continue;
    let value = p.value!;
    if (value === MASK) {
      const kept = queue.get(p.name)?.shift();
      if (kept === undefined) {
        if (p.plain) continue;
        throw new ControlError(
          'INVALID',
          p.name === PATH
            ? `The URL's path segment ${MASK} stands for a stored value, but none is stored for this server: give the real value.`
            : `The URL's ${p.name}=${MASK} stands for a stored value, but none is stored for this server: give the real value.`,
        );
      }
      value = kept;
    }
    secrets.push([p.name, value]);
    p.text = withValue(p, MASK);
  }
  return { url: render(ps), secrets };
}

/**
 * The URL to connect to: each MASK replaced by the stored value for that name, in order. A query
 * credential without one is left out; a path segment without one stays MASK (leaving it out
 * would point at another resource of the server).
 */
export function joinUrlSecrets(masked: string, stored: readonly UrlSecret[]): string {
  const ps = parts(masked, false);
  const queue = queues(stored);
  for (const p of ps.path) if (p.value === MASK) p.text = queue.get(PATH)?.shift() ?? MASK;
  if (ps.query) {
    const out: Part[] = [];
    // Left out with its separator; when the very first part goes, the next one loses its own.
    let lead = false;
    for (const [i, p] of ps.query.entries()) {
      const value = p.name !== undefined && p.value === MASK ? queue.get(p.name)?.shift() : null;
      if (value === undefined && !p.plain) {
        lead ||= i === 0;
        continue;
      }
      const text = value == null ? p.text : withValue(p, value);
      out.push({ sep: lead ? '' : p.sep, text });
      lead = false;
    }
    ps.query = out;
  }
  return render(ps);
}

/** A URL fit to show: every credential value replaced by MASK (one already masked stays so). */
export function maskUrlSecrets(url: string, whole = false): string {
  const ps = parts(url, whole);
  for (const p of all(ps)) if (p.name !== undefined) p.text = withValue(p, MASK);
  return render(ps);
}

/** True when `url` holds a credential that is not masked yet (a settings file from before issue 29, or from before path credentials were moved). */
export function hasUrlSecrets(url: string, whole = false): boolean {
  return urlSecretsIn(url, whole).length > 0;
}

/** The credentials written out in `url` (masked ones are not values), to redact wherever it goes. */
export function urlSecretsIn(url: string, whole = false): UrlSecret[] {
  return all(parts(url, whole))
    .filter((p) => p.name !== undefined && p.value !== MASK)
    .map((p) => [p.name!, p.value!]);
}

/** Every form a stored value may take in text: as written, form-decoded and percent-decoded. */
export function urlSecretValues(stored: readonly UrlSecret[]): string[] {
  return [...new Set(stored.flatMap(([, v]) => [v, decodeValue(v), percentDecode(v)]))];
}

/** `%XX` escapes decoded as a path is (no `+`); text that does not decode stays as written. */
function percentDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** How a stored part is named when shown: a path segment, or its query parameter. */
export const secretLabel = (name: string) => (name === PATH ? 'a path segment' : name);

function queues(stored: readonly UrlSecret[]): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const [name, value] of stored) m.set(name, [...(m.get(name) ?? []), value]);
  return m;
}
