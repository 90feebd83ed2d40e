import { BlockList, isIP } from 'node:net';

/**
 * An oracle for the address guards' tests, written apart from the classifier
 * (main/remote/http/address-guard.ts): the IANA IPv4/IPv6 Special-Purpose Address Registries
 * (RFC 6890 and its updates) and the multicast ranges, each with the class Airlock's policy gives
 * it, matched with Node's BlockList. An address that embeds an IPv4 address — IPv4-mapped
 * (::ffff:0:0/96), IPv4-compatible (::/96, RFC 4291 §2.5.5.1) or NAT64 well-known (64:ff9b::/96,
 * RFC 6052) — is judged by the IPv4 address it carries, extracted here from the address's own
 * 16 bytes (not by the classifier's rules).
 *
 * `unspecified` (0.0.0.0, ::) is reported apart: connecting to it reaches this computer, so the
 * guard refuses it as `local`. `public` rows are special-purpose ranges the policy does not refuse,
 * with the reason.
 */
export type OracleClass = 'local' | 'link-local' | 'private' | 'unspecified' | 'public';

export interface Range {
  cls: OracleClass;
  net: string;
  bits: number;
  family: 4 | 6;
  what: string;
}

const r = (cls: OracleClass, cidr: string, what: string): Range => {
  const [net, bits] = cidr.split('/') as [string, string];
  return { cls, net, bits: Number(bits), family: isIP(net) === 4 ? 4 : 6, what };
};

/** Checked most specific first: the first row containing an address gives its class. */
export const RANGES: readonly Range[] = [
  // IPv4
  r('unspecified', '0.0.0.0/32', 'this host on this network (RFC 1122)'),
  r('local', '0.0.0.0/8', 'this network (RFC 791): Linux connects 0.x to this computer'),
  r('local', '127.0.0.0/8', 'loopback (RFC 1122)'),
  r('link-local', '169.254.0.0/16', 'link-local (RFC 3927), cloud metadata 169.254.169.254'),
  r('link-local', '100.100.100.200/32', 'Alibaba Cloud metadata (policy: with link-local)'),
  r('private', '10.0.0.0/8', 'private-use (RFC 1918)'),
  r('private', '172.16.0.0/12', 'private-use (RFC 1918)'),
  r('private', '192.168.0.0/16', 'private-use (RFC 1918)'),
  r('private', '100.64.0.0/10', 'shared address space, carrier-grade NAT (RFC 6598)'),
  r('private', '192.0.0.0/24', 'IETF protocol assignments (RFC 6890)'),
  r('private', '198.18.0.0/15', 'benchmarking (RFC 2544)'),
  r('private', '224.0.0.0/4', 'multicast (RFC 5771)'),
  r('private', '240.0.0.0/4', 'reserved (RFC 1112), limited broadcast 255.255.255.255'),
  r('public', '192.0.2.0/24', 'documentation TEST-NET-1 (RFC 5737): not routed, policy leaves it'),
  r('public', '198.51.100.0/24', 'documentation TEST-NET-2 (RFC 5737): as above'),
  r('public', '203.0.113.0/24', 'documentation TEST-NET-3 (RFC 5737): as above'),
  r('public', '192.88.99.0/24', '6to4 relay anycast (RFC 7526, deprecated): globally routed'),
  // IPv6 (the IPv4-embedding prefixes are handled by `embedded`)
  r('local', '::1/128', 'loopback (RFC 4291)'),
  r('unspecified', '::/128', 'unspecified (RFC 4291)'),
  r('link-local', 'fd00:ec2::254/128', 'AWS instance metadata over IPv6 (policy: with link-local)'),
  r('link-local', 'fe80::/10', 'link-local unicast (RFC 4291)'),
  r('private', 'fc00::/7', 'unique local (RFC 4193)'),
  r('private', 'fec0::/10', 'site-local (RFC 3879, deprecated)'),
  r('private', 'ff00::/8', 'multicast (RFC 4291)'),
  r('private', '64:ff9b:1::/48', 'NAT64 local-use (RFC 8215): IPv4 position unknown'),
  r('public', '100::/64', 'discard-only (RFC 6666): nothing answers, policy leaves it'),
  r('public', '2001:db8::/32', 'documentation (RFC 3849): not routed, policy leaves it'),
  r('public', '2001::/23', 'IETF protocol assignments (Teredo, ORCHID, …): policy leaves them'),
  // 6to4 embeds an IPv4 address (2002:7f00:1:: holds 127.0.0.1), but the packet goes out as IPv6
  // to a 6to4 relay, never to that IPv4 address on this computer (RFC 3056; its security section has
  // routers drop embedded private/loopback ones); RFC 7526 deprecated the relays. Left public.
  r('public', '2002::/16', '6to4 (RFC 3056, RFC 7526): routed as IPv6 to a relay'),
];

const lists = RANGES.map((x) => {
  const b = new BlockList();
  b.addSubnet(x.net, x.bits, x.family === 4 ? 'ipv4' : 'ipv6');
  return { x, b };
});

/** The 16 bytes of an IPv6 address (with or without a dotted IPv4 tail), written out here. */
export function v6Bytes(address: string): number[] {
  let a = address;
  const tail: number[] = [];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (dotted) {
    tail.push(...dotted.slice(1).map(Number));
    a = a.slice(0, dotted.index) + '0:0';
  }
  const [head, rest] = a.includes('::') ? a.split('::') : [a, undefined];
  const hw = head ? head.split(':') : [];
  const rw = rest ? rest.split(':') : [];
  const words = [...hw, ...Array<string>(8 - hw.length - rw.length).fill('0'), ...rw];
  const bytes = words.flatMap((w) => {
    const n = parseInt(w, 16);
    return [n >> 8, n & 0xff];
  });
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** The IPv4 address an IPv6 one carries by a translation the socket would follow, if any. */
export function embedded(address: string): string | undefined {
  const b = v6Bytes(address);
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const mapped = zero(0, 10) && b[10] === 0xff && b[11] === 0xff;
  const compatible = zero(0, 12);
  const nat64 = b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12);
  return mapped || compatible || nat64 ? b.slice(12).join('.') : undefined;
}

/** The oracle's class of an IP address (as isIP accepts it), or undefined for a non-IP. */
export function oracleClass(address: string): OracleClass | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  if (family === 6) {
    const exact = lists.find(({ x, b }) => x.bits === 128 && b.check(address, 'ipv6'));
    if (exact) return exact.x.cls;
    const v4 = embedded(address);
    if (v4 !== undefined) return oracleClass(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const hit = lists.find(({ x, b }) => x.family === family && b.check(address, type));
  return hit ? hit.x.cls : 'public';
}

/** The classes the host-list proxy refuses a listed name's address for. */
export const REFUSED_BY_HOST_PROXY: ReadonlySet<OracleClass> = new Set([
  'local',
  'link-local',
  'private',
  'unspecified',
]);
