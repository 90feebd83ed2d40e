import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nextRequest } from '../../../test-support/core-events.js';
import {
  ALICE,
  calendarTestbed,
  TOKENS,
  type CalendarTestbed,
} from '../../../e2e/fake-google/calendar-testbed.js';
import {
  connectClient,
  startTestApp,
  textOf,
  type TestApp,
} from '../../../test-support/harness.js';

let bed: CalendarTestbed;
let app: TestApp;
let client: Client;

beforeEach(async () => {
  bed = await calendarTestbed();
  app = await startTestApp({ sources: [bed.source] });
  client = await connectClient(app.started.mcpUrl, app.token);
  // The registry called ready(), which fetches the primary calendar's zone for approval texts.
  await bed.source.warmUp();
});
afterEach(async () => {
  await client.close();
  await app.stop();
  await bed.stop();
});

const CREATE = {
  summary: 'Standup',
  start: '2026-03-10T10:00',
  duration_minutes: 15,
  attendees: ['bob@example.com'],
};
const inserts = () => bed.fake.calls('POST', /\/events$/);

describe('calendar tools through a real App and MCP client', () => {
  it('lists tools with their names; a read runs at once', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['calendar_list_events', 'calendar_create_event', 'calendar_respond']),
    );
    bed.fake.seed(ALICE, 'primary', {
      summary: 'Dentist',
      start: { date: '2026-03-10' },
      end: { date: '2026-03-11' },
    });
    const r = await client.callTool({
      name: 'calendar_list_events',
      arguments: { time_min: '2026-03-10', time_max: '2026-03-10' },
    });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toMatch(/Tue 10 Mar \(all day\) · "Dentist"/);
    expect(JSON.stringify(r)).not.toContain(TOKENS[ALICE]);
  });

  it('a create that cannot run is refused before the user is asked', async () => {
    const asked: string[] = [];
    const off = app.app.events.subscribe(
      (e) => e.type === 'approval.requested' && asked.push(e.approval.id),
    );
    for (const bad of [
      { ...CREATE, time_zone: 'Mars/Olympus' },
      {
        ...CREATE,
        start: '2026-03-10T10:00',
        end: '2026-03-10T09:00',
        duration_minutes: undefined,
      },
      { ...CREATE, attendees: ['not an address'] },
    ]) {
      const r = await client.callTool({ name: 'calendar_create_event', arguments: bad });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^Invalid arguments for calendar_create_event: /);
    }
    off();
    expect(asked).toEqual([]);
    expect(inserts()).toHaveLength(0);
  });

  it('create waits for approval, then reaches the fake exactly once', async () => {
    const requested = nextRequest(app.app);
    const call = client.callTool({ name: 'calendar_create_event', arguments: CREATE });
    const req = await requested;
    expect(req.tool).toBe('calendar_create_event');
    expect(req.effect).toBe(
      'Create an event, Tue 10 Mar 10:00–10:15 (America/New_York), 1 attendee — invitations will be e-mailed. Title: “Standup”',
    );
    expect(inserts()).toHaveLength(0);
    await app.app.control.decide(req.id, { kind: 'allow_once' });
    const r = await call;
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toMatch(/Created "Standup", Tue 10 Mar 10:00–10:15/);
    expect(inserts()).toHaveLength(1);
    expect(inserts()[0]!.query.sendUpdates).toBe('all');
    // A repeat of the same call gets the stored outcome; Google is not asked again.
    await client.callTool({ name: 'calendar_create_event', arguments: CREATE });
    expect(inserts()).toHaveLength(1);
  });

  it('a denied create never reaches the fake', async () => {
    const requested = nextRequest(app.app);
    const call = client.callTool({ name: 'calendar_create_event', arguments: CREATE });
    await app.app.control.decide((await requested).id, { kind: 'deny', reason: 'no' });
    const r = await call;
    expect(r.isError).toBe(true);
    expect(inserts()).toHaveLength(0);
  });
});
