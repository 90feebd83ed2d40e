import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AddressRefused,
  ANYWHERE,
  classifyAddress,
  guardedLookup,
  type AddressClass,
  type AddressRule,
  type Resolver,
} from './address-guard.js';
import { pinnedFetch } from './pinned-fetch.js';

/**
 * The promise of address-guard.ts: the class a request is judged by is the class of the address
 * its socket connects to, however the address is spelled — IPv4 in decimal, hex, octal or short
 * forms, IPv6 in full, compressed or with an IPv4 tail, IPv4-mapped IPv6, and host names that
 * resolve to any of those.
 */

/** The IPv4 classes by arithmetic: the reference the BlockList ranges are held equal to. */
function referenceV4(n: number): AddressClass {
  const a = n >>> 24;
  const b = (n >>> 16) & 0xff;
  const c = (n >>> 8) & 0xff;
  if (a === 127 || a === 0) return 'local';
  if (a === 169 && b === 254) return 'link-local';
  if (n === 0x646464c8) return 'link-local'; // 100.100.100.200, Alibaba Cloud's metadata
  if (a === 10 || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b >= 64 && b < 128) return 'private';
  if (a === 192 && b === 0 && c === 0) return 'private';
  if (a === 198 && (b === 18 || b === 19)) return 'private';
  if (a >= 224) return 'private';
  return 'public';
}

const bytes = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const hex16 = (n: number) => [(n >>> 16).toString(16), (n & 0xffff).toString(16)];

/** Spellings of one IPv4 address a URL host may take (WHATWG URL "IPv4 parser") and IPv6 ones. */
function spellings(n: number): string[] {
  const [a, b, c, d] = bytes(n) as [number, number, number, number];
  const [hi, lo] = hex16(n) as [string, string];
  return [
    `${a}.${b}.${c}.${d}`,
    String(n),
    `0x${n.toString(16)}`,
    `0${a.toString(8)}.0${b.toString(8)}.0${c.toString(8)}.0${d.toString(8)}`,
    `0x${a.toString(16)}.${b}.${(c << 8) | d}`,
    `${a}.${(b << 16) | (c << 8) | d}`,
    `[::ffff:${a}.${b}.${c}.${d}]`,
    `[::ffff:${hi}:${lo}]`,
    `[0:0:0:0:0:ffff:${hi}:${lo}]`,
    `[::${a}.${b}.${c}.${d}]`,
    `[64:ff9b::${hi}:${lo}]`,
  ];
}

const hostOf = (spelling: string) => {
  const h = new URL(`http://${spelling}/`).hostname;
  return h.startsWith('[') ? h.slice(1, -1) : h;
};

describe('address classes over spellings', () => {
  it('every spelling of an IPv4 address is classed as the address is', () => {
    fc.assert(
      fc.property(fc.nat({ max: 0xffffffff }), (n) => {
        const want = referenceV4(n);
        for (const s of spellings(n)) expect(classifyAddress(hostOf(s)), s).toBe(want);
      }),
      { numRuns: 500 },
    );
  });

  it('IPv6 ranges: loopback, unspecified, link-local, unique local; the rest public', () => {
    const word = fc.integer({ min: 0, max: 0xffff });
    fc.assert(
      fc.property(fc.array(word, { minLength: 8, maxLength: 8 }), (w) => {
        const full = w.map((x) => x.toString(16)).join(':');
        const host = hostOf(`[${full}]`);
        const first = w[0]!;
        let want: AddressClass = 'public';
        if (first >= 0xfe80 && first <= 0xfebf) want = 'link-local';
        else if (full === 'fd00:ec2:0:0:0:0:0:254')
          want = 'link-local'; // AWS metadata
        else if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfec0) want = 'private';
        else if ((first & 0xff00) === 0xff00) want = 'private';
        else if (w.slice(0, 5).every((x) => x === 0) && (w[5] === 0 || w[5] === 0xffff))
          want = referenceV4(((w[6]! << 16) | w[7]!) >>> 0); // compat ::a.b.c.d / mapped
        else if (first === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0))
          want = referenceV4(((w[6]! << 16) | w[7]!) >>> 0); // NAT64
        expect(classifyAddress(host), full).toBe(want);
      }),
      { numRuns: 500 },
    );
  });
});

/** Servers on both loopback families, each answering with the peer address it saw. */
const servers: Server[] = [];
let port4 = 0;
let port6 = 0;
function listen(host: string): Promise<number> {
  const s = createServer((req, res) => res.end(req.socket.remoteAddress));
  servers.push(s);
  return new Promise((r) => s.listen(0, host, () => r((s.address() as AddressInfo).port)));
}
beforeAll(async () => {
  port4 = await listen('127.0.0.1');
  port6 = await listen('::1');
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(() => r(null)))));
});

/** Every spelling of an address on this computer that connects to the servers above. */
const localSpelling = fc.oneof(
  fc.constantFrom(...spellings(0x7f000001).slice(0, 8), '0.0.0.0', '0', '0x0').map((s) => ({
    s,
    v6: false,
  })),
  fc.constantFrom('[::1]', '[0:0:0:0:0:0:0:1]', '[::0:1]', '[::]').map((s) => ({ s, v6: true })),
);

