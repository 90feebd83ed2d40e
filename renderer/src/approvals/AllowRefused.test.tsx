import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../../common/contract';
import { AllowRefusedNotice } from './AllowRefused';
import { ApprovalCard } from './ApprovalCard';
import { DecisionButtons } from './DecisionButtons';
import { EditForm } from './EditForm';
import { GrantDialog } from './GrantDialog';

/**
 * The card said why an allow would be refused only once it was pressed (a normal card, a click,
 * an error). With ApprovalView.refused it says so above the buttons, and the allows it names are
 * off, each described by its reason; Deny stays.
 */
const base = {
  id: 'a1',
  agent: 'agent',
  tool: 'count_send',
  effect: 'Sends a message.',
  arguments: { to: 'bob@example.com' },
  inputSchema: { type: 'object' },
  state: 'pending',
  createdAt: '2026-01-01T00:00:00Z',
  expiresAt: '2026-01-01T00:05:00Z',
} as ApprovalView;
const CHANGED =
  'count_send changed since this request was shown (its input schema…); nothing was run.';
const GRANT =
  'count_send changed since this request was shown (its description…); "Allow once" still runs this call as shown.';
const noop = () => {};

const buttons = (approval: ApprovalView) =>
  renderToStaticMarkup(
    <>
      <AllowRefusedNotice approval={approval} idPrefix="c" />
      <DecisionButtons
        approval={approval}
        idPrefix="c"
        ready
        disabledWhy={undefined}
        onAllowOnce={noop}
        onAlwaysAllow={noop}
        onEdit={noop}
        onDeny={noop}
      />
    </>,
  );
/** The <button> tag with this test id. */
const button = (html: string, testId: string) =>
  html.match(new RegExp(`<button[^>]*data-testid="${testId}"[^>]*>`))?.[0] ?? '';
const describedBy = (tag: string) => tag.match(/aria-describedby="([^"]+)"/)?.[1];
const textOf = (html: string, id: string) =>
  html.match(new RegExp(`<p id="${id}">([^<]*)</p>`))?.[1];

describe('a card whose allows would be refused says so before any is pressed', () => {
  it('what runs changed: the reason shows, every allow is off and described by it, Deny stays', () => {
    const html = buttons({
      ...base,
      refused: {
        allow_once: { code: 'CONFLICT', message: CHANGED },
        allow_edited: { code: 'CONFLICT', message: CHANGED },
        always_allow: { code: 'CONFLICT', message: CHANGED },
      },
    });
    expect(html).toContain('data-testid="allow-refused"');
    for (const id of ['allow-once', 'edit-allow', 'always-allow']) {
      const tag = button(html, id);
      expect(tag).toMatch(/ disabled=""/);
      expect(textOf(html, describedBy(tag)!)).toBe(CHANGED.replace(/"/g, '&quot;'));
    }
    expect(button(html, 'deny')).not.toMatch(/disabled/);
  });

  it('only the words changed: "Always allow" alone is off, with its own reason', () => {
    const html = buttons({
      ...base,
      refused: { always_allow: { code: 'CONFLICT', message: GRANT } },
    });
    expect(button(html, 'always-allow')).toMatch(/ disabled=""/);
    expect(textOf(html, describedBy(button(html, 'always-allow'))!)).toBe(
      GRANT.replace(/"/g, '&quot;'),
    );
    for (const id of ['allow-once', 'edit-allow', 'deny']) {
      expect(button(html, id)).not.toMatch(/disabled/);
      expect(describedBy(button(html, id))).toBeUndefined();
    }
  });

  it('nothing refused: no notice, every button on', () => {
    const html = buttons(base);
    expect(html).not.toContain('allow-refused');
    expect(html).not.toMatch(/disabled/);
  });

  it('the card puts the reason above its buttons', () => {
    const html = renderToStaticMarkup(
      <ApprovalCard
        approval={{ ...base, refused: { allow_once: { code: 'CONFLICT', message: CHANGED } } }}
        now={Date.parse(base.createdAt)}
        connected
        decide={async () => {}}
        onConflict={noop}
        onMove={noop}
      />,
    );
    const notice = html.indexOf('data-testid="allow-refused"');
    expect(notice).toBeGreaterThan(-1);
    expect(notice).toBeLessThan(html.indexOf('data-testid="allow-once"'));
  });
});

describe('a form already open when its allow becomes refused says so, and its allow is off', () => {
  it('Edit & Allow: the reason in the form, its submit off and described by it; Cancel stays', () => {
    const html = renderToStaticMarkup(
      <EditForm
        approval={base}
        busy={false}
        serverError={null}
        refused={CHANGED}
        onSubmit={noop}
        onCancel={noop}
      />,
    );
    const submit = button(html, 'edit-submit');
    expect(submit).toMatch(/ disabled=""/);
    const why = describedBy(submit);
    expect(html).toContain(`id="${why}" data-testid="edit-refused">${CHANGED}</p>`);
    expect(html.match(/<button type="button"[^>]*>Cancel<\/button>/)?.[0]).not.toMatch(/disabled/);
    const open = renderToStaticMarkup(
      <EditForm approval={base} busy={false} serverError={null} onSubmit={noop} onCancel={noop} />,
    );
    expect(button(open, 'edit-submit')).not.toMatch(/disabled/);
    expect(open).not.toContain('edit-refused');
  });

  it('the grant dialog: the reason in place of an error, its confirm off; Cancel stays', () => {
    const html = renderToStaticMarkup(
      <GrantDialog
        approval={base}
        open
        busy={false}
        error={null}
        refused={GRANT}
        onConfirm={noop}
        onCancel={noop}
      />,
    );
    expect(button(html, 'confirm-yes')).toMatch(/ disabled=""/);
    expect(html).toContain(GRANT.replace(/"/g, '&quot;'));
    expect(html.match(/<button type="button"[^>]*>Cancel<\/button>/)?.[0]).not.toMatch(/disabled/);
    const open = renderToStaticMarkup(
      <GrantDialog
        approval={base}
        open
        busy={false}
        error={null}
        onConfirm={noop}
        onCancel={noop}
      />,
    );
    expect(button(open, 'confirm-yes')).not.toMatch(/disabled/);
  });
});
