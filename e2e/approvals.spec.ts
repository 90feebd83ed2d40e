import { expect, test } from '@playwright/test';
import { counterLines, runs } from './helpers/files.js';
import { callTool, textOf } from './helpers/mcp-client.js';
import { card, controlApi, openApprovals } from './helpers/control.js';
import { marker, useAirlock } from './helpers/suite.js';

// Issue 3 "Must hold": approve / deny / edit on the headless page ending in
// the right result at a real MCP client; plus keyboard, popup, pause and the
// status bar. Executions are counted by the test tool source
// (e2e/fixtures/test-sources.mjs). Races: approvals-races.spec.ts.
test.describe.configure({ mode: 'serial' });
const airlock = useAirlock();
const TO = 'bob@example.com';

test('a call appears on the page, one click approves it, the client gets the result, it ran once', async ({
  page,
}) => {
  const { server, agent, profile } = airlock();
  // The strict CSP (no inline scripts, connect-src 'self') must not break anything.
  const problems: string[] = [];
  page.on(
    'console',
    (m) => void (m.type() === 'error' && problems.push(`${m.text()} ${m.location().url}`)),
  );
  page.on('pageerror', (e) => void problems.push(e.message));
  page.on('response', (r) => void (r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`)));
  await openApprovals(page, server);
  const body = marker('approve');
  const call = callTool(agent, 'test_send', { to: TO, body });

  const c = card(page, body);
  await expect(c).toBeVisible();
  await expect(c.getByTestId('approval-effect')).toHaveText(`Send "${body}" to ${TO}`);
  await expect(c.getByRole('heading')).toContainText('e2e-agent wants to run test_send');
  // The exact arguments, one readable row each (issue 16 item 4).
  await expect(c.locator('[data-arg="to"] dd')).toHaveText(TO);
  await expect(c.locator('[data-arg="body"] dd')).toHaveText(body);
  await expect(c.getByTestId('approval-server')).toHaveText('from Test tools');
  await expect(c.getByTestId('badge-changes')).toHaveText('Makes changes');
  await expect(c.getByTestId('time-left')).toHaveText(/^Expires in \d+:\d\d$/);
  await c.getByRole('button', { name: 'Allow once' }).click();

  const result = await call;
  expect(result.isError).toBeFalsy();
  expect(textOf(result)).toBe(`sent to ${TO}: ${body}`);
  expect(runs(profile.counterFile, 'send', body)).toBe(1);
  await expect(c).toHaveCount(0);
  await expect(page.getByTestId('recent-item').filter({ hasText: body })).toHaveAttribute(
    'data-state',
    'done',
  );
  expect(problems).toEqual([]);
});

test('deny with a reason: the client gets isError with the reason, nothing ran', async ({
  page,
}) => {
  const { server, agent, profile } = airlock();
  await openApprovals(page, server);
  const body = marker('deny');
  const call = callTool(agent, 'test_send', { to: TO, body });

  const c = card(page, body);
  await c.getByRole('button', { name: 'Deny' }).click();
  await c.getByLabel('Reason (optional, the agent is told)').fill('Not to Bob, ever');
  await c.getByRole('button', { name: 'Deny request' }).click();

  const result = await call;
  expect(result.isError).toBe(true);
  expect(textOf(result)).toContain('Reason given: "Not to Bob, ever"');
  expect(textOf(result)).toContain('Do not retry');
  expect(runs(profile.counterFile, 'send', body)).toBe(0);
  await expect(
    page.getByTestId('recent-item').filter({ hasText: 'Not to Bob, ever' }),
  ).toHaveAttribute('data-state', 'denied');
});

test('edit & allow: schema-breaking edits are refused with a clear message; a valid edit runs with the edited arguments', async ({
  page,
}) => {
  const { server, agent, profile } = airlock();
  await openApprovals(page, server);
  const body = marker('edit');
  const call = callTool(agent, 'test_send', { to: TO, body });

  const c = card(page, body);
  await c.getByRole('button', { name: 'Edit & allow' }).click();
  const form = c.getByTestId('edit-form');
  await expect(form.getByLabel('to')).toHaveValue(TO);
  await expect(form.getByLabel('body')).toHaveValue(body);

  // `to` has minLength 3: only the server's schema check knows that.
  await form.getByLabel('to').fill('ab');
  await form.getByRole('button', { name: 'Allow with these arguments' }).click();
  await expect(form.getByTestId('edit-error')).toContainText(
    'The edited arguments do not fit test_send',
  );
  await expect(form.getByTestId('edit-error')).toContainText(
    '/to must NOT have fewer than 3 characters',
  );

  // The raw-JSON fallback: an extra property breaks additionalProperties: false.
  await form.getByRole('button', { name: 'Edit as JSON' }).click();
  await form
    .getByLabel('Arguments (JSON)')
    .fill(JSON.stringify({ to: 'carol@example.com', body, cc: 'eve@example.com' }));
  await form.getByRole('button', { name: 'Allow with these arguments' }).click();
  await expect(form.getByTestId('edit-error')).toContainText(
    'must NOT have additional properties (cc)',
  );
  // Not valid JSON never reaches the server.
  await form.getByLabel('Arguments (JSON)').fill('{"to": ');
  await form.getByRole('button', { name: 'Allow with these arguments' }).click();
  await expect(form.getByTestId('edit-error')).toContainText('Not valid JSON');
  expect(runs(profile.counterFile, 'send', body)).toBe(0);

  await form.getByLabel('Arguments (JSON)').fill(JSON.stringify({ to: 'carol@example.com', body }));
  await form.getByRole('button', { name: 'Edit as form' }).click();
  await expect(form.getByLabel('to')).toHaveValue('carol@example.com');
  await form.getByLabel('body').fill(`${body} (edited)`);
  await form.getByRole('button', { name: 'Allow with these arguments' }).click();

  const result = await call;
  expect(result.isError).toBeFalsy();
  const text = textOf(result);
  expect(text).toContain('The user edited the arguments before approving.');
  expect(text).toContain(`to: "${TO}" → "carol@example.com"`);
  expect(text).toContain(`body: "${body}" → "${body} (edited)"`);
  expect(text).toContain(`sent to carol@example.com: ${body} (edited)`);
  expect(runs(profile.counterFile, 'send', body)).toBe(1);
  expect(
    counterLines(profile.counterFile).filter((l) => l.includes(body) && l.includes(`"to":"${TO}"`)),
  ).toEqual([]);
});

test('keyboard: Ctrl+Enter allows the focused request, focus moves to the next, D then Enter denies it', async ({
  page,
}) => {
  const { server, agent, profile } = airlock();
  await openApprovals(page, server);
  const first = marker('key-a');
  const call1 = callTool(agent, 'test_send', { to: TO, body: first });
  await expect(card(page, first)).toBeVisible();
  const second = marker('key-d');
  const call2 = callTool(agent, 'test_send', { to: TO, body: second });
  await expect(card(page, second)).toBeVisible();

  await card(page, first).focus();
  await expect(card(page, first)).toHaveAttribute('data-armed', 'true');
  // `a` alone decides nothing (issue 16 item 3); Ctrl+Enter does.
  await page.keyboard.press('a');
  await expect(card(page, first).getByTestId('decision-tip')).toContainText('+Enter');
  await page.keyboard.press('Control+Enter');
  expect(textOf(await call1)).toBe(`sent to ${TO}: ${first}`);
  // The decided card is gone; the next request is under the keyboard without a click — and
  // decides once it has been read there (approvals-deliberate.spec.ts: not by a second press).
  await expect(card(page, second)).toBeFocused();
  await expect(card(page, second)).toHaveAttribute('data-armed', 'true');
  await page.keyboard.press('d');
  await expect(card(page, second).getByTestId('deny-reason')).toBeFocused();
  await page.keyboard.type('keyboard says no');
  await page.keyboard.press('Enter');
  expect(textOf(await call2)).toContain('keyboard says no');
  expect(runs(profile.counterFile, 'send', first)).toBe(1);
  expect(runs(profile.counterFile, 'send', second)).toBe(0);
});

test('the 360-px popup shows the request without horizontal scrolling and approves it', async ({
  page,
}) => {
  const { server, agent, profile } = airlock();
  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto(`${server.url}/#/popup?token=${server.controlToken}`);
  await expect(page.getByTestId('run-state')).toHaveText('Running');
  expect(page.url()).not.toContain(server.controlToken);
  const body = marker('popup');
  const call = callTool(agent, 'test_send', { to: TO, body });
  const c = card(page, body);
  await expect(c).toBeVisible();
  for (const name of ['Allow once', 'Always allow…', 'Edit & allow', 'Deny'])
    await expect(c.getByRole('button', { name })).toBeInViewport();
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  await c.getByRole('button', { name: 'Allow once' }).click();
  expect(textOf(await call)).toBe(`sent to ${TO}: ${body}`);
  expect(runs(profile.counterFile, 'send', body)).toBe(1);
});

test('pause side effects: the switch denies ask calls at once until resumed', async ({ page }) => {
  const { server, agent, profile } = airlock();
  await openApprovals(page, server);
  const pause = page.getByRole('switch', { name: 'Pause side effects' });
  await pause.click();
  await expect(pause).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('paused-banner')).toBeVisible();
  const body = marker('paused');
  const result = await callTool(agent, 'test_send', { to: TO, body });
  expect(result.isError).toBe(true);
  expect(textOf(result)).toContain('Side effects are paused');
  await pause.click();
  await expect(pause).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByTestId('paused-banner')).toHaveCount(0);
  expect(runs(profile.counterFile, 'send', body)).toBe(0);
});

