import { describe, expect, it, vi } from 'vitest';
import { nextRequest } from '../../../test-support/core-events.js';
import { ALICE, calendarTestbed } from '../../../e2e/fake-google/calendar-testbed.js';
import { testbedAppPerTest } from '../../../test-support/testbed-app.js';

/**
 * calendar_respond reaches the event's organizer: the answer and its `comment` go onto the guest
 * list of the organizer's event (and, unless send_updates is "none", by e-mail). The checks used
 * to see only its arguments — an event id, a response, a comment — so a comment carrying the
 * user's private words to a stranger who sent the invitation was not flagged, the card did not
 * show the comment, and set to run without asking it went out unasked. Now the event is read
 * before the checks like an update's (event-guests.ts TELLS_GUESTS). Through a real App, MCP
 * client and the Calendar source against the fake Calendar API.
 */

const calendarApp = testbedAppPerTest(() => calendarTestbed());
const PLAN =
  'The board agreed to sell the northern warehouse to Halvorsen Logistics before the spring audit.';

describe('calendar_respond: the checks see the organizer the answer reaches', () => {
  it("a comment carrying the user's private event to a stranger's invitation is flagged and shown", async () => {
    const {
      bed: b,
      a,
      client,
    } = await calendarApp.start({
      settings: { approvals: { outcomeWindowMinutes: 0 } },
    });
    await b.source.warmUp();
    const secret = b.fake.seed(ALICE, 'primary', {
      summary: 'Door',
      description: PLAN,
      start: { dateTime: '2026-03-11T10:00:00-04:00' },
      end: { dateTime: '2026-03-11T11:00:00-04:00' },
    }).id!;
    // An invitation from a stranger, on the user's calendar.
    const invite = b.fake.seed(ALICE, 'primary', {
      summary: 'Intro call',
      start: { dateTime: '2026-03-12T10:00:00-04:00' },
      end: { dateTime: '2026-03-12T11:00:00-04:00' },
      attendees: [{ email: ALICE, self: true }, { email: 'stranger@other.test' }],
    });
    invite.organizer = { email: 'stranger@other.test' };
    // The agent reads the user's private event, then answers the stranger with it.
    const read = await client.callTool({
      name: 'calendar_get_event',
      arguments: { event_id: secret },
    });
    expect(read.isError).toBeFalsy();
    await a.control.setToolPolicy('calendar_respond', {
      approval: 'auto',
      confirmDestructive: true,
    });
    const patches = () => b.fake.calls('PATCH', /\/events\//).length;
    const before = patches();
    const requested = nextRequest(a);
    const call = client.callTool({
      name: 'calendar_respond',
      arguments: { event_id: invite.id, response: 'accept', comment: `Notes: ${PLAN}` },
    });
    const req = await Promise.race([requested, call.then(() => null)]);
    // Set to run without asking, it still asks: flagged as the user's private words going out.
    expect(req).not.toBeNull();
    expect(patches()).toBe(before);
    expect(req!.taint?.summary).toContain('stranger@other.test');
    // The card says what the organizer gets.
    expect(req!.effect).toContain(', with a note — ');
    expect(req!.effect).toContain(`. Note: “Notes: ${PLAN}”`);
    expect(req!.effect).toContain('stranger@other.test');
    await a.control.decide(req!.id, { kind: 'deny' });
    await call;
    expect(patches()).toBe(before);
  });
});

describe("calendar_respond: a read that fails leaves no earlier call's read behind", () => {
  it('a respond whose read failed before reaching Google asks, though an earlier respond read the event', async () => {
    // The earlier read is dropped before anything that waits (CalendarSource.callContent): a
    // read that failed while getting the account's token used to leave the earlier call's read in
    // place, so alwaysAsk found guests and a respond set to run without asking ran unasked, its
    // taint check having seen no organizer at all.
    const b = await calendarApp.testbed();
    const invite = b.fake.seed(ALICE, 'primary', {
      summary: 'Intro call',
      start: { dateTime: '2026-03-12T10:00:00-04:00' },
      end: { dateTime: '2026-03-12T11:00:00-04:00' },
      attendees: [{ email: ALICE, self: true }, { email: 'stranger@other.test' }],
    });
    const args = { event_id: invite.id, response: 'accept' };
    const signal = new AbortController().signal;
    expect(await b.source.callContent('calendar_respond', args, signal)).not.toBeNull();
    expect(b.source.alwaysAsk('calendar_respond', args)).toBeNull();
    vi.spyOn(b.access, 'accessToken').mockRejectedValueOnce(new Error('token refresh failed'));
    await expect(b.source.callContent('calendar_respond', args, signal)).rejects.toThrow(
      /token refresh failed/,
    );
    expect(b.source.alwaysAsk('calendar_respond', args)).toMatch(/could not read the event/);
  });
});
