import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AddressRefused,
  connectionRule,
  guardedLookup,
  serverReach,
  type Resolver,
} from './address-guard.js';
import { AddressPin, type PinnedReach } from './address-pin.js';

/**
 * The promise of address-pin.ts, over generated answers: a name recorded `public` is never handed
 * an address on the user's network, however the answer spells it (IPv4, IPv4-mapped IPv6 dotted
 * or in hex, IPv4-compatible, NAT64, unique-local IPv6, CGNAT …); recorded `private`, those
 * addresses are handed on; not recorded yet, an answer with a public address is reached at the
 * public ones only, and the pin learns the class it was handed. The private ranges are written
 * here by arithmetic, not read from address-guard.ts's table.
 */

/** IPv4 private ranges (RFC 1918, RFC 6598, 192.0.0/24, 198.18/15, multicast and reserved). */
const PRIVATE_V4: [number, number][] = [
  [0x0a000000, 8],
  [0xac100000, 12],
  [0xc0a80000, 16],
  [0x64400000, 10],
  [0xc0000000, 24],
  [0xc6120000, 15],
  [0xe0000000, 4],
  [0xf0000000, 4],
];
const ALIBABA = 0x646464c8; // 100.100.100.200: inside 100.64/10, but a metadata service

const privateV4 = fc
  .tuple(fc.constantFrom(...PRIVATE_V4), fc.nat({ max: 0xffffffff }))
  .map(([[net, bits], r]) => (net | (r >>> bits)) >>> 0)
  .filter((n) => n !== ALIBABA);

