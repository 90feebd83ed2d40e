import { domainToASCII } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalAddress, canonicalHost, hostAndParents, unveil } from './identity.js';
import { KnownParties } from './known-parties.js';
import { destinationsOf } from './destinations.js';
import { extractValues } from './values.js';

// Issue 30: one normalisation of who and where, used by the circle, the index and the check.

describe('identity', () => {
  it('normalises addresses once: case, +tags, Gmail dots, googlemail.com, IDN, trailing dots, quotes, invisibles', () => {
    expect(canonicalAddress('Bill.Ing+Q3@GoogleMail.com.')).toBe('billing@gmail.com');
    expect(canonicalAddress('bil\u200Bl.ing@gmail.com')).toBe('billing@gmail.com');
    expect(canonicalAddress('partner+news@Acme.Test')).toBe('partner@acme.test');
    // Dots matter outside Gmail.
    expect(canonicalAddress('j.doe@outlook.com')).toBe('j.doe@outlook.com');
    // IDN as punycode, by the algorithm fetch and the mail path use (WHATWG domainToASCII).
    const bank = `billing@${domainToASCII('b\u00e4nk.test')}`;
    expect(bank).toMatch(/^billing@xn--/);
    expect(canonicalAddress('billing@b\u00e4nk.test')).toBe(bank);
    expect(canonicalAddress('billing@BÄNK.test')).toBe(bank);
    expect(canonicalAddress('"eve.x"@evil.test')).toBe('eve.x@evil.test');
    expect(canonicalAddress('no-at-sign')).toBe('');
    expect(canonicalHost('WWW.Evil.Example.')).toBe('www.evil.example');
  });

  it('unveils what a reader sees as an address', () => {
    for (const written of [
      'billing%40evil.test',
      'billing&#64;evil&#46;test',
      'billing&commat;evil.test',
      'billing\uFF20evil.test',
      'billing\uFE6Bevil.test',
      'bill\u200Bing@evil.test',
      'billing [at] evil [dot] test',
      'billing(at)evil.test',
      'billing @ evil.test',
      'billing@evil[.]test',
    ])
      expect(
        extractValues(`Please write to ${written} today.`)
          .filter((v) => v.kind === 'email')
          .map((v) => v.value),
        written,
      ).toEqual(['billing@evil.test']);
    expect(unveil('hxxps://drop.evil.test/u')).toBe('https://drop.evil.test/u');
    // Plain text is left alone.
    expect(unveil('Lunch at 1? 50% off.')).toBe('Lunch at 1? 50% off.');
  });

  it('relates a host to its parent domains, never to a bare TLD or a registry suffix', () => {
    expect(hostAndParents('mail.billing.evil.test')).toEqual([
      'mail.billing.evil.test',
      'billing.evil.test',
      'evil.test',
    ]);
    expect(hostAndParents('www.shop.co.uk')).toEqual(['shop.co.uk']);
    expect(hostAndParents('evil.test')).toEqual(['evil.test']);
  });

  it("counts a colleague on the organisation's sub-domain as known, and a lookalike as not", () => {
    const known = new KnownParties();
    known.addOwnAccount('me@example.com');
    known.seed('address', 'Sam.Jones@gmail.com');
    expect(known.isKnownAddress('dan@eu.example.com')).toBe(true);
    expect(known.isKnownAddress('x@example.com.evil.test')).toBe(false);
    expect(known.isKnownAddress('samjones+work@googlemail.com')).toBe(true);
    expect(known.isKnownHost('docs.example.com')).toBe(true);
    expect(known.isOwnAddress('ME+x@example.com')).toBe(true);
    // A public provider is nobody's organisation.
    const gmailUser = new KnownParties();
    gmailUser.addOwnAccount('someone@gmail.com');
    expect(gmailUser.isKnownAddress('stranger@gmail.com')).toBe(false);
  });
});

// The same address, written any way a mail can write it, has one key in content and in a call.
const local = fc.stringMatching(/^[a-z][a-z0-9]{1,8}(\.[a-z0-9]{1,6})?$/);
// No "xn--" labels: that prefix declares punycode (RFC 5891 §4.2.3.1) and a random tail is an
// invalid name, which is not what this property is about (host-rules.test.ts checks refusal).
const label = fc
  .stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/)
  .filter((l) => !l.startsWith('xn--'));
const host = fc
  .tuple(
    fc.array(label, { minLength: 1, maxLength: 3 }),
    fc.constantFrom('test', 'example', 'org', 'de'),
  )
  .map(([ls, tld]) => `${ls.join('.')}.${tld}`);
const written = fc.constantFrom<((a: string) => string)[]>(
  (a) => a,
  (a) => a.toUpperCase(),
  (a) => a.replace('@', '%40'),
  (a) => a.replace('@', '&#64;'),
  (a) => a.replace('@', '\uFF20'),
  (a) => a.replace('@', ' [at] '),
  (a) => `${a[0]}\u200B${a.slice(1)}`,
  (a) => a.replace('@', '+promo@'),
);

describe('one key for content and call (property)', () => {
  it('an address written in a mail and the same address given to a send have the same key', () => {
    fc.assert(
      fc.property(local, host, written, (l, h, w) => {
        const address = `${l}@${h}`;
        const inContent = extractValues(`Hello,\nplease send it to ${w(address)} by Friday.`)
          .filter((v) => v.kind === 'email')
          .map((v) => v.value);
        const inCall = destinationsOf({ to: [address] }).map((d) => d.value);
        expect(inContent).toEqual(inCall);
      }),
      { numRuns: 300 },
    );
  });

  it("a link's host is the host WHATWG URL (what fetch uses) resolves, however it is written", () => {
    const tricky = fc.constantFrom(
      (h: string) => `https://${h}/p?q=1`,
      (h: string) => `https://${h.toUpperCase()}./x`,
      (h: string) => `https://user:pw@${h}:8443/x`,
      (h: string) => `https://${h}\\@other.test/`,
      (h: string) => `http://${h}#frag`,
    );
    fc.assert(
      fc.property(host, tricky, (h, make) => {
        const url = make(h);
        const found = extractValues(`see ${url} now`).filter((v) => v.kind === 'url');
        expect(found).toHaveLength(1);
        const fetched = canonicalHost(new URL(url.replace(/[.,;:!?*]+$/, '')).hostname);
        expect(new URL(found[0]!.value).hostname).toBe(fetched);
      }),
      { numRuns: 200 },
    );
  });
});
