import { ControlError } from '../../common/contract/index.js';
import { maskUrlSecrets } from '../platform/url-secrets.js';

/**
 * Input rules for remote connections (issue 4, "Connections"). Every failure
 * is a ControlError('INVALID') whose message says what to do instead.
 */

/** Letters, digits, `-` and `_`; the name becomes the tool prefix `<name>__`. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

export function validateRemoteName(raw: unknown): string {
  // No "__" in it and no "_" at its end: then the first "__" of a public tool name is where the
  // prefix ends, and two servers' tools never share a name (naming.ts). A name ending in "_" met
  // a shorter one: "a_"'s tool "b" and "a"'s tool "_b" (or ".b") were both "a___b", and which
  // server got the name depended on which tools the other listed (naming.test.ts property).
  if (typeof raw !== 'string' || !NAME.test(raw) || raw.includes('__') || raw.endsWith('_')) {
    throw new ControlError(
      'INVALID',
      `Invalid server name ${JSON.stringify(raw)}: use 1–32 letters, digits, "-" or "_" (starting with a letter or digit, not ending in "_", no "__"); ` +
        "it becomes the prefix of the server's tool names.",
    );
  }
  return raw;
}

/**
 * http or https only; no user:password part (credentials belong in the vault,
 * given as a bearer token or header, never in a URL that lands in settings
 * and logs); no fragment. Loopback hosts are allowed on purpose: local MCP
 * servers are a common case (docs/remote.md).
 */
export function validateRemoteUrl(raw: unknown): URL {
  if (typeof raw !== 'string' || raw.trim() === '')
    throw new ControlError(
      'INVALID',
      'A server URL is required, e.g. https://mcp.example.com/mcp.',
    );
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ControlError(
      'INVALID',
      // Masked: the text goes back in the ControlApi error and may hold a key in its query.
      `"${maskUrlSecrets(raw)}" is not a URL. Give the full address, e.g. https://mcp.example.com/mcp.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ControlError(
      'INVALID',
      `Only http:// and https:// URLs are supported (got ${url.protocol}). MCP servers are reached over HTTP.`,
    );
  }
  if (url.username || url.password) {
    throw new ControlError(
      'INVALID',
      'The URL must not contain a user name or password (user:password@host). Give the credential as a bearer token ' +
        '(--bearer-stdin) or a header (--header-env, --headers-stdin) instead; Airlock keeps those in the keychain.',
    );
  }
  if (url.hash) throw new ControlError('INVALID', 'The URL must not contain a #fragment.');
  return url;
}

/** HTTP header names (RFC 9110 token) that we let the user set; transport-owned ones are refused. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const RESERVED = new Set([
  'host',
  'content-type',
  'content-length',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
  'connection',
  'transfer-encoding',
]);

export function validateHeaders(raw: unknown): Record<string, string> {
  if (raw === undefined) return {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new ControlError('INVALID', 'headers must be an object of name → value.');
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const lower = name.toLowerCase();
    if (!TOKEN.test(name))
      throw new ControlError('INVALID', `"${name}" is not a valid HTTP header name.`);
    if (RESERVED.has(lower))
      throw new ControlError(
        'INVALID',
        `The ${name} header is set by Airlock itself and cannot be overridden.`,
      );
    if (lower === 'authorization')
      throw new ControlError(
        'INVALID',
        'Give an Authorization bearer token as the token (--bearer-stdin), not as a header.',
      );
    if (typeof value !== 'string' || /[\r\n\0]/.test(value))
      throw new ControlError(
        'INVALID',
        `The value of header ${name} must be a single-line string.`,
      );
    if (seen.has(lower)) throw new ControlError('INVALID', `Header ${name} is given twice.`);
    seen.add(lower);
    out[name] = value;
  }
  return out;
}

/** Parses the CLI form `Name: value`. */
export function parseHeaderArg(arg: string): [string, string] {
  const colon = arg.indexOf(':');
  if (colon <= 0)
    throw new ControlError(
      'INVALID',
      `--header expects "Name: value", got ${JSON.stringify(arg)}.`,
    );
  return [arg.slice(0, colon).trim(), arg.slice(colon + 1).trim()];
}

export function validateToken(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '' || /[\r\n\0]/.test(raw.trim())) {
    throw new ControlError('INVALID', 'The bearer token must be a non-empty single line.');
  }
  return raw.trim();
}
