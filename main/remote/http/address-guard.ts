/**
 * Where a request to a remote server or its OAuth authorization server may connect, judged on the
 * address the socket connects to, not on the URL's spelling (issue: SSRF by DNS). A name that
 * resolves — or re-resolves, DNS rebinding — to 127.0.0.1, ::1, 0.0.0.0, an IPv4-mapped IPv6
 * address or 169.254.169.254 (cloud metadata) reached this computer or its network although the
 * URL looked public. The check runs inside the socket's own `lookup` (node:net's `lookup` option,
 * which http.request hands to the connection), so the addresses judged are the ones connected to.
 * An IP-literal host is never looked up (node:net connects to it directly): `refusedLiteral`
 * judges it before the request.
 */
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { isLoopback } from '../../tools/relay-label.js';
import type { AddressPin } from './address-pin.js';

/**
 * `local`: this computer; `link-local`: 169.254/16, fe80::/10 and the cloud metadata services'
 * addresses (169.254.169.254, AWS's fd00:ec2::254, Alibaba's 100.100.100.200).
 */
export type AddressClass = 'local' | 'link-local' | 'private' | 'public';

/** An address a name resolved to, as dns.lookup gives it with `all: true`. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name; injected so tests can make a name resolve to loopback. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver, as node:net would use it (dns.lookup, all addresses, in the OS's order). */
export const systemResolver: Resolver = (hostname) =>
  process.getBuiltinModule('node:dns').promises.lookup(hostname, { all: true, order: 'verbatim' });

// IPv4 ranges by class (RFC 6890 special-purpose registry). Each is also matched inside IPv6:
// IPv4-mapped ::ffff:a.b.c.d (BlockList matches those against IPv4 rules itself), IPv4-compatible
// ::a.b.c.d (deprecated, RFC 4291 §2.5.5.1) and the NAT64 prefix 64:ff9b::/96 (RFC 6052).
const V4: [AddressClass, string, number][] = [
  ['local', '127.0.0.0', 8],
  ['local', '0.0.0.0', 8], // "this network": connecting to 0.0.0.0 reaches this computer
  ['link-local', '169.254.0.0', 16],
  // Cloud metadata outside 169.254/16, classed with it (classes are checked local, link-local,
  // private, so this wins over 100.64/10): Alibaba Cloud's 100.100.100.200.
  ['link-local', '100.100.100.200', 32],
  ['private', '10.0.0.0', 8],
  ['private', '172.16.0.0', 12],
  ['private', '192.168.0.0', 16],
  ['private', '100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['private', '192.0.0.0', 24], // IETF protocol assignments
  ['private', '198.18.0.0', 15], // benchmarking
  ['private', '224.0.0.0', 4], // multicast
  ['private', '240.0.0.0', 4], // reserved, broadcast
];
const V6: [AddressClass, string, number][] = [
  ['local', '::1', 128],
  ['local', '::', 128],
  ['link-local', 'fe80::', 10],
  // AWS's instance metadata over IPv6 (IMDS): inside fc00::/7, but a metadata service, not a
  // server on the user's network, so refused wherever link-local addresses are.
  ['link-local', 'fd00:ec2::254', 128],
  ['private', 'fc00::', 7], // unique local
  ['private', 'fec0::', 10], // site-local, deprecated
  ['private', 'ff00::', 8], // multicast
];

const lists = new Map<AddressClass, BlockList>();
for (const [cls, net, bits] of V4) {
  const b = lists.get(cls) ?? new BlockList();
  lists.set(cls, b);
  b.addSubnet(net, bits, 'ipv4');
  b.addSubnet(`::${net}`, 96 + bits, 'ipv6');
  b.addSubnet(`64:ff9b::${net}`, 96 + bits, 'ipv6');
}
for (const [cls, net, bits] of V6) {
  const b = lists.get(cls) ?? new BlockList();
  lists.set(cls, b);
  b.addSubnet(net, bits, 'ipv6');
}

/** The class of an IP address (either family, any spelling node:net accepts); `undefined` if not one. */
export function classifyAddress(ip: string): AddressClass | undefined {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = isIP(bare);
  if (family === 0) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const cls of ['local', 'link-local', 'private'] as const)
    if (lists.get(cls)!.check(bare, type)) return cls;
  return 'public';
}

