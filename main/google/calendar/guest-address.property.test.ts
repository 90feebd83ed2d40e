import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarTestbed } from '../../../e2e/fake-google/calendar-testbed.js';
import { readDomain } from '../../approvals/addresses.js';
import { constraintHolds } from '../../approvals/grant-scope.js';
import { destinationsOf } from '../../provenance/destinations.js';

/**
 * The guest check (args.ts isGuestAddress, run by validateArgs) against the action and the other
 * readers of a guest, over generated addresses: "_" in a domain (`a@my_team.example.com`, a false
 * refusal a review found), IDN letters, full-width and combining marks, characters that end or
 * change a URL host ("/", "\", "?", "#", "%41", a numeric last label, "⒈"), and "@" where it does
 * not belong. A guest the check takes is created with exactly that guest (the request Google
 * gets), and the grant (readDomain, inDomain) and the taint check (destinationsOf) read the whole
 * of its domain as one host; a guest it refuses never reaches Google. And it refuses no address
 * whose domain the URL parser reads label for label, "_" included.
 */

let b: Awaited<ReturnType<typeof calendarTestbed>>;
beforeAll(async () => {
  b = await calendarTestbed();
  await b.source.warmUp();
});
afterAll(() => b.stop());

const LABEL_CHARS = [
  ...'abxyz019-_',
  'ü',
  'ä',
  '日',
  'ｅ', // full-width e
  '\u0301', // combining acute accent
  '\uFE0F', // variation selector (IDNA ignores it)
  'İ',
  '⒈', // IDNA maps it to "1."
  '/',
  '\\',
  '?',
  '#',
  '@',
  ':',
  '%41',
  '!',
  '\u200B',
  ' ',
];
const label = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom('example', 'my_team', 'sub_domain', 'corp', 'b\u00fccher'),
  },
  // Numbers: a name ending in one is an IPv4 address to the URL parser (0x7f.0.0.1 is 127.0.0.1).
  { weight: 1, arbitrary: fc.constantFrom('0', '127', '0x7f', '10') },
  {
    weight: 3,
    arbitrary: fc
      .array(
        fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...LABEL_CHARS.slice(0, 10)) },
          { weight: 2, arbitrary: fc.constantFrom(...LABEL_CHARS.slice(10)) },
        ),
        { minLength: 1, maxLength: 6 },
      )
      .map((cs) => cs.join('')),
  },
);
const tld = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.constantFrom(
      'com',
      'corp',
      'test',
      'COM',
      'xn--a',
      'xn--bcher-kva',
      '123',
      '1',
      '',
    ),
  },
  // No top-level domain has "_" (the taint check ends a host before it: `_x@evil.example_`).
  { weight: 1, arbitrary: fc.constantFrom('com_', 'my_tld') },
);
const domain = fc.oneof(
  {
    weight: 12,
    arbitrary: fc
      .tuple(fc.array(label, { minLength: 0, maxLength: 3 }), tld)
      .map(([ls, t]) => [...ls, t].join('.')),
  },
  { weight: 1, arbitrary: fc.constantFrom('127.0.0.1', '0x7f.0.0.1', '10.0.0.010', '1.2.3.4') },
);
const local = fc.constantFrom(
  'carol',
  'a.b',
  'x+y',
  'über',
  "o'hara",
  'x%y',
  'a_b',
  'a@b',
  '"a@b"',
  '',
);
const address = fc.tuple(local, domain).map(([l, d]) => `${l}@${d}`);

/** The attendees of the last create that reached the fake. */
function lastAttendees(): string[] {
  const req = b.fake.calls('POST', /\/events$/).at(-1);
  const body = req?.body as { attendees?: { email?: string }[] } | undefined;
  return (body?.attendees ?? []).map((a) => a.email ?? '');
}

/**
 * Apart from the code under test: a bare local part, and a domain of labels of letters, digits,
 * marks, "_" (not in the last) and "-" that the WHATWG URL parser reads as a host of as many
 * labels, none empty, and not as an IPv4 address.
 */
function plain(a: string): boolean {
  const at = a.lastIndexOf('@');
  const [l, d] = [a.slice(0, at), a.slice(at + 1)];
  if (!/^[^\s@<>(),;:"]+$/.test(l)) return false;
  const labels = d.split('.');
  if (labels.length < 2 || !labels.every((x) => /^[\p{L}\p{N}\p{M}_-]+$/u.test(x))) return false;
  if (labels.at(-1)!.includes('_')) return false; // a top-level domain has none
  let host: string;
  try {
    host = new URL(`http://${d}/`).hostname;
  } catch {
    return false;
  }
  const read = host.split('.');
  return !/^[\d.]+$/.test(host) && read.length === labels.length && !read.includes('');
}

describe('property: the Calendar guest check and the action agree', () => {
  it('a guest the check takes is the guest Google gets, its domain read whole by the grant and the taint check; one it refuses never goes', async () => {
    const shape = b.source.grantShape('calendar_create_event')!;
    let taken = 0;
    let underscore = 0;
    await fc.assert(
      fc.asyncProperty(address, async (a) => {
        const args = { summary: 'Planning', start: '2026-03-10', attendees: [a] };
        const refusal = b.source.validateArgs('calendar_create_event', args);
        if (refusal !== null) expect(refusal, a).toMatch(/^attendees: .* is not an e-mail address/);
        const refused = refusal !== null;
        if (plain(a)) expect(refused, a).toBe(false);
        const before = b.fake.calls('POST', /\/events$/).length;
        const r = await b.call('calendar_create_event', args);
        if (refused) {
          expect(r.isError, a).toBe(true);
          expect(b.fake.calls('POST', /\/events$/).length, a).toBe(before);
          return;
        }
        taken++;
        expect(r.isError, a).toBeFalsy();
        const sent = lastAttendees();
        // The local part lower-cased, the domain as the URL host parser reads it (IDNA ASCII):
        // Google gets the name the grant and the taint check read, whatever IDNA it applies.
        const at = a.lastIndexOf('@');
        expect(sent, a).toEqual([
          `${a.slice(0, at).toLowerCase()}@${new URL(`http://${a.slice(at + 1)}/`).hostname}`,
        ]);
        const d = sent[0]!.slice(sent[0]!.lastIndexOf('@') + 1);
        if (d.includes('_')) underscore++;
        // The grant's reading: the whole domain, label for label, not an IPv4 address.
        const read = readDomain(d);
        expect(read, a).not.toBe('');
        expect(read, a).toBe(new URL(`http://${d}/`).hostname);
        expect(read.split('.').length, a).toBe(d.split('.').length);
        expect(read.split('.'), a).not.toContain('');
        expect(read, a).not.toMatch(/^[\d.]+$/);
        // A domain grant on exactly that host covers the guest (the grant's own path).
        expect(
          constraintHolds({ path: 'attendees', op: 'domain', value: read }, args, shape),
          a,
        ).toBe(true);
        // The taint check reads the same host (from each of its readings of the address).
        expect([...new Set(destinationsOf({ attendees: [a] }).map((x) => x.host))], a).toEqual([
          read,
        ]);
      }),
      { numRuns: 600 },
    );
    console.log(`guests taken: ${taken} of 600, ${underscore} with "_" in the domain`);
    expect(taken).toBeGreaterThan(100);
    expect(underscore).toBeGreaterThan(20);
  }, 300_000);
});
