import { expect, test, type Page } from '@playwright/test';
import { runs } from './helpers/files.js';
import { callTool, textOf } from './helpers/mcp-client.js';
import { card, controlApi, openApprovals, waitForPending } from './helpers/control.js';
import { marker, useAirlock } from './helpers/suite.js';

// Issue 16 items 2-5 and 7, issue 17 items 1 and 8: decisions only from deliberate,
// visible acts; grants with a scope; a card that tells the truth; Activity to the end.
test.describe.configure({ mode: 'serial' });
// The longest wait there is (300 s, past the test timeout): a call the test decides is never
// answered "waiting" first, however slow the machine (issue 29 item 2: a 2 s wait ran out before
// the key press). The one test about an agent that stopped waiting shortens it for its own call.
const airlock = useAirlock({ settings: { approvals: { waitSeconds: 300 } } });
const TO = 'ann@example.com';

/** Sends a keydown straight to an element, as a held key's auto-repeat or an instant keypress would. */
async function keydown(
  page: Page,
  selector: string,
  init: { key: string; ctrlKey?: boolean; shiftKey?: boolean; repeat?: boolean },
) {
  // (A string, not a function: this project's type-check has no DOM lib.)
  await page.evaluate(
    `document.querySelector(${JSON.stringify(selector)})?.dispatchEvent(
      new KeyboardEvent('keydown', { bubbles: true, ...${JSON.stringify(init)} }))`,
  );
}

test('the popup opened for request 3 of 3 focuses request 3; `a` alone and a held key decide nothing', async ({
  page,
}) => {
  const { server, agent, profile } = airlock();
  const bodies = [marker('one'), marker('two'), marker('three')];
  const calls = bodies.map((body) => callTool(agent, 'test_send', { to: TO, body }));
  const reqs = [];
  for (const body of bodies) reqs.push(await waitForPending(server, body));
  const third = reqs[2]!;

  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto(`${server.url}/#/popup?id=${third.id}&token=${server.controlToken}`);
  const c3 = card(page, bodies[2]!);
  await expect(c3).toBeFocused();
  await expect(card(page, bodies[0]!)).not.toBeFocused();
  await expect(c3).toHaveAttribute('data-armed', 'true');

  // `a` alone: a hint, no decision.
  await page.keyboard.press('a');
  await expect(c3.getByTestId('decision-tip')).toContainText('+Enter');
  // Holding `a` (the second down is an auto-repeat) and auto-repeated Ctrl+Enter: nothing.
  for (let i = 0; i < 10; i++) await page.keyboard.down('a');
  await page.keyboard.up('a');
  const sel = `[data-approval-id="${third.id}"]`;
  for (let i = 0; i < 5; i++)
    await keydown(page, sel, { key: 'Enter', ctrlKey: true, repeat: true });
  const api = controlApi(server);
  expect((await api.listPending()).map((a) => a.id).sort()).toEqual(reqs.map((r) => r.id).sort());
  await expect(c3).toBeFocused();

  // A deliberate Ctrl+Enter allows the focused request, and only that one.
  await page.keyboard.press('Control+Enter');
  expect(textOf(await calls[2]!)).toBe(`sent to ${TO}: ${bodies[2]}`);
  expect(runs(profile.counterFile, 'send', bodies[0]!)).toBe(0);
  expect(runs(profile.counterFile, 'send', bodies[1]!)).toBe(0);
  for (const r of reqs.slice(0, 2)) await api.decide(r.id, { kind: 'deny' });
  await Promise.all(calls);
});

test('a card that has just appeared cannot be decided by a key meant for something else', async ({
  page,
}) => {
  const { server, agent } = airlock();
  await openApprovals(page, server);
  const body = marker('fresh');
  // Fire Ctrl+Enter at the card the instant it is inserted, before it has been on screen.
  await page.evaluate(`{
    const m = ${JSON.stringify(body)};
    const obs = new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="approval-card"]')) {
        if (!el.textContent.includes(m)) continue;
        obs.disconnect();
        el.focus();
        el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true }));
        el.dataset.poked = 'yes';
      }
    });
    obs.observe(document.body, { childList: true, subtree: true });
  }`);
  const call = callTool(agent, 'test_send', { to: TO, body });
  const c = card(page, body);
  await expect(c).toHaveAttribute('data-poked', 'yes');
  await expect(c.getByTestId('decision-tip')).toContainText('read it first');
  await expect(c).toHaveAttribute('data-armed', 'true');
  const req = await waitForPending(server, body);
  expect((await controlApi(server).getApproval(req.id)).state).toBe('pending');
  await c.getByRole('button', { name: 'Allow once' }).click();
  expect(textOf(await call)).toBe(`sent to ${TO}: ${body}`);
});

