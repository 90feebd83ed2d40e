/**
 * The hosts a sandboxed local server may reach when its network is a list
 * (issue 35). One parser for both sides: the user's entries and the target of
 * every proxy request go through WHATWG URL host parsing (`new URL`), so what
 * is checked is exactly what the proxy then connects to — IDN becomes
 * punycode, `2130706433`, `0x7f.1` and `127.1` all become `127.0.0.1`, case
 * and a trailing dot do not matter.
 *
 * Entry forms: `host` (ports 80 and 443), `host:port`, `*.example.com`
 * (subdomains only, any depth) and `*.example.com:port`; IPv6 as `[::1]:8080`.
 */
export interface HostRule {
  /** Normalized host (URL form: lower case, punycode, canonical IPv4, `[v6]`). */
  host: string;
  /** A `*.` entry: subdomains of `host`, not `host` itself. */
  subdomains: boolean;
  /** A given port; absent means 80 and 443. */
  port?: number;
}

export interface Target {
  host: string;
  port: number;
}

const DEFAULT_PORTS = [80, 443];

/** Parses one user entry; throws an Error whose message says what is wrong. */
export function parseHostRule(entry: string): HostRule {
  const raw = entry.trim();
  if (!raw) throw new Error('A host entry is empty.');
  if (/[\s/?#@\\]/.test(raw) || raw.includes('://'))
    throw new Error(
      `"${entry}" is not a host: give a name such as api.github.com, optionally with :port (no scheme or path).`,
    );
  const wildcard = raw.startsWith('*.');
  const rest = wildcard ? raw.slice(2) : raw;
  if (rest.includes('*'))
    throw new Error(`"${entry}": only a leading "*." is allowed (as in *.example.com).`);
  const t = parseAuthority(rest);
  if (!t) throw new Error(`"${entry}" is not a valid host name or address.`);
  if (wildcard && (isIp(t.host) || !t.host.includes('.')))
    throw new Error(`"${entry}": a wildcard needs a domain with a dot, such as *.example.com.`);
  return { host: t.host, subdomains: wildcard, ...(t.port !== undefined ? { port: t.port } : {}) };
}

/** The rule back as text (what settings keep and the UI shows). */
export function ruleText(r: HostRule): string {
  return `${r.subdomains ? '*.' : ''}${r.host}${r.port !== undefined ? `:${r.port}` : ''}`;
}

/**
 * A CONNECT authority (`host:port`) or an absolute URL's host and port,
 * normalized the way the proxy then connects. Undefined when it is not one.
 */
export function parseTarget(authority: string, defaultPort?: number): Target | undefined {
  const t = parseAuthority(authority);
  if (!t) return undefined;
  const port = t.port ?? defaultPort;
  return port === undefined ? undefined : { host: t.host, port };
}

export function allows(rules: readonly HostRule[], target: Target): boolean {
  return matchingRule(rules, target) !== undefined;
}

/** The first rule that lets `target` through (named in the log when its address is refused). */
export function matchingRule(rules: readonly HostRule[], target: Target): HostRule | undefined {
  return rules.find((r) => {
    const portOk =
      r.port !== undefined ? r.port === target.port : DEFAULT_PORTS.includes(target.port);
    if (!portOk) return false;
    return r.subdomains ? target.host.endsWith(`.${r.host}`) : target.host === r.host;
  });
}

/** The host as `net.connect` wants it (IPv6 without brackets). */
export function connectHost(t: Target): string {
  return t.host.startsWith('[') ? t.host.slice(1, -1) : t.host;
}

function parseAuthority(s: string): { host: string; port?: number } | undefined {
  if (!s || /[\s/?#@\\]/.test(s)) return undefined;
  // The port is split off first (URL would drop a scheme's default port and hide it).
  const m = /^(.*?)(?::(\d{1,5}))?$/.exec(s);
  const hostPart = m?.[1] ?? '';
  const port = m?.[2] === undefined ? undefined : Number(m[2]);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  if (!hostPart || hostPart.includes(':') !== hostPart.startsWith('[')) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${hostPart}`);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.port || url.pathname !== '/' || url.search || url.hash)
    return undefined;
  let host = url.hostname;
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (!host) return undefined;
  return { host, ...(port !== undefined ? { port } : {}) };
}

function isIp(host: string): boolean {
  return host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(host);
}
