import { describe, expect, it } from 'vitest';
import type { GrantConstraint } from '../../../common/contract/index.js';
import { nextRequest } from '../../../test-support/core-events.js';
import { ALICE, calendarTestbed } from '../../../e2e/fake-google/calendar-testbed.js';
import { testbedAppPerTest } from '../../../test-support/testbed-app.js';

/**
 * A scoped grant on a Calendar update or delete is held to everyone the call reaches — the event's
 * existing guests, read from Google before the checks, as well as the guests its arguments name
 * (grant-shape.ts, event-guests.ts; grant-scope.ts part 3). The arguments name an event, not its
 * guests: a guest added to the event by another client (Google Calendar itself, here a second
 * CalendarSource straight to the fake) is not in them, yet the update changes that guest's copy
 * and Google e-mails them. Through a real App, MCP client and the Calendar source.
 */

const calendarApp = testbedAppPerTest(() => calendarTestbed());

async function setUp() {
  // Each retry of the same call is asked afresh (no stored outcome of the first one is replayed).
  const {
    bed: b,
    a,
    client,
  } = await calendarApp.start({
    settings: { approvals: { outcomeWindowMinutes: 0 } },
  });
  await b.source.warmUp();
  const event = (attendees: string[]) =>
    b.fake.seed(ALICE, 'primary', {
      summary: 'Planning',
      start: { dateTime: '2026-03-10T10:00:00-04:00' },
      end: { dateTime: '2026-03-10T11:00:00-04:00' },
      attendees: attendees.map((email) => ({ email })),
    }).id!;
  /** Another Google client adds (or removes) a guest without e-mail, unseen by Airlock. */
  const addElsewhere = async (id: string, guest: string, key = 'add_attendees') => {
    const r = await b.call('calendar_update_event', {
      event_id: id,
      [key]: [guest],
      send_updates: 'none',
    });
    expect(r.isError).toBeFalsy();
  };
  const writes = () =>
    b.fake.calls('PATCH', /\/events\//).length + b.fake.calls('DELETE', /\/events\//).length;
  /** Makes a grant from an approved call, then runs it once more under the grant. */
  const grant = async (tool: string, args: Record<string, unknown>, c: GrantConstraint) => {
    const requested = nextRequest(a);
    const call = client.callTool({ name: tool, arguments: args });
    const req = await Promise.race([requested, call.then((r) => JSON.stringify(r))]);
    if (typeof req === 'string') throw new Error(`did not ask: ${req}`);
    expect(req.grantOptions?.map((o) => o.constraint)).toContainEqual(c);
    await a.control.decide(req.id, { kind: 'always_allow', confirm: true, constraint: c });
    expect((await call).isError).toBeFalsy();
  };
  /** Another Google client moves the event, unseen by Airlock. */
  const moveElsewhere = async (id: string, start: string) => {
    const r = await b.call('calendar_update_event', { event_id: id, start, send_updates: 'none' });
    expect(r.isError).toBeFalsy();
  };
  /** The approval the call raised (then denied), or null when it ran under the grant. */
  const asked = async (tool: string, args: Record<string, unknown>) => {
    const before = writes();
    const next = nextRequest(a);
    const run = client.callTool({ name: tool, arguments: args });
    const first = await Promise.race([next, run.then(() => null)]);
    if (!first) {
      expect(writes()).toBe(before + 1);
      return null;
    }
    await a.control.decide(first.id, { kind: 'deny' });
    await run;
    expect(writes()).toBe(before);
    return first;
  };
  /**
   * The user once wrote to these people (an approved invitation), so the taint check does not
   * flag them (provenance-wiring.ts learns from calls allowed once): what asks below is the grant.
   */
  const known = async (attendees: string[]) => {
    const requested = nextRequest(a);
    const call = client.callTool({
      name: 'calendar_create_event',
      arguments: { summary: 'Hello', start: '2026-03-20T10:00', duration_minutes: 30, attendees },
    });
    const req = await Promise.race([requested, call.then((r) => JSON.stringify(r))]);
    expect(typeof req).not.toBe('string');
    if (typeof req !== 'string') await a.control.decide(req.id, { kind: 'allow_once' });
    expect((await call).isError).toBeFalsy();
  };
  return { event, addElsewhere, moveElsewhere, grant, asked, known, client, a, fake: b.fake };
}

const PLAN =
  'The board agreed to sell the northern warehouse to Halvorsen Logistics before the spring audit.';

describe('the taint check sees the guests a Calendar write reaches', () => {
  it("private content written into an event goes to the event's guests, whom the arguments do not name", async () => {
    const { event, client, a, fake } = await setUp();
    const secret = fake.seed(ALICE, 'primary', {
      summary: 'Door',
      description: PLAN,
      start: { dateTime: '2026-03-11T10:00:00-04:00' },
      end: { dateTime: '2026-03-11T11:00:00-04:00' },
    }).id!;
    const shared = event(['stranger@other.test']);
    // The agent reads the user's private event, then writes its code into the shared one.
    const read = await client.callTool({
      name: 'calendar_get_event',
      arguments: { event_id: secret },
    });
    expect(read.isError).toBeFalsy();
    const requested = nextRequest(a);
    const call = client.callTool({
      name: 'calendar_update_event',
      arguments: { event_id: shared, description: `Notes: ${PLAN}` },
    });
    const req = await requested;
    await a.control.decide(req.id, { kind: 'deny' });
    await call;
    expect(req.taint?.summary).toContain('stranger@other.test');
  });
});

describe('a grant on a Calendar write holds to the guests the write reaches', () => {
  it('a domain grant on calendar_update_event asks once the event has a guest outside the domain, whatever send_updates says', async () => {
    const { event, addElsewhere, grant, asked, known } = await setUp();
    await known(['dan@example.com', 'erin@example.com', 'fay@example.com', 'mallory@other.test']);
    const DOMAIN: GrantConstraint = { path: 'add_attendees', op: 'domain', value: 'example.com' };
    for (const send of ['all', 'externalOnly', 'none']) {
      const id = event(['carol@example.com']);
      const args = (guest: string) => ({
        event_id: id,
        add_attendees: [guest],
        send_updates: send,
      });
      await grant('calendar_update_event', args('dan@example.com'), DOMAIN);
      // Every guest in the domain: the grant covers it.
      expect(await asked('calendar_update_event', args('erin@example.com')), send).toBeNull();
      // An outside guest is on the event now (its arguments are still all in the domain): asks.
      await addElsewhere(id, 'mallory@other.test');
      const req = await asked('calendar_update_event', args('fay@example.com'));
      expect(req, send).not.toBeNull();
      expect(req?.taint, send).toBeUndefined(); // asked by the grant, not the taint check
    }
  });

  it('an equals grant on an event asks once a stranger is on it', async () => {
    const { event, addElsewhere, grant, asked, known, fake } = await setUp();
    await known(['erin@example.com', 'stranger@other.test']);
    const id = event(['carol@example.com', 'dave@example.com']);
    const EXACT: GrantConstraint = { path: 'event_id', op: 'equals', value: id };
    const update = { event_id: id, add_attendees: ['erin@example.com'] };
    await grant('calendar_update_event', update, EXACT);
    // The same call again (Erin taken off meanwhile, so it changes something): the grant covers it.
    await addElsewhere(id, 'erin@example.com', 'remove_attendees');
    expect(await asked('calendar_update_event', update)).toBeNull();
    await addElsewhere(id, 'erin@example.com', 'remove_attendees');
    await addElsewhere(id, 'stranger@other.test');
    const req = await asked('calendar_update_event', update);
    expect(req).not.toBeNull();
    expect(req?.taint).toBeUndefined(); // asked by the grant, not the taint check

    // Back to the approved guests: covered again. But when the event cannot be read before the
    // checks, the grant has no guests to hold to: it asks.
    await addElsewhere(id, 'stranger@other.test', 'remove_attendees');
    expect(await asked('calendar_update_event', update)).toBeNull();
    await addElsewhere(id, 'erin@example.com', 'remove_attendees');
    fake.failNext({ method: 'GET', path: new RegExp(`/events/${id}$`), status: 503 });
    expect(await asked('calendar_update_event', update)).not.toBeNull();
  });

  it('an equals grant on an event without guests holds to the user alone', async () => {
    const { event, addElsewhere, moveElsewhere, grant, asked, known } = await setUp();
    await known(['stranger@other.test']);
    const id = event([]);
    const EXACT: GrantConstraint = { path: 'event_id', op: 'equals', value: id };
    const move = (start: string) => ({ event_id: id, start, send_updates: 'none' });
    await grant('calendar_update_event', move('2026-03-10T12:00'), EXACT);
    await moveElsewhere(id, '2026-03-10T10:00');
    expect(await asked('calendar_update_event', move('2026-03-10T12:00'))).toBeNull();
    await moveElsewhere(id, '2026-03-10T10:00');
    await addElsewhere(id, 'stranger@other.test');
    expect(await asked('calendar_update_event', move('2026-03-10T12:00'))).not.toBeNull();
  });
});

describe('a Calendar write whose event the checks could not read asks, whatever the policy', () => {
  it('set to run without asking, an update whose event read failed before the checks is put to the user', async () => {
    const { event, a, client, fake } = await setUp();
    await a.control.setToolPolicy('calendar_update_event', {
      approval: 'auto',
      confirmDestructive: true,
    });
    const id = event(['stranger@other.test']);
    // The read of the event's guests before the checks fails: the taint check would see none.
    fake.failNext({ method: 'GET', path: new RegExp(`/events/${id}$`), status: 403 });
    const before = fake.calls('PATCH', /\/events\//).length;
    const requested = nextRequest(a);
    const run = client.callTool({
      name: 'calendar_update_event',
      arguments: { event_id: id, description: 'Notes.', send_updates: 'all' },
    });
    const asked = await Promise.race([requested, run.then(() => null)]);
    expect(asked).not.toBeNull();
    expect(fake.calls('PATCH', /\/events\//)).toHaveLength(before);
    await a.control.decide(asked!.id, { kind: 'deny' });
    await run;
    // Read, it runs as set.
    const ran = await client.callTool({
      name: 'calendar_update_event',
      arguments: { event_id: id, description: 'Notes.', send_updates: 'all' },
    });
    expect(ran.isError).toBeFalsy();
    expect(fake.calls('PATCH', /\/events\//)).toHaveLength(before + 1);
  });
});
