import { describe, expect, it } from 'vitest';
import { formatPoint, parseEffect, summarize } from './summary';

describe('approval summary', () => {
  it('splits an effect into headline, fields and preview', () => {
    const effect =
      'Send an email from alice@example.com — the recipient sees it immediately.\nFrom: alice@example.com\nTo: Bob <bob@example.com>, carol@example.com\nSubject: Lunch\n\nHi Bob,\nsee you.';
    expect(parseEffect(effect)).toEqual({
      headline: 'Send an email from alice@example.com — the recipient sees it immediately.',
      fields: [
        ['From', 'alice@example.com'],
        ['To', 'Bob <bob@example.com>, carol@example.com'],
        ['Subject', 'Lunch'],
      ],
      rest: 'Hi Bob,\nsee you.',
    });
    expect(parseEffect('Run test_block')).toEqual({
      headline: 'Run test_block',
      fields: [],
      rest: '',
    });
  });

  it('an e-mail uses the core’s headers and the full body from the arguments', () => {
    const s = summarize({
      tool: 'gmail_send',
      effect:
        'Send an email from alice@example.com — the recipient sees it immediately.\nFrom: alice@example.com\nTo: bob@example.com\nSubject: Re: Plans\nIn reply to: message m1 (same thread)\n\nline 1',
      arguments: {
        to: ['bob@example.com'],
        body: 'line 1\nline 2\nline 3',
        reply_to_message_id: 'm1',
      },
    });
    expect(s).toEqual({
      kind: 'email',
      from: 'alice@example.com',
      to: ['bob@example.com'],
      cc: [],
      bcc: [],
      subject: 'Re: Plans',
      body: 'line 1\nline 2\nline 3',
      reply: true,
      inReplyTo: 'message m1 (same thread)',
      attachments: [],
    });
  });

  it('an e-mail lists every attachment line the core wrote, in order', () => {
    const s = summarize({
      tool: 'gmail_send',
      effect: [
        'Send an email from alice@example.com — the recipient sees it immediately.',
        'From: alice@example.com',
        'To: bob@example.com',
        'Subject: Totals',
        'Attachment: from message m7 from Grace <g@x.example> (text/csv, 52 B), subject "Invoice", named "totals.csv"',
        'Attachment: given by the agent (text/plain, 6 B), named "notes.txt"',
        '',
        'Here you are.',
      ].join('\n'),
      arguments: { to: ['bob@example.com'], body: 'Here you are.' },
    });
    expect(s).toMatchObject({
      kind: 'email',
      attachments: [
        'from message m7 from Grace <g@x.example> (text/csv, 52 B), subject "Invoice", named "totals.csv"',
        'given by the agent (text/plain, 6 B), named "notes.txt"',
      ],
      body: 'Here you are.',
    });
  });

  it('falls back to the arguments for a mail-like tool whose effect is one sentence', () => {
    expect(
      summarize({
        tool: 'test_send',
        effect: 'Send "hi" to bob@example.com',
        arguments: { to: 'bob@example.com', body: 'hi' },
      }),
    ).toMatchObject({ kind: 'email', to: ['bob@example.com'], body: 'hi', reply: false });
  });

  it('an event: what, when, where, who — all-day dates never shift a day', () => {
    const s = summarize({
      tool: 'calendar_create_event',
      effect: "Create an event, …. Title: 'Offsite'",
      arguments: {
        summary: 'Offsite',
        start: '2026-03-10',
        end: '2026-03-11',
        location: 'Berlin',
        attendees: ['a@x.com', 'b@x.com'],
        send_updates: 'none',
      },
    });
    expect(s).toMatchObject({
      kind: 'event',
      what: 'Offsite',
      where: 'Berlin',
      who: ['a@x.com', 'b@x.com'],
      notify: 'Nobody is e-mailed',
    });
    expect(s.kind === 'event' && s.when).toMatch(
      /10.*Mar.*2026.*11.*Mar.*2026, all day|Mar.*10.*2026.*Mar.*11.*2026, all day/,
    );
    expect(formatPoint('2026-03-10', 'en-GB').date).toBe('Tue, 10 Mar 2026');
    expect(formatPoint('2026-03-10T09:30', 'en-GB')).toEqual({
      date: 'Tue, 10 Mar 2026',
      time: '09:30',
    });
  });

  it('a time with an offset is shown in the event’s own zone, as the card labels it', () => {
    // 23:30 in New York is already the next day in UTC and in Tokyo: the card must say the 10th,
    // at 23:30, whatever zone the viewer's browser is in (the effect text uses the event's zone).
    for (const [v, zone] of [
      ['2026-03-11T03:30:00Z', 'America/New_York'],
      ['2026-03-10T23:30:00-04:00', 'America/New_York'],
      ['2026-03-11T12:30:00+09:00', 'America/New_York'],
    ] as const) {
      expect(formatPoint(v, 'en-GB', zone)).toEqual({ date: 'Tue, 10 Mar 2026', time: '23:30' });
    }
    const s = summarize({
      tool: 'calendar_create_event',
      effect: 'Create event "Late call"',
      arguments: {
        summary: 'Late call',
        start: '2026-03-11T03:30:00Z',
        end: '2026-03-11T04:00:00Z',
        time_zone: 'America/New_York',
      },
    });
    expect(s.kind === 'event' && s.when).toMatch(
      /10.*(23:30|11:30\sPM) – .*11.*(00:00|12:00\sAM) \(America\/New_York\)$/,
    );
    // An unknown zone name falls back to the viewer's zone instead of throwing.
    expect(() => formatPoint('2026-03-11T04:30:00Z', 'en-GB', 'Not/AZone')).not.toThrow();
  });

  it('anything else stays generic', () => {
    expect(
      summarize({ tool: 'test_block', effect: 'Run test_block', arguments: { id: 'x' } }),
    ).toEqual({ kind: 'generic' });
    expect(
      summarize({
        tool: 'calendar_delete_event',
        effect: 'Delete event e1',
        arguments: { event_id: 'e1' },
      }),
    ).toEqual({ kind: 'generic' });
  });
});

describe('previews come only from the real arguments (issue 17 item 8)', () => {
  it('a third party’s effect with e-mail-like lines never becomes an e-mail preview', () => {
    const s = summarize({
      tool: 'notes__save',
      thirdParty: true,
      effect: 'Save note\nTo: ceo@corp.com\nSubject: Wire the money\n\nPlease pay.',
      arguments: { text: 'hello' },
    });
    expect(s).toEqual({ kind: 'generic' });
  });

  it('a third-party mail tool is previewed from its arguments, not from its effect text', () => {
    const s = summarize({
      tool: 'mailer__send',
      thirdParty: true,
      effect: 'Send\nTo: someone-else@example.com\nSubject: Other',
      arguments: { to: 'real@example.com', subject: 'Real', body: 'b' },
    });
    expect(s).toMatchObject({ kind: 'email', to: ['real@example.com'], subject: 'Real' });
  });
});
