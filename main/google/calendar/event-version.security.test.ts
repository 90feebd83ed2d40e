import { describe, expect, it } from 'vitest';
import { nextRequest } from '../../../test-support/core-events.js';
import { ALICE, calendarTestbed, TOKENS } from '../../../e2e/fake-google/calendar-testbed.js';
import { testbedAppPerTest } from '../../../test-support/testbed-app.js';
import { CalendarSource } from './calendar-source.js';

/**
 * A Calendar update or delete the user approves changes the event as its card showed it, or
 * nothing (event-guests.ts, event-version.ts): the call is bound to the event's version as its
 * checks read it (Google's etag), the card and a grant use that read and no other call's, and the
 * write carries If-Match, so a guest added after the card was shown — before the run, or between
 * the run's read and its write — is not reached. Through a real App, MCP client and the Calendar
 * source against the fake Calendar API, which honours If-Match as Google documents
 * (developers.google.com/calendar/api/guides/version-resources, "Conditional modification").
 */

const calendarApp = testbedAppPerTest(() => calendarTestbed());

const CAROL = 'carol@example.com';
const MALLORY = 'mallory@other.test';

async function setUp() {
  const { bed, a, client } = await calendarApp.start({
    settings: { approvals: { outcomeWindowMinutes: 0 } },
  });
  await bed.source.warmUp();
  const fake = bed.fake;
  const cal = fake.store.get(ALICE, 'primary');
  const id = fake.seed(ALICE, 'primary', {
    summary: 'Planning',
    description: 'As it was.',
    start: { dateTime: '2026-03-10T10:00:00-04:00' },
    end: { dateTime: '2026-03-10T11:00:00-04:00' },
    attendees: [{ email: CAROL }],
  }).id!;
  const event = () => fake.store.find(cal, id);
  /** Another Google client (Calendar itself) adds a guest, unseen by Airlock. */
  const addMallory = () => {
    fake.store.patch(
      cal,
      id,
      { attendees: [...(event().attendees ?? []), { email: MALLORY }] },
      false,
    );
  };
  /** A call that asks, and the card it raised. */
  const ask = async (tool: string, args: Record<string, unknown>) => {
    const requested = nextRequest(a);
    const call = client.callTool({ name: tool, arguments: args });
    const card = await Promise.race([requested, call.then((r) => JSON.stringify(r))]);
    if (typeof card === 'string') throw new Error(`did not ask: ${card}`);
    return { card, call };
  };
  const writes = () =>
    fake.calls('PATCH', /\/events\//).length + fake.calls('DELETE', /\/events\//).length;
  return { a, client, fake, id, event, addMallory, ask, writes };
}

const textOf = (r: unknown) => JSON.stringify((r as { content?: unknown }).content ?? r);

describe('an approved Calendar write reaches only the guests its card showed', () => {
  it('an update approved after a guest was added changes nothing, and the agent is told to ask again', async () => {
    const { a, id, event, addMallory, ask, writes } = await setUp();
    const update = { event_id: id, description: 'The board minutes.', send_updates: 'all' };
    const { card, call } = await ask('calendar_update_event', update);
    // The card names the guests, not only how many.
    expect(card.effect).toContain(`Guests on the event: ${CAROL}`);
    expect(card.effect).not.toContain(MALLORY);
    addMallory();
    const before = writes();
    await a.control.decide(card.id, { kind: 'allow_once' });
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/changed since it was approved.*Ask again/);
    expect(writes()).toBe(before);
    expect(event().description).toBe('As it was.');
  });

  it('a guest added between the run reading the event and writing it: Google refuses the If-Match (412), nothing is changed', async () => {
    const { a, fake, id, event, addMallory, ask } = await setUp();
    const update = { event_id: id, description: 'The board minutes.', send_updates: 'all' };
    const { card, call } = await ask('calendar_update_event', update);
    fake.beforeNext('PATCH', new RegExp(`/events/${id}$`), addMallory);
    await a.control.decide(card.id, { kind: 'allow_once' });
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/changed since it was approved.*Ask again/);
    const patches = fake.calls('PATCH', new RegExp(`/events/${id}$`));
    expect(patches).toHaveLength(1); // sent, and refused
    expect(event().description).toBe('As it was.');
    expect(event().attendees?.map((g) => g.email)).toEqual([CAROL, MALLORY]);
  });

  it('a delete likewise: refused by If-Match when the event changed after the run read it', async () => {
    const { a, fake, id, event, addMallory, ask } = await setUp();
    const { card, call } = await ask('calendar_delete_event', { event_id: id });
    expect(card.effect).toContain(`Guests on the event: ${CAROL}`);
    fake.beforeNext('DELETE', new RegExp(`/events/${id}$`), addMallory);
    await a.control.decide(card.id, { kind: 'allow_once' });
    const result = await call;
    expect(textOf(result)).toMatch(/changed since it was approved.*Ask again/);
    expect(fake.calls('DELETE', new RegExp(`/events/${id}$`))).toHaveLength(1);
    expect(event().status).toBe('confirmed');
  });

  it('an unchanged event is written, with If-Match', async () => {
    const { a, fake, id, event, ask } = await setUp();
    const tag = event().etag;
    const { card, call } = await ask('calendar_update_event', {
      event_id: id,
      description: 'The board minutes.',
    });
    await a.control.decide(card.id, { kind: 'allow_once' });
    expect((await call).isError).toBeFalsy();
    expect(event().description).toBe('The board minutes.');
    expect(event().etag).not.toBe(tag);
    expect(fake.calls('PATCH', new RegExp(`/events/${id}$`)).map((r) => r.ifMatch)).toEqual([tag]);
  });

  it("a change to the whole series from one occurrence is written to the series' version as read", async () => {
    const { a, fake, ask } = await setUp();
    const cal = fake.store.get(ALICE, 'primary');
    const series = fake.seed(ALICE, 'primary', {
      summary: 'Standup',
      start: { dateTime: '2026-03-03T09:00:00-05:00', timeZone: 'America/New_York' },
      end: { dateTime: '2026-03-03T09:15:00-05:00', timeZone: 'America/New_York' },
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6'],
      attendees: [{ email: CAROL }],
    });
    const occurrence = `${series.id}_20260310T130000Z`;
    const seriesNow = () => fake.store.find(cal, series.id!);
    const update = (description: string) => ({
      event_id: occurrence,
      scope: 'all',
      description,
    });
    // Unchanged: written, with the series' own etag as If-Match.
    const tag = seriesNow().etag;
    const first = await ask('calendar_update_event', update('Notes.'));
    await a.control.decide(first.card.id, { kind: 'allow_once' });
    expect((await first.call).isError).toBeFalsy();
    expect(fake.calls('PATCH', new RegExp(`/events/${series.id}$`)).map((r) => r.ifMatch)).toEqual([
      tag,
    ]);
    // Mallory joins the series between the run's read and its write: refused, nothing changed.
    const second = await ask('calendar_update_event', update('Other notes.'));
    fake.beforeNext('PATCH', new RegExp(`/events/${series.id}$`), () => {
      fake.store.patch(
        cal,
        series.id!,
        { attendees: [{ email: CAROL }, { email: MALLORY }] },
        false,
      );
    });
    await a.control.decide(second.card.id, { kind: 'allow_once' });
    expect(textOf(await second.call)).toMatch(/changed since it was approved.*Ask again/);
    expect(seriesNow().description).toBe('Notes.');
  });

  it('a call the run reads differently from the check (calendar_id "") is still read, bound and shown', async () => {
    // The run reads an empty calendar_id as "primary" (args.ts optString). A check that read it
    // as "" could not read the event: the call went unbound, so the write carried no If-Match and
    // reached a guest added after the card — whose card had listed no guests at all.
    const { a, fake, id, event, addMallory, ask } = await setUp();
    const { card, call } = await ask('calendar_update_event', {
      event_id: id,
      calendar_id: '',
      description: 'The board minutes.',
    });
    expect(card.effect).toContain(`Guests on the event: ${CAROL}`);
    addMallory();
    await a.control.decide(card.id, { kind: 'allow_once' });
    expect(textOf(await call)).toMatch(/changed since it was approved.*Ask again/);
    expect(fake.calls('PATCH', new RegExp(`/events/${id}$`))).toHaveLength(0);
    expect(event().description).toBe('As it was.');
  });

  it('a delete of the whole series, or of one occurrence, from an occurrence: a guest added to the series after the card stops it', async () => {
    const { a, fake, ask } = await setUp();
    const cal = fake.store.get(ALICE, 'primary');
    const series = fake.seed(ALICE, 'primary', {
      summary: 'Standup',
      start: { dateTime: '2026-03-03T09:00:00-05:00', timeZone: 'America/New_York' },
      end: { dateTime: '2026-03-03T09:15:00-05:00', timeZone: 'America/New_York' },
      recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6'],
      attendees: [{ email: CAROL }],
    });
    const occurrence = `${series.id}_20260310T130000Z`;
    const malloryJoins = () =>
      fake.store.patch(
        cal,
        series.id!,
        { attendees: [...(fake.store.find(cal, series.id!).attendees ?? []), { email: MALLORY }] },
        false,
      );
    for (const scope of ['all', 'this_instance', 'this_and_following']) {
      const { card, call } = await ask('calendar_delete_event', { event_id: occurrence, scope });
      expect(card.effect).not.toContain(MALLORY);
      malloryJoins();
      await a.control.decide(card.id, { kind: 'allow_once' });
      expect(textOf(await call), scope).toMatch(/changed since it was approved.*Ask again/);
      fake.store.patch(cal, series.id!, { attendees: [{ email: CAROL }] }, false);
    }
    expect(fake.calls('DELETE', /\/events\//)).toHaveLength(0);
    expect(fake.store.find(cal, series.id!).status).toBe('confirmed');
    expect(fake.store.find(cal, series.id!).recurrence).toEqual([
      'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6',
    ]);
    expect(fake.store.find(cal, occurrence).status).toBe('confirmed');
  });

  it('an agent may not name the version itself', async () => {
    const { client, id, event } = await setUp();
    const r = await client.callTool({
      name: 'calendar_update_event',
      arguments: { event_id: id, description: 'x', event_etag: event().etag },
    });
    // Not a field of the tool (it is Airlock's, added after the checks read the event).
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/Invalid arguments for calendar_update_event:.*event_etag/);
    expect(event().description).toBe('As it was.');
  });
});

