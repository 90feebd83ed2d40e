import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GrantConstraint } from '../../common/contract/index.js';
import { destinationsOf } from '../provenance/destinations.js';
import { hostsIn, inDomain } from './addresses.js';
import { checkConstraint } from './constraint.js';
import { constraintHolds, fitsScope, grantRecord } from './grant-scope.js';

/**
 * Security finding F3 on the grant side: a third-party tool's `domain` grant covers a call only
 * when every link in its arguments is in the domain — a link as the thing that acts (fetch,
 * `new URL`) reads it, not only one written with `//`. Generated: a special scheme in any case,
 * 0–3 slashes or backslashes, user-info, a port, a path, tabs and line breaks anywhere in the
 * link, leading C0 controls, in prose, quotes, brackets or markdown, or in the query of a link
 * to the domain. The oracle is `new URL` on the link as the tool would receive it (what fetch
 * does with that string); whenever it goes to a host outside the domain, the grant's check
 * must not hold — and when it goes inside, the link is no reason to ask.
 */

const DOMAIN: GrantConstraint = { path: 'to', op: 'domain', value: 'example.com' };
const SCHEMES = ['http', 'https', 'ws', 'wss', 'ftp'];
const BREAKS = ['\t', '\n', '\r', '\r\n'];

const link = fc.record({
  scheme: fc.constantFrom(...SCHEMES),
  flips: fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
  slashes: fc.array(fc.constantFrom('/', '\\'), { maxLength: 3 }).map((a) => a.join('')),
  userinfo: fc.constantFrom('', 'user@', 'u:pw@', 'example.com@'),
  host: fc.constantFrom(
    'evil.test',
    'x.evil.test',
    'example.com.evil.test',
    'ev%69l.test',
    'EVIL.test',
  ),
  port: fc.constantFrom('', ':443', ':8080'),
  path: fc.constantFrom('', '/', '/up', '/r?x=1', '/a#f'),
  breaks: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...BREAKS)), { maxLength: 2 }),
  lead: fc.constantFrom('', '\u0001', ' \u0000'),
});

type Link = typeof link extends fc.Arbitrary<infer T> ? T : never;

function written(l: Link, host: string = l.host): string {
  const scheme = [...l.scheme].map((c, i) => (l.flips[i % l.flips.length] ? c.toUpperCase() : c));
  let s = `${scheme.join('')}:${l.slashes}${l.userinfo}${host}${l.port}${l.path}`;
  // A break anywhere but at the very ends (where it would only end the link).
  for (const [at, b] of l.breaks) {
    const i = 1 + (at % (s.length - 1));
    s = s.slice(0, i) + b + s.slice(i);
  }
  return s;
}

const around = fc.constantFrom(
  (s: string) => s,
  (s: string) => `see ${s} now`,
  (s: string) => `"${s}"`,
  (s: string) => `(${s})`,
  (s: string) => `[here](${s})`,
  (s: string) => `<${s}>`,
  (s: string) => `https://example.com/r?to=${s}`,
);