/** The classes a connection may not reach, and what to call the place in an error. */
export interface AddressRule {
  refused: ReadonlySet<AddressClass>;
  /**
   * The server's recorded class (address-pin.ts), for the connection to a server named by a host
   * name: recorded `public`, private addresses are refused too; none recorded yet, the socket is
   * handed one class only — the most public in the answer — and the pin is told which.
   */
  pin?: AddressPin;
  /**
   * The class this rule gives an address the classifier put in `cls` — `local` for one of this
   * computer's own (eth0's, a global IPv6: a service bound to 0.0.0.0 or :: answers there), or a
   * stricter class for a range only this rule refuses. Only the host-list proxy sets it
   * (host-address.ts); the remote servers' rules do not (yet).
   */
  reclass?: (address: string, cls: AddressClass) => AddressClass;
}

/** The class `rule` gives an address: the classifier's, as `rule.reclass` adjusts it. */
function classOf(rule: AddressRule, address: string): AddressClass | undefined {
  const cls = classifyAddress(address);
  return cls && rule.reclass ? rule.reclass(address, cls) : cls;
}

export const ANYWHERE: AddressRule = { refused: new Set() };

/** Whether `rule` refuses an address of class `cls` (its fixed classes, and its pin's). */
export function refuses(rule: AddressRule, cls: AddressClass): boolean {
  return rule.refused.has(cls) || (cls === 'private' && rule.pin?.reach === 'public');
}

/**
 * The rule for the connection to a server at the URL the user gave: anywhere it names itself (an
 * IP literal, or `localhost`, is the user's own choice), but a host name may not lead to this
 * computer or to link-local addresses — a name's owner chooses what it resolves to, and may
 * change it between two connections. Names on the user's network (10/8, 192.168/16, …) stay
 * allowed: a server on the LAN is a server the user added — when it was first reached there
 * (`pin`, address-pin.ts): a name first reached at a public address may not lead to the network.
 */
export function connectionRule(serverUrl: string, pin?: AddressPin): AddressRule {
  const host = hostOf(serverUrl);
  if (host === undefined || isLoopback(host) || isIP(host) !== 0) return ANYWHERE;
  return { refused: new Set(['local', 'link-local']), ...(pin ? { pin } : {}) };
}

/** Where a server is, as the endpoints its metadata names are judged against (endpointRule). */
export type ServerReach = 'local' | 'link-local' | 'private' | 'public';

/**
 * Where the MCP server at `serverUrl` is: its literal host's class, or — for a name — `public`
 * when any address it resolves to is public, else `private` (a name on this computer counts as
 * the network, not as this computer: connectionRule refuses that connection anyway). A name
 * recorded `public` (address-pin.ts) is public whatever it resolves to now: its rebinding to the
 * network must not widen what its metadata may name either.
 */
export async function serverReach(
  serverUrl: string,
  resolve: Resolver,
  pin?: AddressPin,
): Promise<ServerReach> {
  const host = hostOf(serverUrl);
  if (host === undefined) return 'public';
  if (isLoopback(host)) return 'local';
  const literal = classifyAddress(host);
  if (literal) return literal;
  if (pin?.reach === 'public') return 'public';
  try {
    const all = await resolve(host);
    return all.some((a) => classifyAddress(a.address) === 'public') ? 'public' : 'private';
  } catch {
    return 'public'; // unresolvable: the strictest rule
  }
}

/**
 * The rule for an endpoint a server's metadata names (OAuth authorization, token, registration,
 * revocation, the authorization server's metadata): no further in than the server itself. A
 * public server's metadata may not send Airlock to this computer, the link-local range or the
 * user's network; a server on the network may name the network, one on this computer anything.
 */
export function endpointRule(reach: ServerReach): AddressRule {
  if (reach === 'local') return ANYWHERE;
  if (reach === 'link-local') return { refused: new Set(['local']) };
  if (reach === 'private') return { refused: new Set(['local', 'link-local']) };
  return { refused: new Set(['local', 'link-local', 'private']) };
}

/** A connection refused by an AddressRule. `code` is what network errors carry. */
export class AddressRefused extends Error {
  override name = 'AddressRefused';
  readonly code = 'EADDRREFUSED';
  /**
   * Its message for a name (the connection to a server: literals are never refused there) inside
   * another's text, for a transport that keeps only the text of a failure.
   */
  static readonly pattern =
    /[^\s:]+ resolves to [^\s,]+, which is [^;]*; Airlock does not connect there for an address it did not get from you/;
  constructor(
    readonly host: string,
    readonly address: string,
    readonly cls: AddressClass,
  ) {
    super(
      `${host === address ? address : `${host} resolves to ${address}, which is`} ${PLACE[cls]}; Airlock does not connect there for an address it did not get from you`,
    );
  }
}