/** What a resolver may answer for a name: canonical or not, either family. */
const localAnswer = fc.constantFrom(
  { address: '127.0.0.1', family: 4, v6: false },
  { address: '0.0.0.0', family: 4, v6: false },
  { address: '::1', family: 6, v6: true },
  { address: '0:0:0:0:0:0:0:1', family: 6, v6: true },
  { address: '::ffff:127.0.0.1', family: 6, v6: false },
  { address: '0:0:0:0:0:ffff:7f00:1', family: 6, v6: false },
);

const STRICT: AddressRule = { refused: new Set(['local', 'link-local', 'private']) };

/** The class the guard refuses a request with, or, where it lets it through, the peer's class. */
async function outcome(url: string, rule: AddressRule, resolve: Resolver) {
  try {
    const r = await pinnedFetch(rule, resolve)(url);
    return { connected: classifyAddress(await r.text()) };
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof AddressRefused) return { refused: cause.cls };
    throw err;
  }
}

describe('the judged address is the connected one', () => {
  it('a literal: refused as local under a strict rule, and what it connects to is local', async () => {
    await fc.assert(
      fc.asyncProperty(localSpelling, async ({ s, v6 }) => {
        const url = `http://${s}:${v6 ? port6 : port4}/`;
        const none: Resolver = () => Promise.reject(new Error('a literal is never looked up'));
        expect(await outcome(url, STRICT, none)).toEqual({ refused: 'local' });
        expect(await outcome(url, ANYWHERE, none)).toEqual({ connected: 'local' });
      }),
      { numRuns: 40 },
    );
  });

  it('a name that resolves to this computer: refused as local, and connects to a local peer', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/),
        localAnswer,
        async (label, { v6, ...answer }) => {
          const url = `http://${label}.rebind.test:${v6 ? port6 : port4}/`;
          const resolve: Resolver = (h) =>
            Promise.resolve(h === `${label}.rebind.test` ? [answer] : []);
          expect(await outcome(url, STRICT, resolve)).toEqual({ refused: 'local' });
          expect(await outcome(url, ANYWHERE, resolve)).toEqual({ connected: 'local' });
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('an answer mixing refused and allowed addresses', () => {
  /** Addresses of every class, in both families. */
  const anyAnswer = fc.constantFrom(
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
    { address: '169.254.169.254', family: 4 },
    { address: 'fe80::1c2:3ff:fe04:506', family: 6 },
    { address: '192.168.1.20', family: 4 },
    { address: 'fd12::20', family: 6 },
    { address: '93.184.215.14', family: 4 },
    { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
  );
  const rules = fc.constantFrom<AddressRule>(
    ANYWHERE,
    { refused: new Set(['local', 'link-local']) },
    STRICT,
  );
  type Answer = { address: string; family: number }[];
  function look(rule: AddressRule, answer: Answer, all: boolean) {
    return new Promise<{ err: Error | null; got: unknown }>((r) =>
      guardedLookup(rule, () => Promise.resolve(answer))('name.test', { all }, (err, got) =>
        r({ err, got }),
      ),
    );
  }

  it('the socket is given exactly the allowed addresses, in order; none allowed is a refusal', async () => {
    await fc.assert(
      fc.asyncProperty(
        rules,
        fc.array(anyAnswer, { minLength: 1, maxLength: 5 }),
        async (rule, answer) => {
          const allowed = answer.filter((a) => !rule.refused.has(classifyAddress(a.address)!));
          const many = await look(rule, answer, true);
          const one = await look(rule, answer, false);
          if (allowed.length === 0) {
            expect(many.err).toBeInstanceOf(AddressRefused);
            expect(one.err).toBeInstanceOf(AddressRefused);
            expect((many.err as AddressRefused).address).toBe(answer[0]!.address);
          } else {
            expect(many).toEqual({ err: null, got: allowed });
            expect(one).toEqual({ err: null, got: allowed[0]!.address });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a LAN name answering IPv6 link-local beside its IPv4 address (multicast DNS) connects by the IPv4 one', async () => {
    const resolve: Resolver = () =>
      Promise.resolve([
        { address: 'fe80::1c2:3ff:fe04:506', family: 6 },
        { address: '127.0.0.1', family: 4 },
      ]);
    // The link-local address refused, the other let through: it reaches the server on 127.0.0.1.
    const rule: AddressRule = { refused: new Set(['link-local']) };
    expect(await outcome(`http://nas.local:${port4}/`, rule, resolve)).toEqual({
      connected: 'local',
    });
  });
});

describe('cloud metadata services outside 169.254/16', () => {
  it.each([
    ['fd00:ec2::254', 'AWS IMDS over IPv6'],
    ['fd00:ec2:0:0:0:0:0:254', 'AWS IMDS over IPv6, spelled out'],
    ['100.100.100.200', 'Alibaba Cloud'],
    ['::ffff:100.100.100.200', 'Alibaba Cloud, IPv4-mapped'],
  ])('%s (%s) is refused wherever link-local addresses are', async (address) => {
    expect(classifyAddress(address)).toBe('link-local');
    // A name the user added may lead to the network, not to a metadata service.
    const rule: AddressRule = { refused: new Set(['local', 'link-local']) };
    const family = address.includes(':') ? 6 : 4;
    const resolve: Resolver = () => Promise.resolve([{ address, family }]);
    expect(await outcome(`http://metadata.test:${port4}/`, rule, resolve)).toEqual({
      refused: 'link-local',
    });
  });
  it('the rest of fd00::/8 and 100.64/10 stays the user network', () => {
    expect(classifyAddress('fd00:ec2::253')).toBe('private');
    expect(classifyAddress('100.100.100.100')).toBe('private');
  });
});
