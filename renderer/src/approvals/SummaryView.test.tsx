import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../../common/contract';
import { SummaryView } from './SummaryView';

/** The card's e-mail preview shows every attached file the core listed (issue 33 item 2). */
describe('SummaryView: attachments', () => {
  it('one row per attachment, with name, type, size and the message it is taken from', () => {
    const approval = {
      id: 'a1',
      agent: 'agent',
      tool: 'gmail_send',
      effect: [
        'Send an email from alice@example.com — the recipient sees it immediately.',
        'From: alice@example.com',
        'To: bob@example.com',
        'Subject: Totals',
        'Attachment: from message m7 from g@x.example (text/csv, 52 B), subject "Invoice", named "totals.csv"',
        'Attachment: given by the agent (text/plain, 6 B), named "notes.txt"',
        '',
        'Here you are.',
      ].join('\n'),
      arguments: { to: ['bob@example.com'], subject: 'Totals', body: 'Here you are.' },
      inputSchema: { type: 'object', properties: { subject: { type: 'string' } } },
      state: 'pending',
      createdAt: '2026-01-01T00:00:00Z',
      expiresAt: '2026-01-01T00:05:00Z',
    } as ApprovalView;
    const html = renderToStaticMarkup(<SummaryView approval={approval} />);
    const rows = html.match(/data-testid="summary-email-attachment"/g) ?? [];
    expect(rows).toHaveLength(2);
    expect(html).toContain('from message m7 from g@x.example (text/csv, 52 B)');
    expect(html).toContain('given by the agent (text/plain, 6 B), named &quot;notes.txt&quot;');
  });
});