test('the request that takes the keyboard after a decision is not decided by a second press meant for the one before', async ({
  page,
}) => {
  // Audit: a hostile agent puts its real call right behind a harmless one. The user allows the
  // harmless one with Ctrl+Enter; the next card gets the keyboard by itself, and was on screen
  // long enough to count as read — so a second Ctrl+Enter (a double press, a key the user thought
  // missed) allowed the rider unread.
  const { server, agent, profile } = airlock();
  await openApprovals(page, server);
  const first = marker('harmless');
  const rider = marker('rider');
  const call1 = callTool(agent, 'test_send', { to: TO, body: first });
  await expect(card(page, first)).toBeVisible();
  const call2 = callTool(agent, 'test_send', { to: 'eve@evil.test', body: rider });
  const c2 = card(page, rider);
  await expect(c2).toHaveAttribute('data-armed', 'true'); // on screen long enough to count as read
  const req2 = await waitForPending(server, rider);
  // The second press, sent at the very moment the rider's card gets the keyboard.
  await page.evaluate(`{
    const id = ${JSON.stringify(req2.id)};
    const onFocus = (e) => {
      const el = e.target;
      if (!(el instanceof HTMLElement) || el.dataset.approvalId !== id) return;
      document.removeEventListener('focusin', onFocus);
      el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true }));
      el.dataset.poked = 'yes';
    };
    document.addEventListener('focusin', onFocus);
  }`);
  await card(page, first).focus();
  await expect(card(page, first)).toHaveAttribute('data-armed', 'true');
  await page.keyboard.press('Control+Enter');
  expect(textOf(await call1)).toBe(`sent to ${TO}: ${first}`);
  await expect(c2).toBeFocused();
  await expect(c2).toHaveAttribute('data-poked', 'yes');
  await expect(c2.getByTestId('decision-tip')).toContainText('read it first');
  const api = controlApi(server);
  expect((await api.getApproval(req2.id)).state).toBe('pending');
  expect(runs(profile.counterFile, 'send', rider)).toBe(0);
  // Read where it is now, a deliberate press decides it (here: a deny, through the form).
  await expect(c2).toHaveAttribute('data-armed', 'true');
  await page.keyboard.press('d');
  await page.keyboard.press('Enter');
  expect(textOf(await call2)).toMatch(/denied/i);
  expect(runs(profile.counterFile, 'send', rider)).toBe(0);
});

test('a window brought to the front does not take a key pressed in another app', async ({
  page,
}) => {
  // Audit: the card was on screen (a window behind others still counts as visible) and armed; a
  // deep link or a notification click brings the window forward with the card focused, under a
  // Ctrl+Enter the user was pressing to send a message in their chat app.
  const { server, agent, profile } = airlock();
  await openApprovals(page, server);
  const body = marker('behind');
  const call = callTool(agent, 'test_send', { to: 'eve@evil.test', body });
  const c = card(page, body);
  await c.focus();
  await expect(c).toHaveAttribute('data-armed', 'true');
  const req = await waitForPending(server, body);
  // The window gets the focus, and the key arrives in the same instant.
  await page.evaluate(`{
    window.dispatchEvent(new FocusEvent('focus'));
    const el = document.querySelector('[data-approval-id="${req.id}"]');
    el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true }));
  }`);
  await expect(c.getByTestId('decision-tip')).toContainText('read it first');
  expect((await controlApi(server).getApproval(req.id)).state).toBe('pending');
  expect(runs(profile.counterFile, 'send', body)).toBe(0);
  await expect(c).toHaveAttribute('data-armed', 'true');
  await controlApi(server).decide(req.id, { kind: 'deny' });
  await call;
});

