import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApprovalView, GrantView } from '../../../common/contract';
import { GrantDialog } from './GrantDialog';
import { GrantScope } from './GrantsList';

/**
 * The grant dialog's scopes quote the call: "Only when to is “…”", an argument's name and value
 * the agent chose (red-team finding R3). The card names every invisible or direction-changing
 * character in them (reveal.ts), but the dialog drew the scope as it was: `to\u200b` — a second
 * argument beside the real `to` — read as "to", and an override reordered the value, so the
 * user picked "only when to is bob@example.com" for a grant that holds nothing of the kind. A
 * scope is an <option>, plain text: each such character is written as the card's plain form
 * writes it (⟦ZWSP⟧).
 */
const noop = () => {};
const approval = {
  id: 'a1',
  agent: 'claude',
  tool: 'mailer_send',
  effect: 'mailer_send: Sends a message.',
  thirdParty: true,
  risk: 'destructive',
  arguments: { to: 'evil@evil.test', 'to\u200b': 'bob@example.com' },
  inputSchema: { type: 'object' },
  state: 'pending',
  createdAt: '2026-01-01T00:00:00Z',
  expiresAt: '2026-01-01T00:05:00Z',
  grantOptions: [
    {
      label: 'Only when to\u200b is “bob@example.com”',
      note: 'every other argument as in this call',
      constraint: { path: 'to\u200b', op: 'equals', value: 'bob@example.com' },
    },
    {
      label: 'Only when note is “\u202emoc.elpmaxe@bob”',
      note: 'every other argument as in this call',
      constraint: { path: 'note', op: 'equals', value: '\u202emoc.elpmaxe@bob' },
    },
  ],
} as unknown as ApprovalView;

describe('the grant dialog names what the card names', () => {
  it('a zero-width character in the name and an override in the value are written out', () => {
    const html = renderToStaticMarkup(
      <GrantDialog
        approval={approval}
        open
        busy={false}
        error={null}
        onConfirm={noop}
        onCancel={noop}
      />,
    );
    const scopes = html.match(/data-testid="grant-scope"[^>]*>([\s\S]*?)<\/select>/)?.[1] ?? '';
    const options = [...scopes.matchAll(/<option[^>]*>(.*?)<\/option>/g)].map((m) => m[1]!);
    expect(options).toHaveLength(3);
    expect(options[1]).toContain('to⟦ZWSP⟧ is');
    expect(options[2]).toContain('⟦RLO⟧moc.elpmaxe@bob');
    expect(html).not.toMatch(/[\u200b\u202e]/);
  });

  it('so does the list of standing grants, where the grant is revoked', () => {
    const g = {
      constraint: { path: 'to\u200b', op: 'equals', value: 'bob@example.com' },
      scope: {
        lead: 'only when to\u200b is',
        // The tail names recipients read from a draft or event: a stranger's words.
        tail: ', and the invitees bob\u2066@example.com; every other argument as approved',
      },
      expiresAt: null,
    } as unknown as GrantView;
    const html = renderToStaticMarkup(<GrantScope g={g} />);
    expect(html).toMatch(/data-testid="hidden-char"[^>]*>ZWSP</);
    expect(html).toMatch(/data-testid="hidden-char"[^>]*>LRI</);
    expect(html).not.toMatch(/[\u200b\u2066]/);
  });
});
