import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrantConstraint } from '../../../common/contract/index.js';
import { ALICE, calendarTestbed } from '../../../e2e/fake-google/calendar-testbed.js';
import { allowed } from '../../../test-support/recipient-arbitraries.js';
import { fitsScope, fixedPart, grantRecord } from '../../approvals/grant-scope.js';
import { destinationsOf } from '../../provenance/destinations.js';

/**
 * A domain grant on calendar_create_event and calendar_update_event, fuzzed (issue 27 item 1):
 * over generated guest lists — case, padding, full-width and other look-alike letters, IDN,
 * trailing dots, invisible characters, display names, lists in one string, addresses in
 * look-alike domains — whenever the grant lets a call run, every guest Google is told about is in
 * the domain, and the guests the grant read are exactly those the write reaches: the attendees the
 * request to Google carries, and for an update the event's guests before it (their copy changes
 * and Google e-mails them). "In the domain" is decided apart from the code under test (the WHATWG
 * URL parser's host, recipient-arbitraries.ts). Against the fake Calendar API, at the source.
 */

let b: Awaited<ReturnType<typeof calendarTestbed>>;
beforeAll(async () => {
  b = await calendarTestbed();
  await b.source.warmUp();
});
afterAll(() => b.stop());

const DOMAIN: GrantConstraint = { path: 'attendees', op: 'domain', value: 'example.com' };
const signal = new AbortController().signal;