describe('two calls for one event do not stand in for each other', () => {
  it("a grant made on the first card holds to the guests that card's read found, not a later call's read", async () => {
    const { a, client, id, addMallory, ask } = await setUp();
    const args = { event_id: id, description: 'Agenda.', send_updates: 'none' };
    // Call A is read and shown (Carol); Mallory is added; call B, the same, is read and shown.
    const first = await ask('calendar_update_event', args);
    expect(first.card.effect).toContain(`Guests on the event: ${CAROL}`);
    addMallory();
    const second = await ask('calendar_update_event', args);
    expect(second.card.effect).toContain(`Guests on the event: ${CAROL}, ${MALLORY}`);
    expect(first.card.effect).not.toContain(MALLORY);
    // The user allows A always, for this event. The grant holds to A's guests: Carol alone.
    await a.control.decide(first.card.id, {
      kind: 'always_allow',
      confirm: true,
      constraint: { path: 'event_id', op: 'equals', value: id },
    });
    await first.call;
    const [grant] = await a.control.listGrants({});
    expect(grant?.scope?.tail).toContain(CAROL);
    expect(grant?.scope?.tail).not.toContain(MALLORY);
    await a.control.decide(second.card.id, { kind: 'deny' });
    await second.call;
    // A third call reaches Mallory too: the grant does not cover it, so it asks.
    const requested = nextRequest(a);
    const third = client.callTool({ name: 'calendar_update_event', arguments: args });
    const asked = await Promise.race([requested, third.then(() => null)]);
    expect(asked).not.toBeNull();
    await a.control.decide(asked!.id, { kind: 'deny' });
    await third;
  });
});

