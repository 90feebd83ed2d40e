import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../../common/contract';
import { SummaryView } from './SummaryView';
import { summarize } from './summary';

/**
 * A preview laid out from a third party's arguments reads recipients and guests as text (a string
 * or a list of strings). Given in another shape — Google's own `attendees: [{ email }]`, a list
 * mixing a string and an object — they were dropped without a word (red-team finding R4): the
 * event read "Who: boss@example.com" or had no Who at all while the server invites whoever the
 * objects name, and the argument, being one the preview "shows", was not in "Not in this
 * preview" either. An argument the preview shows only in part is named there.
 */
const approval = (tool: string, args: Record<string, unknown>) =>
  ({
    id: 'a1',
    agent: 'agent',
    tool,
    thirdParty: true,
    effect: `${tool}: does it`,
    arguments: args,
    inputSchema: { type: 'object' },
    state: 'pending',
    createdAt: '2026-01-01T00:00:00Z',
    expiresAt: '2026-01-01T00:05:00Z',
  }) as ApprovalView;

const unshown = (tool: string, args: Record<string, unknown>) => {
  const s = summarize(approval(tool, args));
  return s.kind === 'generic' ? null : (s.unshown ?? []);
};

describe('a preview names the arguments it could not read', () => {
  it("Google's attendee objects: the event names `attendees` as not in the preview", () => {
    const args = {
      summary: 'Sync',
      start: '2026-03-10T10:00',
      attendees: [{ email: 'eve@evil.test' }],
    };
    expect(unshown('calendar__create_event', args)).toContain('attendees');
    const html = renderToStaticMarkup(
      <SummaryView approval={approval('calendar__create_event', args)} />,
    );
    expect(html).toMatch(/<dt>Not in this preview<\/dt><dd><span>attendees<\/span><\/dd>/);
  });

  it('a list mixing an address and an object, and recipients as objects', () => {
    expect(
      unshown('calendar__create_event', {
        summary: 'Sync',
        start: '2026-03-10T10:00',
        attendees: ['boss@example.com', { email: 'eve@evil.test' }],
      }),
    ).toContain('attendees');
    expect(
      unshown('mailer__send', {
        to: [{ address: 'eve@evil.test' }],
        cc: 'boss@example.com',
        subject: 'Q3',
        body: 'hi',
      }),
    ).toEqual(['to']);
  });

  it('text, numbers and lists of text are read: nothing more is named', () => {
    expect(
      unshown('calendar__create_event', {
        summary: 'Sync',
        start: '2026-03-10T10:00',
        duration_minutes: 30,
        attendees: ['boss@example.com'],
      }),
    ).toEqual([]);
  });

  it('a number or flag where the preview reads text, or an end without a start, is named', () => {
    expect(
      unshown('calendar__create_event', {
        summary: 'Sync',
        start: 1765000000000,
        send_updates: true,
        attendees: ['boss@example.com'],
      }),
    ).toEqual(['start', 'send_updates']);
    expect(
      unshown('mailer__send', { to: 'boss@example.com', subject: 'Q3', body: 'hi', bcc: 42 }),
    ).toEqual(['bcc']);
    // An end without a start: there is no "When" to show it in.
    expect(
      unshown('calendar__create_event', {
        summary: 'Sync',
        end: '2026-03-10T10:30',
        time_zone: 'UTC',
      }),
    ).toEqual(['end', 'time_zone']);
    // A duration beside an end: "When" shows the end, not the duration.
    expect(
      unshown('calendar__create_event', {
        summary: 'Sync',
        start: '2026-03-10T10:00',
        end: '2026-03-10T10:30',
        duration_minutes: 600,
      }),
    ).toEqual(['duration_minutes']);
  });
});