const local = fc.constantFrom('carol', 'Dave', 'evil', 'a.b', 'x+y', 'über', "o'hara", 'x%y');
const host = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('example.com', 'EXAMPLE.com', 'sub.example.com') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'ｅxample.com',
      'exam\u00ADple.com',
      'example\u3002com',
      'xn--exmple-cua.com',
      'exämple.com',
      'example.com.',
      'example.co',
      'evil.test',
      'example.com.evil.test',
      'evilexample.com',
      'example.com\u200B',
      'example.com/evil.test',
      // A URL parser's host ends at these; the domain the address names goes on (under evil.test).
      'example.com/.evil.test',
      'example.com?.evil.test',
      'example.com#.evil.test',
      'example.com\\.evil.test',
      '[127.0.0.1]',
    ),
  },
);
const address = fc.tuple(local, host).map(([l, h]) => `${l}@${h}`);
const guest = fc.oneof(
  { weight: 6, arbitrary: address },
  { weight: 1, arbitrary: address.map((a) => ` ${a}\t`) },
  { weight: 1, arbitrary: address.map((a) => a.toUpperCase()) },
  { weight: 1, arbitrary: address.map((a) => `Carol <${a}>`) },
  { weight: 1, arbitrary: fc.tuple(address, address).map(([x, y]) => `${x}, ${y}`) },
  { weight: 1, arbitrary: fc.tuple(address, address).map(([x, y]) => `${x} ${y}`) },
  { weight: 1, arbitrary: address.map((a) => `"${a}"@example.com`) },
  { weight: 1, arbitrary: address.map((a) => `${a}\u0000`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);
const guests = fc.array(guest, { minLength: 1, maxLength: 3 });

const lower = (xs: string[]) => [...new Set(xs.map((x) => x.trim().toLowerCase()))].sort();

/** The attendees of the last write of this kind that reached the fake. */
function lastAttendees(method: string, path: RegExp): string[] {
  const req = b.fake.calls(method, path).at(-1);
  const body = req?.body as { attendees?: { email?: string }[] } | undefined;
  return (body?.attendees ?? []).map((a) => a.email ?? '');
}

describe('property: a domain grant on a Calendar write lets run only writes that reach the domain', () => {
  it('calendar_create_event: the guests the grant reads are the attendees Google is sent', async () => {
    const shape = b.source.grantShape('calendar_create_event')!;
    const approved = {
      summary: 'Planning',
      start: '2026-03-10T10:00',
      duration_minutes: 30,
      attendees: ['carol@example.com'],
    };
    const grant = { constraint: DOMAIN, fixed: fixedPart(approved, DOMAIN, shape) };
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(guests, fc.constantFrom('Planning', 'Other'), async (attendees, summary) => {
        const args = { ...approved, summary, attendees };
        if (b.source.validateArgs('calendar_create_event', args) !== null) {
          expect(fitsScope(grant, args, shape)).toBe(false);
          return;
        }
        const fits = fitsScope(grant, args, shape);
        const before = b.fake.calls('POST', /\/events$/).length;
        const r = await b.call('calendar_create_event', args);
        if (r.isError) {
          expect(b.fake.calls('POST', /\/events$/).length).toBe(before);
          return;
        }
        const sent = lastAttendees('POST', /\/events$/);
        // Check == act: the grant's reading is the request's attendee list.
        expect(lower(sent)).toEqual(lower(shape.destinations(args)));
        if (fits) {
          ran++;
          for (const a of sent) expect(allowed(a), a).toBe(true);
        }
      }),
      // A fixed seed: the floor below counts generated cases (house rule); fast-check prints the
      // seed and path of any failure.
      { numRuns: 400, seed: 20261203 },
    );
    console.log(`creates that fit the domain grant and ran: ${ran} of 400`);
    expect(ran).toBeGreaterThan(40);
  }, 300_000);

  it('calendar_update_event: the guests the grant reads are everyone the patch reaches', async () => {
    const shape = b.source.grantShape('calendar_update_event')!;
    const ev = b.fake.seed(ALICE, 'primary', {
      summary: 'Planning',
      start: { dateTime: '2026-03-10T10:00:00-04:00' },
      end: { dateTime: '2026-03-10T11:00:00-04:00' },
      attendees: [{ email: 'carol@example.com' }],
    });
    const reset = async () => {
      const r = await b.call('calendar_update_event', {
        event_id: ev.id,
        attendees: ['carol@example.com'],
        send_updates: 'none',
      });
      expect(r.isError).toBeFalsy();
    };
    // As the call path does: the read binds the call to the version it read (CallContent.bind).
    const checked = async (args: Record<string, unknown>) => {
      const content = await b.source.callContent('calendar_update_event', args, signal);
      return { ...content?.bind, ...args };
    };
    const approved = await checked({
      event_id: ev.id,
      add_attendees: ['dave@example.com'],
      send_updates: 'none',
    });
    const grant = { constraint: DOMAIN, fixed: grantRecord(approved, DOMAIN, shape) };
    // Mostly addresses, so that many generated updates get past validation to the grant.
    const list = fc.array(
      fc.oneof({ weight: 8, arbitrary: address }, { weight: 1, arbitrary: guest }),
      { minLength: 1, maxLength: 2 },
    );
    const guestArgs = fc.record(
      { attendees: list, add_attendees: list, remove_attendees: list },
      { requiredKeys: [] },
    );
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(guestArgs, async (g) => {
        const given: Record<string, unknown> = { event_id: ev.id, send_updates: 'none', ...g };
        if (b.source.validateArgs('calendar_update_event', given) !== null) return;
        const args = await checked(given);
        const fits = fitsScope(grant, args, shape);
        let reached: string[];
        try {
          reached = shape.destinations(args);
        } catch {
          expect(fits).toBe(false);
          return;
        }
        const existing = (ev.attendees ?? []).map((a) => a.email ?? '');
        const r = await b.call('calendar_update_event', args);
        if (r.isError) return;
        // Reset even when a check fails, so that fast-check shrinks from the event as seeded.
        try {
          const sent = lastAttendees('PATCH', /\/events\//);
          // Everyone the patch reaches — its attendee list, the guests it removes (they are told
          // of it), the guests the event had — is among those the grant read.
          const reach = new Set(lower(reached));
          for (const a of [...sent, ...existing])
            expect(reach.has(a.trim().toLowerCase()), a).toBe(true);
          if (fits) {
            ran++;
            for (const a of reached) expect(allowed(a), a).toBe(true);
          }
        } finally {
          await reset();
        }
      }),
      { numRuns: 300, seed: 20261203 },
    );
    console.log(`updates that fit the domain grant and ran: ${ran} of 300`);
    expect(ran).toBeGreaterThan(30);
  }, 300_000);

  it('a guest the Calendar tools take is read whole by every check: its domain is one host', () => {
    // The grant (inDomain) and the taint check (destinations.ts) read an address's domain with
    // host parsers that stop at "/", "?", "#" or "\"; Google is sent the whole string. So the
    // tools take only guests whose domain is a host read whole ("in the domain" is decided apart
    // from the code under test, recipient-arbitraries.ts), and the taint check reads that host.
    let taken = 0;
    fc.assert(
      fc.property(address, (a) => {
        const args = { summary: 'Planning', start: '2026-03-10', attendees: [a] };
        if (b.source.validateArgs('calendar_create_event', args) !== null) return;
        taken++;
        const domain = a.slice(a.lastIndexOf('@') + 1);
        expect(/[/\\?#:[\]]/.test(domain), a).toBe(false);
        const host = new URL(`http://${domain}/`).hostname;
        // Every reading the check makes (the parser's, and the scanner's of a local part it
        // reads only the tail of: destinations.ts) is of that host.
        const hosts = destinationsOf({ attendees: [a] }).map((d) => d.host);
        expect(hosts.length, a).toBeGreaterThan(0);
        for (const h of hosts) expect(h, a).toBe(host);
      }),
      { numRuns: 2000, seed: 20261204 },
    );
    expect(taken).toBeGreaterThan(500);
  });
});
