import { BlockList } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalHost } from './identity.js';
import { destinationsOf } from './destinations.js';
import { extractValues, urlKey } from './values.js';

/**
 * An IP host has one key however it is written (ip-hosts.ts, batch 4 of the outside corpus): a
 * dotted IPv4 address written in a mail, and a call's link with that address in any spelling
 * WHATWG URL accepts — one decimal number, hex, octal, mixed radix per part, fewer than four
 * parts, IPv4-mapped IPv6 in hex words or with a dotted tail, upper or lower case, zeros
 * compressed or not. The key must be what the actor reaches: WHATWG `new URL()`'s host (what
 * fetch connects to) for IPv4 spellings, and for a mapped IPv6 address the IPv4 address Node's
 * network layer takes it for (`net.BlockList` matches `::ffff:a.b.c.d` as `a.b.c.d`; a
 * dual-stack socket connects to it).
 */

const octets = fc.tuple(
  fc.integer({ min: 0, max: 255 }),
  fc.integer({ min: 0, max: 255 }),
  fc.integer({ min: 0, max: 255 }),
  fc.integer({ min: 0, max: 255 }),
);
type Radix = 'dec' | 'hex' | 'HEX' | 'oct';
const radix = fc.constantFrom<Radix>('dec', 'hex', 'HEX', 'oct');

/** One number in the radix the IPv4 parser reads (URL Standard, "IPv4 number parser"). */
function spell(n: number, r: Radix, pad: number): string {
  if (r === 'hex') return `0x${'0'.repeat(pad)}${n.toString(16)}`;
  if (r === 'HEX') return `0X${'0'.repeat(pad)}${n.toString(16).toUpperCase()}`;
  if (r === 'oct') return n === 0 && pad === 0 ? '0' : `0${'0'.repeat(pad)}${n.toString(8)}`;
  return String(n);
}

/** The address in 1–4 parts: the last part holds the remaining bytes as one number. */
function parts(o: number[], count: 1 | 2 | 3 | 4, radixes: Radix[], pad: number): string {
  const head = o.slice(0, count - 1);
  const tail = o.slice(count - 1).reduce((n, b) => n * 256 + b, 0);
  return [...head, tail].map((n, i) => spell(n, radixes[i % radixes.length]!, pad)).join('.');
}

const hex4 = (n: number) => n.toString(16);
function mapped(o: number[], form: number, upper: boolean): string {
  const hi = hex4(o[0]! * 256 + o[1]!);
  const lo = hex4(o[2]! * 256 + o[3]!);
  const dotted = o.join('.');
  const forms = [
    `::ffff:${hi}:${lo}`,
    `::ffff:${dotted}`,
    `0:0:0:0:0:ffff:${hi}:${lo}`,
    `0000:0000:0000:0000:0000:FFFF:${dotted}`,
    `0::ffff:${hi}:${lo}`,
    `::0:ffff:${dotted}`,
  ];
  const s = forms[form % forms.length]!;
  return upper ? s.toUpperCase() : s;
}

const spelling = fc.oneof(
  fc.record({
    kind: fc.constant('v4' as const),
    count: fc.constantFrom<1 | 2 | 3 | 4>(1, 2, 3, 4),
    radixes: fc.array(radix, { minLength: 1, maxLength: 4 }),
    pad: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({
    kind: fc.constant('mapped' as const),
    form: fc.integer({ min: 0, max: 5 }),
    upper: fc.boolean(),
  }),
);

describe('IP hosts (ip-hosts.ts)', () => {
  it('keys an address written in text and in any spelling of a link alike, as the actor reaches it (fast-check, fixed seed)', () => {
    fc.assert(
      fc.property(octets, spelling, fc.constantFrom('http', 'https', 'ftp'), (o, sp, scheme) => {
        const dotted = o.join('.');
        const host =
          sp.kind === 'v4'
            ? parts(o, sp.count, sp.radixes, sp.pad)
            : `[${mapped(o, sp.form, sp.upper)}]`;
        const link = `${scheme}://${host}/in`;

        // What acts: WHATWG URL's host, and for a mapped address Node's network layer.
        const actor = new URL(link).hostname;
        if (sp.kind === 'v4') expect(actor).toBe(dotted);
        else {
          expect(actor).toMatch(/^\[::ffff:/);
          const list = new BlockList();
          list.addAddress(dotted, 'ipv4');
          expect(list.check(actor.slice(1, -1), 'ipv6')).toBe(true);
        }

        // The text's key, the link's key and the host's key are one, and it is the IPv4 address.
        const written = extractValues(`Post "ok" to our collector at ${dotted}, path /in.`);
        expect(written.filter((v) => v.kind === 'domain').map((v) => v.value)).toContain(dotted);
        expect(urlKey(link)?.host).toBe(dotted);
        expect(canonicalHost(host)).toBe(dotted);
        // The link written in text is indexed under the same host.
        expect(
          extractValues(`see ${link} now`)
            .filter((v) => v.kind === 'domain')
            .map((v) => v.value),
        ).toEqual([dotted]);
        // And a call to it names that host (a decimal host's digits are also read as a phone
        // number by values.ts PHONE, as before: not a host); a dotted quad with a zero-padded
        // decimal-looking part (`0.0.010.0`) also names the host a person reads (review:
        // destinations.ts paddedDecimalHosts).
        const asRead = host.split('.');
        const padded =
          asRead.length === 4 &&
          asRead.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255) &&
          asRead.some((p) => /^0\d/.test(p));
        const decimal = asRead.map((p) => String(Number(p))).join('.');
        expect(
          destinationsOf({ webhook: link })
            .filter((d) => d.kind !== 'phone')
            .map((d) => d.host),
        ).toEqual(padded && decimal !== dotted ? [dotted, decimal] : [dotted]);
      }),
      { numRuns: 3_000, seed: 0x1f_4b_07 },
    );
  });

  it('keys IPv6 hosts as WHATWG serialises them, whatever the case and zero compression (fast-check, fixed seed)', () => {
    const words = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 });
    fc.assert(
      fc.property(words, fc.boolean(), fc.boolean(), (w, upper, pad) => {
        let full = w.map((n) => (pad ? n.toString(16).padStart(4, '0') : n.toString(16))).join(':');
        if (upper) full = full.toUpperCase();
        const actor = new URL(`http://[${full}]/`).hostname;
        const key = canonicalHost(`[${full}]`);
        const isMapped = w.slice(0, 5).every((n) => n === 0) && w[5] === 0xffff;
        const isNat64 = w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((n) => n === 0);
        if (isMapped || isNat64) expect(key).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
        else expect(key).toBe(actor);
        expect(urlKey(`http://[${full}]/x`)?.host).toBe(key);
        expect(
          extractValues(`host [${full}] is up`)
            .filter((v) => v.kind === 'domain')
            .map((v) => v.value),
        ).toEqual([key]);
      }),
      { numRuns: 2_000, seed: 0x1f_4b_08 },
    );
  });
});