test('always allow opens a confirmation; a grant scoped to a recipient domain runs matching calls, asks for others, and is revocable', async ({
  page,
}) => {
  const { server, agent, profile } = airlock();
  const api = controlApi(server);
  await openApprovals(page, server);
  const first = marker('grant');
  const call = callTool(agent, 'test_send', { to: TO, body: first });
  const c = card(page, first);
  await c.focus();
  await expect(c).toHaveAttribute('data-armed', 'true');
  await page.keyboard.press('Shift+A');
  const dialog = page.getByTestId('grant-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('without asking');
  await dialog
    .getByTestId('grant-scope')
    .selectOption({ label: 'Only when every recipient (to) is in @example.com' });
  await dialog.getByRole('button', { name: 'Allow without asking' }).click();
  expect(textOf(await call)).toBe(`sent to ${TO}: ${first}`);

  // Matching: runs at once, no card.
  const match = marker('match');
  expect(textOf(await callTool(agent, 'test_send', { to: 'bob@example.com', body: match }))).toBe(
    `sent to bob@example.com: ${match}`,
  );
  // Not matching (another domain, or a look-alike): asks.
  const other = marker('other');
  const otherCall = callTool(agent, 'test_send', { to: 'eve@example.com.evil.org', body: other });
  const otherReq = await waitForPending(server, other);
  await api.decide(otherReq.id, { kind: 'deny' });
  await otherCall;
  expect(runs(profile.counterFile, 'send', other)).toBe(0);

  // Activity shows the grant being made and used.
  await page.goto(`${server.url}/#/activity`);
  await expect(page.getByTestId('activity-decision').filter({ hasText: 'Grant made' })).toHaveCount(
    1,
  );
  await expect(
    page.getByTestId('activity-decision').filter({ hasText: 'Allowed by a grant' }),
  ).toHaveCount(1);
  // The grant is shown, and revocable, right where its use is listed.
  await page
    .getByRole('row')
    .filter({ hasText: 'Allowed by a grant' })
    .getByTestId('activity-details')
    .click();
  await expect(page.getByTestId('grant-record')).toContainText(
    'only when every recipient (to) is in @example.com',
  );
  await expect(page.getByTestId('grant-record')).toContainText('used 1 time');

  // Revoked in one click where it is listed: the next matching call asks.
  await page.goto(`${server.url}/#/approvals`);
  const item = page.getByTestId('grant-item').filter({ hasText: 'test_send' });
  await expect(item).toContainText(
    'only when every recipient (to) is in @example.com; body may differ, everything else as in the call you approved',
  );
  await item.getByRole('button', { name: 'Revoke' }).click();
  await expect(item).toHaveCount(0);
  const after = marker('after');
  const afterCall = callTool(agent, 'test_send', { to: 'bob@example.com', body: after });
  const afterReq = await waitForPending(server, after);
  await api.decide(afterReq.id, { kind: 'deny' });
  await afterCall;
  expect(runs(profile.counterFile, 'send', after)).toBe(0);
});

test('an agent that stopped waiting: the card says so; approved later, its one Activity row ends as failed with the upstream error', async ({
  page,
}) => {
  const { server, agent, profile } = airlock();
  await openApprovals(page, server);
  const body = `upstream-error ${marker('late')}`;
  // A 1 s wait for this call only: it comes back "waiting" and the agent is gone. Nothing races
  // it: the test decides only after the answer.
  const api = controlApi(server);
  await api.updateSettings({ waitSeconds: 1 });
  const first = await callTool(agent, 'test_send', { to: TO, body });
  await api.updateSettings({ waitSeconds: 300 });
  expect(textOf(first)).toContain('Waiting for the user');
  const c = card(page, body);
  await expect(c.getByTestId('agent-left')).toContainText('stopped waiting');
  await c.getByRole('button', { name: 'Allow once' }).click();
  await expect(c).toHaveCount(0);
  await expect
    .poll(async () => {
      const rows = (await controlApi(server).listActivity({ limit: 20 })).filter(
        (a) => a.outcome === 'error' && a.decision === 'approved',
      );
      return rows.map((r) => r.detail);
    })
    .toContain(`mailbox of ${TO} is full`);
  expect(runs(profile.counterFile, 'send', body)).toBe(1);
  // The page shows it: decision kind, outcome, the upstream's words.
  await page.goto(`${server.url}/#/activity`);
  const row = page.getByRole('row').filter({ hasText: 'Approved (allowed once)' }).first();
  await expect(row.getByTestId('activity-outcome')).toHaveText('Error');
  await row.getByTestId('activity-details').click();
  await expect(page.getByTestId('activity-detail')).toContainText(`mailbox of ${TO} is full`);
  // The agent's retry gets the stored outcome; the tool is not run again.
  const retry = await callTool(agent, 'test_send', { to: TO, body });
  expect(textOf(retry)).toContain('already ran once');
  expect(runs(profile.counterFile, 'send', body)).toBe(1);
});

test('hidden and direction-changing characters are named, and a long value shows "more below" with a full view', async ({
  page,
}) => {
  const { server, agent } = airlock();
  await openApprovals(page, server);
  const m = marker('hidden');
  const body = `${m} pay \u202e0009 :dna${'\u00a0'.repeat(20_000)}THE-END${'\nmore text'.repeat(200)}`;
  const call = callTool(agent, 'test_send', { to: TO, body });
  const c = card(page, m);
  const value = c.locator('[data-arg="body"]');
  await expect(value.getByTestId('hidden-char').first()).toHaveText('RLO');
  await expect(value.getByTestId('hidden-char').nth(1)).toHaveText('NBSP×20000');
  // The end of the first stretch is in sight despite 20,000 blanks; the rest is below, on demand.
  await expect(value).toContainText('THE-END');
  await expect(value.getByTestId('more-below')).toContainText('More below');
  await value.getByTestId('show-all').click();
  await expect(value.getByTestId('more-below')).not.toContainText('More below');
  await c.getByRole('button', { name: 'Deny' }).click();
  await c.getByRole('button', { name: 'Deny request' }).click();
  expect((await call).isError).toBe(true);
});

test("the approval link #/approve/<id> (the URL sent to agents) opens that request, with the tab's own token", async ({
  page,
}) => {
  const { server, agent } = airlock();
  await openApprovals(page, server); // the tab holds the token in sessionStorage
  const bodies = [marker('link-a'), marker('link-b')];
  const calls = bodies.map((body) => callTool(agent, 'test_send', { to: TO, body }));
  const reqs = [];
  for (const body of bodies) reqs.push(await waitForPending(server, body));
  await page.goto(`${server.url}/#/approve/${reqs[1]!.id}`);
  await expect(card(page, bodies[1]!)).toBeFocused();
  expect(page.url()).not.toContain(server.controlToken);
  // A tab without the token (the agent's client opened the link) says what to do, and decides nothing.
  const fresh = await page.context().newPage();
  await fresh.goto(`${server.url}/#/approve/${reqs[1]!.id}`);
  await expect(fresh.getByTestId('no-token-approval')).toContainText('cannot approve anything');
  await fresh.close();
  for (const r of reqs) await controlApi(server).decide(r.id, { kind: 'deny' });
  await Promise.all(calls);
});

test('large arguments are shown clipped: the page holds a bounded amount of text per value', async ({
  page,
}) => {
  const { server, agent } = airlock();
  await openApprovals(page, server);
  const bodies = [0, 1, 2, 3].map((i) => `${marker(`big${i}`)} ${'x'.repeat(200_000)}`);
  const calls = bodies.map((body) => callTool(agent, 'test_send', { to: TO, body }));
  for (const body of bodies) await expect(card(page, body.slice(0, 30))).toBeVisible();
  const text = Number(await page.evaluate('document.body.innerText.length'));
  expect(text).toBeLessThan(40_000);
  for (const body of bodies) {
    const r = await waitForPending(server, body.slice(0, 30));
    await controlApi(server).decide(r.id, { kind: 'deny' });
  }
  await Promise.all(calls);
});

// Last in the file: it kills the core.
test('while Airlock is unreachable the decisions are disabled, and say so', async ({ page }) => {
  const { server, agent, profile } = airlock();
  await openApprovals(page, server);
  const body = marker('offline');
  // Still waiting when the kill below cuts it.
  void callTool(agent, 'test_send', { to: TO, body }).catch(() => {});
  const c = card(page, body);
  await expect(c.getByRole('button', { name: 'Allow once' })).toBeEnabled();
  await server.kill();
  await expect(c.getByTestId('decisions-disabled')).toBeVisible();
  await expect(c.getByRole('button', { name: 'Allow once' })).toBeDisabled();
  await expect(c.getByRole('button', { name: 'Deny' })).toBeDisabled();
  expect(runs(profile.counterFile, 'send', body)).toBe(0);
});
