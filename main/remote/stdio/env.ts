import { maskedProxy, proxyUserinfo } from './proxy-userinfo.js';

/**
 * The environment a local server gets (issue 15): a short allow-list from
 * Airlock's own environment — what programs need to find themselves, the
 * user's home and temp dirs and the locale — plus the variables the user set
 * for that server. Never Airlock's whole environment: that would hand every
 * local server whatever secrets happen to sit in it (tokens in CI, cloud keys).
 *
 * The list follows the MCP SDK's StdioClientTransport default
 * (`DEFAULT_INHERITED_ENV_VARS`) with the locale and temp dirs added.
 */
const POSIX = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG', 'LC_ALL', 'TMPDIR'];
const WINDOWS = [
  'PATH',
  'PATHEXT',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
  'USERNAME',
  'HOMEDRIVE',
  'HOMEPATH',
  'TEMP',
  'TMP',
  'SystemRoot',
  'SystemDrive',
  'windir',
  'ComSpec',
  'ProgramData',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'ProgramW6432',
  'PROCESSOR_ARCHITECTURE',
  'LANG',
];

export function inheritedNames(platform: NodeJS.Platform = process.platform): readonly string[] {
  return platform === 'win32' ? WINDOWS : POSIX;
}

/**
 * Proxy and CA settings (issue 29, item 6): behind a corporate proxy `npx`/`uvx` cannot download
 * a server without them, and said only "did not answer within 30 s". Passed through by default,
 * in both cases on POSIX (curl, npm and Python read the lower-case ones, Node tools often the
 * upper); Windows names ignore case, so there the upper-case ones find either.
 */
export const PROXY_AND_CA = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
] as const;

function proxyNames(platform: NodeJS.Platform): readonly string[] {
  return platform === 'win32' ? PROXY_AND_CA.filter((n) => n === n.toUpperCase()) : PROXY_AND_CA;
}

type Lookup = (name: string) => string | undefined;

function lookupIn(from: NodeJS.ProcessEnv, platform: NodeJS.Platform): Lookup {
  if (platform !== 'win32') return (name) => from[name];
  return (name) => {
    const key = Object.keys(from).find((k) => k.toLowerCase() === name.toLowerCase());
    return key === undefined ? undefined : from[key];
  };
}

/** Values that look like shell functions (`() {`) are dropped, as the SDK does (Shellshock-style injection). */
function pick(names: readonly string[], lookup: Lookup): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = lookup(name);
    if (value !== undefined && !value.startsWith('()')) out[name] = value;
  }
  return out;
}

/**
 * The proxy and CA variables a local server gets from Airlock's environment (those it does not
 * set itself), for the server list: picked exactly as childEnv picks them, a proxy URL's user
 * and password shown as `***`.
 */
export function passedThrough(
  user: Record<string, string>,
  from: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(pick(proxyNames(platform), lookupIn(from, platform))))
    if (!(k in user)) out[k] = carriesUserinfo(k) ? maskedProxy(v) : v;
  return out;
}

/**
 * The password of a proxy variable (`http://user:pass@host`, or `user:pass@host` with no scheme),
 * raw and decoded, to keep out of logs and stderr excerpts: read as curl and pip read it
 * (proxy-userinfo.ts), not with WHATWG `URL`, which finds no password without a scheme.
 */
export function proxyPasswords(
  from: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string[] {
  const picked = Object.entries(pick(proxyNames(platform), lookupIn(from, platform)));
  const values = picked.filter(([k]) => carriesUserinfo(k)).map(([, v]) => v);
  return [...new Set(values.flatMap((v) => proxyUserinfo(v)?.passwords ?? []))];
}

/**
 * A proxy URL, which may carry a user and password: `HTTPS_PROXY`, `http_proxy` (the names
 * PROXY_AND_CA passes on) —
 * not `NO_PROXY` (a host list) nor the CA file paths, where an '@' or ':' is part of a name
 * (`C:\Users\me:x@corp\ca.pem`).
 */
function carriesUserinfo(name: string): boolean {
  return /_proxy$/i.test(name) && !/^no_proxy$/i.test(name);
}

/**
 * Builds the child's environment: the allow-list, the proxy and CA settings, then the user's
 * variables for this server (which win). Windows variable names are case-insensitive, so the
 * lookup there ignores case.
 */
export function childEnv(
  user: Record<string, string>,
  from: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const lookup = lookupIn(from, platform);
  return {
    ...pick(inheritedNames(platform), lookup),
    ...pick(proxyNames(platform), lookup),
    ...user,
  };
}
