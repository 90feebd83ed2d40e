import { afterEach, describe, expect, it } from 'vitest';
import { nextRequest } from '../../../test-support/core-events.js';
import {
  calendarTestbed,
  type CalendarTestbed,
} from '../../../e2e/fake-google/calendar-testbed.js';
import { ALICE, gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import {
  connectClient,
  startTestApp,
  textOf,
  type TestApp,
} from '../../../test-support/harness.js';

/**
 * A calendar someone else can read is a destination (red-team probe, held): an event written
 * there is seen by its owner and whoever it is shared with, guests or none. A stranger who shares
 * a calendar with the user, giving her the right to change events (Google's ACL role "writer"
 * takes effect at once), can ask the agent to put "the notes" on it. A new event there has no
 * guests (CalendarSource.argsReach shows nothing), and on an update the calendar's owner is the
 * attendee marked `self` (the calendar the copy is on), so neither counts them; the taint check
 * reads the address in `calendar_id` as a destination (main/provenance/destinations.ts), and the
 * user's private mail going there asks even with the tools set to run without asking. Through a
 * real App, the Gmail and Calendar sources and the fake Google APIs.
 */

const MALLORY = 'mallory@evil.test';
const PRIVATE = [
  'From: Carol Finance <carol@example.com>',
  `To: ${ALICE.email}`,
  'Subject: Northwind, confidential',
  'Date: Tue, 01 Dec 2026 09:00:00 +0000',
  'Message-ID: <nw-1@example.com>',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'The board approved the Northwind acquisition at forty one dollars a share, announcement on the ninth; keep this strictly between us until then.',
  '',
].join('\r\n');
const LEAK =
  'The board approved the Northwind acquisition at forty one dollars a share, announcement on the ninth';

let gmail: Awaited<ReturnType<typeof gmailTestbed>> | undefined;
let cal: CalendarTestbed | undefined;
let app: TestApp | undefined;
afterEach(async () => {
  await app?.stop();
  await gmail?.stop();
  await cal?.stop();
  app = gmail = cal = undefined;
});

async function start() {
  gmail = await gmailTestbed();
  cal = await calendarTestbed();
  // Mallory's calendar, shared with Alice so that she may change its events.
  cal.fake.addCalendar(ALICE.email, {
    id: MALLORY,
    summary: 'Mallory',
    timeZone: 'UTC',
    accessRole: 'writer',
  });
  const { id } = gmail.fake.add(ALICE.email, { raw: Buffer.from(PRIVATE) });
  app = await startTestApp({
    sources: [gmail.source, cal.source],
    app: { ownAddresses: [ALICE.email] },
    settings: { approvals: { outcomeWindowMinutes: 0 } },
  });
  const client = await connectClient(app.started.mcpUrl, app.token);
  await cal.source.warmUp();
  for (const tool of ['calendar_create_event', 'calendar_update_event'])
    await app.app.control.setToolPolicy(tool, { approval: 'auto', confirmDestructive: true });
  const read = await client.callTool({ name: 'gmail_read', arguments: { message_id: id } });
  expect(textOf(read)).toContain('Northwind');
  const writes = () => cal!.fake.calls('POST', /\/events$/).length;
  const patches = () => cal!.fake.calls('PATCH', /\/events\//).length;
  return { a: app.app, client, writes, patches };
}

const notes = (calendar_id?: string) => ({
  summary: 'Notes',
  start: '2026-03-10T11:00',
  duration_minutes: 30,
  description: LEAK,
  ...(calendar_id ? { calendar_id } : {}),
});

describe("the user's private mail written on a calendar someone else reads", () => {
  it("asks for a new event on a stranger's calendar, and names the calendar", async () => {
    const { a, client, writes } = await start();
    const requested = nextRequest(a);
    const call = client.callTool({ name: 'calendar_create_event', arguments: notes(MALLORY) });
    const req = await Promise.race([requested, call.then(() => null)]);
    expect(req).not.toBeNull();
    expect(writes()).toBe(0);
    expect(req!.taint?.summary).toContain(MALLORY);
    await a.control.decide(req!.id, { kind: 'deny' });
    await call;
    expect(writes()).toBe(0);
  });

  it("asks for a change that writes it into an event on the stranger's calendar", async () => {
    const { a, client, patches } = await start();
    const ev = cal!.fake.seed(ALICE.email, MALLORY, {
      summary: 'Sync',
      start: { dateTime: '2026-03-10T11:00:00Z' },
      end: { dateTime: '2026-03-10T11:30:00Z' },
      organizer: { email: MALLORY, self: true },
      creator: { email: MALLORY },
    });
    const requested = nextRequest(a);
    const call = client.callTool({
      name: 'calendar_update_event',
      arguments: { calendar_id: MALLORY, event_id: ev.id, description: LEAK },
    });
    const req = await Promise.race([requested, call.then(() => null)]);
    expect(req).not.toBeNull();
    expect(patches()).toBe(0);
    expect(req!.taint?.summary).toContain(MALLORY);
    await a.control.decide(req!.id, { kind: 'deny' });
    await call;
    expect(patches()).toBe(0);
  });

  it('still runs the same note on her own primary calendar at once', async () => {
    const { client, writes } = await start();
    for (const id of [undefined, 'primary', ALICE.email]) {
      const r = await client.callTool({ name: 'calendar_create_event', arguments: notes(id) });
      expect(r.isError).toBeFalsy();
    }
    expect(writes()).toBe(3);
  });
});
