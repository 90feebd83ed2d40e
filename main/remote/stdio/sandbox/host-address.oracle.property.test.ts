import { isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AddressRefused } from '../../http/address-guard.js';
import { stubResolver } from '../../../../test-support/host-proxy-sockets.js';
import {
  oracleClass,
  RANGES,
  REFUSED_BY_HOST_PROXY,
  type Range,
} from '../../../../test-support/special-purpose-addresses.js';
import { targetLookup } from './host-address.js';

/**
 * The host-list proxy's guard against an oracle it does not share code with: the special-purpose
 * address table of test-support/special-purpose-addresses.ts (IANA registries, RFC 6890), matched
 * with Node's BlockList, the embedded IPv4 of mapped/compatible/NAT64 addresses read from the
 * address's bytes. Addresses are generated inside each range and just outside it (one below, one
 * past the end), spelled as IPv4, IPv4-mapped, IPv4-compatible and NAT64, or as IPv6 in full or
 * compressed form. The guard must refuse exactly what the oracle calls local, link-local, private
 * or unspecified, as the class it names. Tuning seed 3701; held-out: seeds 3711–3712 of the same
 * generators and fast-check's own ipV4/ipV6 (another generator), never tuned on.
 */

const HOST = 'api.vendor.test';

/** What the guard does with a name answering `address`: the class it refuses it as, or `handed`. */
function guard(address: string): Promise<string> {
  const lookup = targetLookup(
    { host: HOST, port: 443 },
    stubResolver(HOST, [{ address, family: isIP(address) }]),
    () => ({}), // no interfaces: this computer's own addresses are another test's matter
  );
  return new Promise((resolve) =>
    lookup(HOST, {}, (err, got) => {
      if (err instanceof AddressRefused) return resolve(err.cls);
      if (err) return resolve(`error ${err.message}`);
      resolve(got === address ? 'handed' : `handed ${String(got)}`);
    }),
  );
}

function expected(address: string): string {
  const cls = oracleClass(address)!;
  if (!REFUSED_BY_HOST_PROXY.has(cls)) return 'handed';
  return cls === 'unspecified' ? 'local' : cls;
}

// ---- generators: inside and just outside every range, in every spelling ----

const V4_SIZE = 2 ** 32;
const dotted = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff].join('.');
const v4Int = (s: string) => s.split('.').reduce((a, o) => a * 256 + Number(o), 0);
const hex = (n: number) => n.toString(16);

/** An IPv4 address as a resolver may give it, plain or inside IPv6. */
function v4Spelled(n: number, how: number): string {
  const d = dotted(n);
  const words = `${hex(Math.floor(n / 65536))}:${hex(n % 65536)}`;
  return [d, `::ffff:${d}`, `::ffff:${words}`, `::${d}`, `64:ff9b::${d}`, `64:ff9b::${words}`][
    how % 6
  ]!;
}

const V6_BITS = 128n;
function v6Int(s: string): bigint {
  const full = new URL(`http://[${s}]/`).hostname.slice(1, -1); // compressed, then expanded below
  const [head, rest] = full.includes('::') ? full.split('::') : [full, undefined];
  const hw = head ? head.split(':') : [];
  const rw = rest ? rest.split(':') : [];
  const words = [...hw, ...Array<string>(8 - hw.length - rw.length).fill('0'), ...rw];
  return words.reduce((a, w) => (a << 16n) | BigInt(parseInt(w, 16)), 0n);
}
function v6Spelled(n: bigint, how: number): string {
  const m = ((n % (1n << V6_BITS)) + (1n << V6_BITS)) % (1n << V6_BITS);
  const words = Array.from({ length: 8 }, (_, i) =>
    ((m >> BigInt(112 - 16 * i)) & 0xffffn).toString(16),
  );
  const full = words.join(':');
  const compressed = new URL(`http://[${full}]/`).hostname.slice(1, -1);
  return [full, compressed, compressed.toUpperCase()][how % 3]!;
}

/** An address inside `range` (offset as drawn), one just below it, or one just past it. */
function around(range: Range, offset: bigint, where: number, how: number): string {
  const size = 1n << BigInt((range.family === 4 ? 32 : 128) - range.bits);
  const at = where === 0 ? offset % size : where === 1 ? -1n : size;
  if (range.family === 4) {
    const n = (((v4Int(range.net) + Number(at)) % V4_SIZE) + V4_SIZE) % V4_SIZE;
    return v4Spelled(n, how);
  }
  return v6Spelled(v6Int(range.net) + at, how);
}

const offset = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n });
const aroundRanges = fc
  .tuple(fc.constantFrom(...RANGES), offset, fc.nat({ max: 2 }), fc.nat())
  .map(([range, o, where, how]) => around(range, o, where, how));
const anywhere = fc.oneof(
  fc.tuple(fc.nat({ max: V4_SIZE - 1 }), fc.nat()).map(([n, how]) => v4Spelled(n, how)),
  fc.tuple(offset, fc.nat()).map(([n, how]) => v6Spelled(n, how)),
);
const generated = fc.oneof(
  { arbitrary: aroundRanges, weight: 4 },
  { arbitrary: anywhere, weight: 1 },
);
const heldOutGenerator = fc.oneof(fc.ipV4(), fc.ipV6());

async function guardIsOracle(addresses: fc.Arbitrary<string>, seed: number, numRuns: number) {
  await fc.assert(
    fc.asyncProperty(addresses, async (address) => {
      expect(await guard(address), address).toBe(expected(address));
    }),
    { seed, numRuns },
  );
}

describe('the host-list guard refuses exactly the special-purpose ranges the oracle refuses', () => {
  it('the oracle is sane on fixed cases (its own check)', () => {
    const cases: [string, string][] = [
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['172.32.0.0', 'public'],
      ['::ffff:172.20.1.1', 'private'],
      ['64:ff9b::ac10:1', 'private'],
      ['::127.0.0.1', 'local'],
      ['::', 'unspecified'],
      ['0.0.0.0', 'unspecified'],
      ['fd00:ec2::254', 'link-local'],
      ['64:ff9b:1::1', 'private'],
      ['8.8.8.8', 'public'],
    ];
    for (const [a, cls] of cases) expect(oracleClass(a), a).toBe(cls);
  });
  it('inside and around every range, every spelling (tuning seed)', () =>
    guardIsOracle(generated, 3701, 3000));
  it('held-out: the same generators on other seeds', async () => {
    for (const seed of [3711, 3712]) await guardIsOracle(generated, seed, 2000);
  });
  it('held-out: fast-check’s ipV4 and ipV6 (another generator), never tuned on', () =>
    guardIsOracle(heldOutGenerator, 3721, 3000));
});