test('always allow: this tool runs for this agent without asking from then on', async ({
  page,
}) => {
  const { server, agent, profile } = airlock();
  await openApprovals(page, server);
  const body = marker('always');
  const call = callTool(agent, 'test_send', { to: TO, body });
  await card(page, body).getByRole('button', { name: 'Always allow…' }).click();
  // Letting a tool with side effects run freely is confirmed in a dialog (issue 16 item 2).
  const dialog = page.getByTestId('grant-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByTestId('grant-duration').selectOption({ label: 'Until I revoke it' });
  await dialog.getByRole('button', { name: 'Allow without asking' }).click();
  expect(textOf(await call)).toBe(`sent to ${TO}: ${body}`);

  const later = marker('granted');
  expect(textOf(await callTool(agent, 'test_send', { to: TO, body: later }))).toBe(
    `sent to ${TO}: ${later}`,
  );
  expect(runs(profile.counterFile, 'send', body)).toBe(1);
  expect(runs(profile.counterFile, 'send', later)).toBe(1);
  const tool = (await controlApi(server).listTools('e2e-agent')).find(
    (t) => t.name === 'test_send',
  );
  expect(tool?.grantedUntil).toBeNull();

  // Back to asking (drops the grant) for the tests that follow.
  await controlApi(server).setToolPolicy('test_send', { approval: 'ask', agent: 'e2e-agent' });
});

test('status bar: the MCP URL with a working copy button, and the running state', async ({
  page,
  context,
}) => {
  const { server } = airlock();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await openApprovals(page, server);
  await expect(page.getByTestId('mcp-url')).toHaveText(server.mcpUrl);
  await page.getByRole('button', { name: 'Copy MCP URL' }).click();
  await expect(page.getByRole('button', { name: 'Copy MCP URL' })).toHaveText('Copied');
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(server.mcpUrl);
  await expect(page.getByTestId('agents-connected')).toHaveText('1 agent connected');
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Approvals' }),
  ).toHaveAttribute('aria-current', 'page');
});