describe('Edit & Allow keeps the version the card showed', () => {
  it('an edit that drops the bound version still writes only that version', async () => {
    const { a, id, event, addMallory, ask, writes } = await setUp();
    const { card, call } = await ask('calendar_update_event', {
      event_id: id,
      description: 'Agenda.',
    });
    addMallory();
    const before = writes();
    // The user edits the text and clears the version fields.
    await a.control.decide(card.id, {
      kind: 'allow_edited',
      arguments: { event_id: id, description: 'Agenda, edited.' },
    });
    const result = await call;
    expect(textOf(result)).toMatch(/changed since it was approved/);
    expect(writes()).toBe(before);
    expect(event().description).toBe('As it was.');
  });

  it('an edit that names another version or another event is refused, and the request stays pending', async () => {
    const { a, fake, id, event, addMallory, ask } = await setUp();
    const { card, call } = await ask('calendar_update_event', {
      event_id: id,
      description: 'Agenda.',
    });
    addMallory();
    const other = fake.seed(ALICE, 'primary', {
      summary: 'Other',
      start: { dateTime: '2026-03-12T10:00:00-04:00' },
      end: { dateTime: '2026-03-12T11:00:00-04:00' },
    }).id!;
    const bound = card.arguments;
    await expect(
      a.control.decide(card.id, {
        kind: 'allow_edited',
        arguments: { ...bound, event_etag: event().etag },
      }),
    ).rejects.toThrow(/event_etag cannot be edited/);
    await expect(
      a.control.decide(card.id, {
        kind: 'allow_edited',
        arguments: { ...bound, event_id: other },
      }),
    ).rejects.toThrow(/event_id cannot be edited/);
    expect((await a.control.getApproval(card.id)).state).toBe('pending');
    await a.control.decide(card.id, { kind: 'deny' });
    await call;
    expect(event().description).toBe('As it was.');
  });
});