const dotted = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff].join('.');
const hex = (n: number) => `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;

/** One private IPv4 address as a resolver may answer it, either family. */
const v4Spelled = fc.tuple(privateV4, fc.integer({ min: 0, max: 5 })).map(([n, k]) => {
  const spelled = [
    dotted(n),
    `::ffff:${dotted(n)}`,
    `::ffff:${hex(n)}`,
    `0:0:0:0:0:ffff:${hex(n)}`,
    `::${dotted(n)}`,
    `64:ff9b::${hex(n)}`,
  ][k]!;
  return { address: spelled, family: k === 0 ? 4 : 6 };
});

/** Unique-local (fc00::/7, AWS's metadata address aside), site-local and multicast IPv6. */
const v6Private = fc
  .tuple(
    fc.constantFrom(0xfc00, 0xfd00, 0xfec0, 0xff00),
    fc.integer({ min: 0, max: 0xff }),
    fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 7, maxLength: 7 }),
    fc.boolean(),
  )
  .map(([top, low, rest, upper]) => {
    const first = top === 0xfec0 ? top | (low & 0x3f) : top | low;
    const full = [first, ...rest].map((w) => w.toString(16)).join(':');
    return { address: upper ? full.toUpperCase() : full, family: 6 };
  })
  .filter((a) => a.address.toLowerCase() !== 'fd00:ec2:0:0:0:0:0:254');

const lanAnswer = fc.oneof(v4Spelled, v6Private);

/** Public addresses (documentation and well-known hosts' ranges outside every special range). */
const publicAnswer = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1, max: 9 }), fc.nat({ max: 0xffffff }))
    .map(([a, r]) => ({ address: dotted(((a << 24) | r) >>> 0), family: 4 })),
  fc
    .array(fc.integer({ min: 0, max: 0xffff }), { minLength: 7, maxLength: 7 })
    .map((w) => ({ address: ['2606', ...w.map((x) => x.toString(16))].join(':'), family: 6 })),
);

type Answer = { address: string; family: number }[];

function look(pin: AddressPin, answer: Answer) {
  const rule = connectionRule('https://mcp.example.test/mcp', pin);
  return new Promise<{ err: Error | null; got: Answer }>((r) =>
    guardedLookup(rule, () => Promise.resolve(answer))(
      'mcp.example.test',
      { all: true },
      (err, got) => r({ err, got: (got ?? []) as Answer }),
    ),
  );
}

const isLan = (a: { address: string }, lans: Answer) => lans.some((l) => l.address === a.address);

describe('a pinned name over generated answers', () => {
  it('recorded public: no LAN address is handed on; an all-LAN answer is refused as private', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(lanAnswer, { minLength: 1, maxLength: 4 }),
        fc.array(publicAnswer, { maxLength: 2 }),
        fc.boolean(),
        async (lans, pubs, lanFirst) => {
          const answer = lanFirst ? [...lans, ...pubs] : [...pubs, ...lans];
          const { err, got } = await look(new AddressPin('public'), answer);
          if (pubs.length === 0) {
            expect(err).toBeInstanceOf(AddressRefused);
            expect((err as AddressRefused).cls).toBe('private');
          } else {
            expect(err).toBeNull();
            expect(got).toEqual(pubs);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('recorded private: LAN and public addresses alike are handed on, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(lanAnswer, publicAnswer), { minLength: 1, maxLength: 5 }),
        async (answer) => {
          expect(await look(new AddressPin('private'), answer)).toEqual({ err: null, got: answer });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('not recorded: the most public class in the answer is handed on, and the pin learns it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(lanAnswer, { maxLength: 3 }),
        fc.array(publicAnswer, { maxLength: 3 }),
        fc.boolean(),
        async (lans, pubs, lanFirst) => {
          fc.pre(lans.length + pubs.length > 0);
          const kept: PinnedReach[] = [];
          const pin = new AddressPin(undefined, (r) => kept.push(r));
          const answer = lanFirst ? [...lans, ...pubs] : [...pubs, ...lans];
          const { err, got } = await look(pin, answer);
          expect(err).toBeNull();
          const want: PinnedReach = pubs.length > 0 ? 'public' : 'private';
          expect(got).toEqual(want === 'public' ? pubs : lans);
          expect(got.every((a) => isLan(a, lans) === (want === 'private'))).toBe(true);
          // A public hand decides at once (stricter); a LAN hand loosens nothing until a
          // connection on it succeeded (the next test).
          expect(pin.reach).toBe(want === 'public' ? 'public' : undefined);
          // Kept only once a connection succeeded, and only once.
          expect(kept).toEqual([]);
          pin.connected();
          pin.connected();
          expect(kept).toEqual([want]);
          expect(pin.reach).toBe(want);
          // Decided: a later all-LAN answer after a public first one is refused.
          const later = await look(pin, lans.length ? lans : [{ address: '10.0.0.1', family: 4 }]);
          if (want === 'public') expect((later.err as AddressRefused).cls).toBe('private');
          else expect(later.err).toBeNull();
        },
      ),
      { numRuns: 400 },
    );
  });

  it('not recorded: a LAN hand of a failed attempt is not what a later public success records', async () => {
    // An attacker answers a LAN address first (the attempt fails there: no MCP server), then its
    // own public server, which connects. Recording "private" then would open the LAN to that
    // name for good; the class recorded is public if any socket of the run was handed public.
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(lanAnswer, publicAnswer), { minLength: 1, maxLength: 4 }),
        fc.array(publicAnswer, { minLength: 1, maxLength: 2 }),
        async (before, pubs) => {
          const kept: PinnedReach[] = [];
          const pin = new AddressPin(undefined, (r) => kept.push(r));
          // Earlier look-ups of the run (failed attempts, sign-in requests), one answer each.
          for (const a of before) await look(pin, [a]);
          await look(pin, pubs);
          pin.connected();
          expect(kept).toEqual(['public']);
          const later = await look(pin, [{ address: '192.168.1.1', family: 4 }]);
          expect((later.err as AddressRefused | null)?.cls).toBe('private');
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a public server's OAuth endpoints stay judged as public however its name resolves now", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(lanAnswer, { minLength: 1, maxLength: 3 }), async (lans) => {
        const resolve: Resolver = () => Promise.resolve(lans);
        const url = 'https://mcp.example.test/mcp';
        expect(await serverReach(url, resolve)).toBe('private');
        expect(await serverReach(url, resolve, new AddressPin('public'))).toBe('public');
        expect(await serverReach(url, resolve, new AddressPin('private'))).toBe('private');
      }),
      { numRuns: 100 },
    );
  });

  it('a URL naming an IP or localhost is taken as given: no pin applies', () => {
    for (const url of [
      'http://192.168.1.20:8080/mcp',
      'http://[fd00::2]/mcp',
      'http://localhost/mcp',
    ])
      expect(connectionRule(url, new AddressPin('public')).pin).toBeUndefined();
  });
});