describe('a domain grant reads links as new URL reads them (F3)', () => {
  it('a link that new URL sends outside the domain never fits the grant', () => {
    fc.assert(
      fc.property(link, around, (l, wrap) => {
        const s = written(l);
        let host: string;
        try {
          host = new URL(l.lead + s).hostname; // fetch(s) goes here
        } catch {
          return; // not a link to the parser that acts
        }
        fc.pre(host !== '' && !inDomain(host, 'example.com'));
        const text = wrap(l.lead + s);
        const hosts = hostsIn({ to: 'ann@example.com', note: text });
        expect(hosts === null || !hosts.every((h) => inDomain(h, 'example.com'))).toBe(true);
        // Nor does a grant made from a call without it cover a call with it in the argument
        // that may vary (the nested case: a link to the domain carrying another).
        const approved = { to: 'https://example.com/inbox' };
        const g = { constraint: DOMAIN, fixed: grantRecord(approved, DOMAIN, undefined) };
        expect(fitsScope(g, { to: text }, undefined)).toBe(false);
        // And a call holding it cannot be granted at all.
        expect(() => checkConstraint(DOMAIN, { to: 'ann@example.com', note: text })).toThrow();
      }),
      { numRuns: 2000 },
    );
  });

  it('holds only when every link host the taint check reads is in the domain', () => {
    let held = 0;
    fc.assert(
      fc.property(link, around, fc.boolean(), (l, wrap, inside) => {
        const note = wrap(l.lead + written(l, inside ? 'example.com' : l.host));
        if (!constraintHolds(DOMAIN, { to: 'ann@example.com', note }, undefined)) return;
        held++;
        // Read as a destination field (a neutral `note` is not one to the taint check).
        for (const d of destinationsOf({ cc: note }).filter((x) => x.kind === 'url'))
          expect(inDomain(d.host, 'example.com'), `${JSON.stringify(note)} → ${d.host}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
    expect(held).toBeGreaterThan(100);
  });

  it('the same forms to the domain are no reason to ask', () => {
    fc.assert(
      fc.property(link, (l) => {
        const s = written({ ...l, breaks: [], userinfo: '', lead: '' }, 'example.com');
        fc.pre(new URL(s).hostname === 'example.com');
        const hosts = hostsIn({ note: `see ${s} now` });
        expect(hosts).not.toBeNull();
        expect(hosts!.every((h) => inDomain(h, 'example.com'))).toBe(true);
      }),
    );
  });
});

describe('grant link reading: cases', () => {
  it('links without "//", split by tabs, or inside another link are read', () => {
    for (const note of [
      'see https:evil.test/x',
      'see HTTPS:/evil.test',
      'see http:\\\\evil.test',
      'see https:@evil.test',
      'see ht\ttps:evil.test',
      'see https:\n//evil.test',
      'see https://example.com\t.evil.test/',
      'see [x](https:evil.test)',
      '\u0001https:evil.test',
      'see ｈｔｔｐｓ：evil.test', // NFKC (unveil)
      'https://example.com/r?to=https:evil.test/x',
      'https://example.com/r?to=https://evil.test/x',
      'https://example.com/r?to=//evil.test/x',
      // The URL parser takes a quote into a host (a name under evil.test), with breaks too.
      'see http:"x.evil.test now',
      '<ws:"\r.evil.test>',
      'see HTTP:"\rv1.evil.test now',
    ])
      expect(hostsIn({ note })?.every((h) => inDomain(h, 'example.com')) ?? false, note).toBe(
        false,
      );
  });

  it('quoted or bracketed links to the domain still hold', () => {
    for (const note of [
      "see 'https://example.com' now",
      'see "https:example.com/a" now',
      '<https://example.com>',
      '[x](https://example.com)',
      '("https://sub.example.com/a")',
    ])
      expect(
        hostsIn({ note })?.every((h) => inDomain(h, 'example.com')),
        note,
      ).toBe(true);
  });

  it('prose with colons is no link', () => {
    for (const note of [
      'Re:meeting',
      'Note:see attached',
      'ratio 16:9 at 10:30',
      'file:report.pdf',
      'C:\\Users\\ann',
      'Subject:Hello',
      'the http: prefix',
      'javascript:void(0) data:text/plain,hi',
    ])
      expect(hostsIn({ note }), note).toEqual([]);
  });

  it('long hostile text is read in bounded work, and too many links ask', () => {
    // Linear scans: a long run of scheme characters, a run of "http:".
    expect(hostsIn({ note: 'a'.repeat(200_000) })).toEqual([]);
    expect(hostsIn({ note: 'http:'.repeat(40_000) })).toBeNull();
    expect(hostsIn({ note: `https://example.com/?q=${'x'.repeat(9000)}` })).toBeNull();
  });
});