const PLACE: Record<AddressClass, string> = {
  local: 'on this computer',
  'link-local': 'a link-local or cloud metadata address',
  private: 'on a private network',
  public: 'public',
};

/** The refusal for an IP-literal host (never looked up, so `guardedLookup` does not see it). */
export function refusedLiteral(hostname: string, rule: AddressRule): AddressRefused | undefined {
  const cls = classifyAddress(hostname);
  if (cls === undefined || !refuses(rule, cls)) return undefined;
  const bare = hostname.replace(/^\[|\]$/g, '');
  return new AddressRefused(bare, bare, cls);
}

/**
 * The refusal for a host that Airlock does not connect to itself — the authorization endpoint,
 * which the user's browser opens: judged on the literal, or on every address the name resolves
 * to now. Not pinned (the browser resolves it again), so a best effort beside the pinned checks.
 */
export async function refusedHost(
  hostname: string,
  rule: AddressRule,
  resolve: Resolver,
): Promise<AddressRefused | undefined> {
  if (rule.refused.size === 0 && !rule.pin) return undefined;
  if (classifyAddress(hostname) !== undefined) return refusedLiteral(hostname, rule);
  let found: ResolvedAddress[];
  try {
    found = await resolve(hostname);
  } catch {
    return undefined; // unresolvable here: the browser will not reach it either
  }
  for (const a of found) {
    const cls = classifyAddress(a.address);
    if (cls && refuses(rule, cls)) return new AddressRefused(hostname, a.address, cls);
  }
  return undefined;
}

/**
 * A node:net `lookup` that resolves with `resolve` and hands the socket only the addresses `rule`
 * allows — every one judged, so whichever the socket tries (happy eyeballs tries several) was
 * judged; the socket connects to nothing but what the lookup gives it (node:net
 * lookupAndConnect). An answer whose every address is refused fails with the first refusal.
 * Refused addresses are dropped rather than failing the whole answer: a LAN name found by
 * multicast DNS (`nas.local`) often answers an IPv6 link-local address beside its IPv4 one, and a
 * rebinding answer mixing a public and a local address still reaches only the public one.
 * Honors `options.all` and `options.family` as dns.lookup does.
 *
 * With a pin that has no class yet (address-pin.ts), only the addresses of the most public class
 * left are handed on — a name answering both 93.184.215.14 and 192.168.1.1 is reached at the
 * public one — so the class the socket connects at is known, and the pin is told it.
 */
export function guardedLookup(rule: AddressRule, resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const family =
          options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const answer =
          family === 4 || family === 6 ? found.filter((a) => a.family === family) : found;
        let refusal: AddressRefused | undefined;
        let all = answer.filter((a) => {
          const cls = classOf(rule, a.address);
          if (!cls || !refuses(rule, cls)) return true;
          refusal ??= new AddressRefused(hostname, a.address, cls);
          return false;
        });
        const pin = rule.pin;
        if (pin && pin.reach === undefined && all.length > 0) {
          const pub = all.filter((a) => classifyAddress(a.address) === 'public');
          if (pub.length > 0) all = pub;
          const cls = classifyAddress(all[0]!.address);
          if (cls) pin.handed(cls);
        }
        if (all.length === 0 && refusal) return callback(refusal, '', 0);
        if (all.length === 0)
          return callback(
            Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
        if (options.all) return callback(null, all);
        callback(null, all[0]!.address, all[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

function hostOf(url: string): string | undefined {
  try {
    const h = new URL(url).hostname;
    return h.startsWith('[') ? h.slice(1, -1) : h;
  } catch {
    return undefined;
  }
}

/** A URL as an error may show it: user info and query values masked (they may be credentials). */
export function maskedUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.username) u.username = '***';
    if (u.password) u.password = '***';
    for (const k of [...new Set(u.searchParams.keys())]) u.searchParams.set(k, '***');
    u.hash = '';
    return u.href.slice(0, 200);
  } catch {
    return '(not a URL)';
  }
}