describe('the binding lives on the call, not in the tools the agent sees', () => {
  it("update and delete offer the agent no version field (their definitions, so their grants' fingerprints, are as before), and an edit that keeps the binding writes", async () => {
    // A field in the agent-visible schema changes the tool's fingerprint (approvals/policy.ts),
    // which put every Calendar update or delete grant made before it out of use; and it offers
    // the agent a field it may never give.
    const { a, client, fake, id, event, ask } = await setUp();
    const { tools } = await client.listTools();
    for (const name of ['calendar_update_event', 'calendar_delete_event']) {
      const props = tools.find((t) => t.name === name)?.inputSchema.properties ?? {};
      expect(Object.keys(props)).toContain('event_id');
      expect(Object.keys(props)).not.toContain('event_etag');
      expect(Object.keys(props)).not.toContain('series_etag');
    }
    const tag = event().etag;
    const { card, call } = await ask('calendar_update_event', {
      event_id: id,
      description: 'Agenda.',
    });
    expect(card.arguments).toMatchObject({ event_etag: tag });
    await a.control.decide(card.id, {
      kind: 'allow_edited',
      arguments: { ...card.arguments, description: 'Agenda, edited.' },
    });
    expect((await call).isError).toBeFalsy();
    expect(event().description).toBe('Agenda, edited.');
    expect(fake.calls('PATCH', new RegExp(`/events/${id}$`)).map((r) => r.ifMatch)).toEqual([tag]);
  });
});

describe("the card of a bound call whose checks' read is gone", () => {
  it('lists the guests of the version it is bound to, read again; and says it will fail once the event changed', async () => {
    // The reads are bounded (500): later calls push one out before its card is written. The card
    // then read the event afresh and showed no guests — of a call bound to a version it did not
    // show. A source of its own, over the same accounts, holds no read: as when it is gone.
    const bed = await calendarApp.testbed();
    const cal = bed.fake.store.get(ALICE, 'primary');
    const id = bed.fake.seed(ALICE, 'primary', {
      summary: 'Planning',
      start: { dateTime: '2026-03-10T10:00:00-04:00' },
      end: { dateTime: '2026-03-10T11:00:00-04:00' },
      attendees: [{ email: CAROL }],
    }).id!;
    const given = { event_id: id, description: 'Agenda.' };
    const content = await bed.source.callContent(
      'calendar_update_event',
      given,
      new AbortController().signal,
    );
    const args = { ...content?.bind, ...given };
    expect(args).toHaveProperty('event_etag');
    const forgetful = () => new CalendarSource(bed.access, { now: () => new Date('2026-03-01') });
    const card = await forgetful().describeEffectAsync('calendar_update_event', args);
    expect(card).toContain(`Guests on the event: ${CAROL}`);
    expect(card).not.toContain('FAIL');
    bed.fake.store.patch(cal, id, { attendees: [{ email: CAROL }, { email: MALLORY }] }, false);
    const changed = await forgetful().describeEffectAsync('calendar_update_event', args);
    expect(changed).toContain('This call will FAIL and change nothing');
  });
});

describe('the fake Calendar API honours If-Match as Google documents', () => {
  it('a patch or delete with a stale etag gets 412 conditionNotMet and changes nothing', async () => {
    const bed = await calendarApp.testbed();
    const e = bed.fake.seed(ALICE, 'primary', {
      summary: 'Planning',
      start: { dateTime: '2026-03-10T10:00:00-04:00' },
      end: { dateTime: '2026-03-10T11:00:00-04:00' },
    });
    const url = `${bed.fake.rootUrl}calendar/v3/calendars/primary/events/${e.id}`;
    const headers = (etag: string) => ({
      authorization: `Bearer ${TOKENS[ALICE]}`,
      'content-type': 'application/json',
      'if-match': etag,
    });
    const patch = (etag: string) =>
      fetch(url, { method: 'PATCH', headers: headers(etag), body: '{"summary":"New"}' });
    const ok = await patch(e.etag!);
    expect(ok.status).toBe(200);
    const after = (await ok.json()) as { etag: string };
    expect(after.etag).not.toBe(e.etag);
    const stale = await patch(e.etag!);
    expect(stale.status).toBe(412);
    expect(await stale.json()).toMatchObject({
      error: { code: 412, errors: [{ domain: 'global', reason: 'conditionNotMet' }] },
    });
    const del = await fetch(url, { method: 'DELETE', headers: headers(e.etag!) });
    expect(del.status).toBe(412);
    expect(bed.fake.store.find(bed.fake.store.get(ALICE, 'primary'), e.id!).summary).toBe('New');
  });
});
