import { BlockList, isIP, type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import {
  ANYWHERE,
  type AddressClass,
  connectionRule,
  guardedLookup,
  type AddressRule,
  type Resolver,
} from '../../http/address-guard.js';
import type { Target } from './host-rules.js';

/**
 * Where a listed host may lead (the host-list proxy's address guard). The list is checked on the
 * name, but the socket goes where DNS says: a listed domain that resolves — or is rebound — to
 * 127.0.0.1, the LAN or 169.254.169.254 (cloud metadata) gave a sandboxed server this computer's
 * loopback services and the network the sandbox was cut off from (security audit, wave 3).
 *
 * The remote servers' policy (address-guard.ts connectionRule), with the user's network refused
 * too: an IP literal or `localhost` in the list is the user's own choice and is reached as given;
 * a name may lead only to a public address — not to this computer, link-local or metadata
 * addresses, nor private or unique-local ones (a sandbox with a host list has no network of its
 * own; a LAN host is reached by listing its address). Judged in the socket's own `lookup`
 * (targetLookup, guardedLookup), so the address judged is the address connected to, IPv4-mapped,
 * NAT64 and every other spelling included (address-guard.ts classifyAddress, Node's BlockList),
 * plus the ranges only this proxy refuses (PROXY_PRIVATE) and this computer's own addresses.
 */
export function targetRule(target: Target): AddressRule {
  const given = connectionRule(`http://${target.host}/`);
  if (given === ANYWHERE) return ANYWHERE;
  return { refused: new Set([...given.refused, 'private']) };
}

/**
 * Ranges the host-list proxy calls private although the shared classifier (address-guard.ts, which
 * the remote servers use too) calls them public. The NAT64 local-use prefix 64:ff9b:1::/48 (RFC
 * 8215 §3) is not globally reachable (IANA special-purpose registry): it is the operator's own
 * network, and its embedded IPv4 address sits where the operator's prefix length puts it (RFC 6052
 * §2.2: /48 to /96), which an address does not tell — so a name leading into it may lead anywhere
 * on that network, 127.0.0.1 included. Refused here only: for a remote server a private address is
 * allowed, and changing its class there would change their refusals, reach and pins (review, wave 3).
 */
const PROXY_PRIVATE = new BlockList();
PROXY_PRIVATE.addSubnet('64:ff9b:1::', 48, 'ipv6');

/** This computer's interfaces, as os.networkInterfaces gives them (injected by tests). */
export type Interfaces = () => ReturnType<typeof networkInterfaces>;

/**
 * The `lookup` both of the proxy's connections take (the CONNECT tunnel's net.connect and the
 * plain forward's http.request). A literal is never looked up by node:net; `localhost` resolves
 * through `resolve` unguarded. A refusal fails the connection with an AddressRefused.
 *
 * A name is also refused, as `local`, at any address of this computer's own interfaces — eth0's
 * 10.0.0.5 or 203.0.113.7, a global IPv6 — which the classifier calls private or public: a
 * service bound to 0.0.0.0 or :: answers there as on loopback (review, wave 3). The interfaces
 * are read at each lookup, so an address gained since start (Wi-Fi, VPN) counts.
 */
export function targetLookup(
  target: Target,
  resolve: Resolver,
  interfaces: Interfaces = networkInterfaces,
): LookupFunction {
  const rule = targetRule(target);
  if (rule === ANYWHERE) return guardedLookup(rule, resolve);
  return (hostname, options, callback) => {
    let own: BlockList;
    try {
      own = ownAddresses(interfaces());
    } catch (err) {
      // os.networkInterfaces throws (ERR_SYSTEM_ERROR) when getifaddrs fails, e.g. out of file
      // descriptors (EMFILE). Thrown here it would escape node:net's connect as an uncaught
      // exception and leave the client hanging; without the list a name cannot be judged, so the
      // connection fails instead (the proxy answers 502 with this reason).
      const refused = new InterfacesUnreadable(err);
      return void process.nextTick(() => callback(refused, '', 0));
    }
    const reclass = (a: string, cls: AddressClass): AddressClass => {
      const type = isIP(a) === 4 ? 'ipv4' : 'ipv6';
      if ((cls === 'public' || cls === 'private') && own.check(a, type)) return 'local';
      return cls === 'public' && PROXY_PRIVATE.check(a, type) ? 'private' : cls;
    };
    guardedLookup({ ...rule, reclass }, resolve)(hostname, options, callback);
  };
}

/** The lookup could not read this computer's interfaces, so it did not judge the name. */
export class InterfacesUnreadable extends Error {
  override name = 'InterfacesUnreadable';
  readonly code = 'EINTERFACES';
  constructor(cause: unknown) {
    super(
      `Airlock could not read this computer's network interfaces (${cause instanceof Error ? cause.message : String(cause)}), so it did not connect: a listed name is judged against them`,
      { cause },
    );
  }
}

/**
 * This computer's addresses as a BlockList: each IPv4 one also as IPv4-compatible and NAT64
 * (64:ff9b::/96) IPv6, as address-guard.ts classes them (IPv4-mapped ones BlockList matches
 * itself).
 */
function ownAddresses(all: ReturnType<typeof networkInterfaces>): BlockList {
  const own = new BlockList();
  for (const info of Object.values(all).flat()) {
    if (!info) continue;
    const a = info.address.replace(/%.*$/, '');
    if (isIP(a) === 4) {
      own.addAddress(a, 'ipv4');
      own.addAddress(`::${a}`, 'ipv6');
      own.addAddress(`64:ff9b::${a}`, 'ipv6');
    } else if (isIP(a) === 6) own.addAddress(a, 'ipv6');
  }
  return own;
}

const KIND: Record<AddressClass, string> = {
  local: 'an address of this computer',
  'link-local': 'a link-local or cloud metadata address',
  private: 'a private address',
  public: 'a public address',
};

/**
 * Why a listed name was refused and what the user can do, for the 403's body, the card and the
 * log. For a private address: "resolves to 10.0.0.5, a private address; list 10.0.0.5:443 to allow
 * it" — listing the address is the way through (a literal is the user's own choice, targetRule),
 * and the server must then be pointed at the address too (docs/security.md). For this computer
 * and link-local/metadata addresses no such advice: reaching them from a sandbox is what the guard
 * is for, so the message says it is refused for safety (docs/security.md says how a user who
 * really needs one can still list it).
 */
export function refusalAdvice(address: string, cls: AddressClass, port: number): string {
  if (cls !== 'private') return `resolves to ${address}, ${KIND[cls]}; refused for safety`;
  const entry = isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`;
  return `resolves to ${address}, ${KIND[cls]}; list ${entry} to allow it`;
}
