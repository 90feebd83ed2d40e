import { expect, test } from '@playwright/test';
import { FakeUpstream } from '../test-support/fake-upstream.js';
import { controlApi } from './helpers/control.js';
import { useAirlock } from './helpers/suite.js';
import { openPage } from './helpers/ui.js';

// Issue 8 "Remote servers": add (token write-only), test (tool count or the
// exact error), status, disable, remove — against an in-test upstream MCP
// server (test-support/fake-upstream.ts, real SDK server on loopback).
test.describe.configure({ mode: 'serial' });
const airlock = useAirlock();
const TOKEN = 'upstream-secret-7f3a9c';
let upstream: FakeUpstream;

test.beforeAll(async () => {
  upstream = new FakeUpstream({
    name: 'tickets',
    bearer: TOKEN,
    tools: [
      { name: 'list_tickets', description: 'Lists tickets.', annotations: { readOnlyHint: true } },
      { name: 'close_ticket', description: 'Closes a ticket.' },
      { name: 'comment', description: 'Adds a comment.', annotations: { destructiveHint: false } },
    ],
  });
  await upstream.start();
});
test.afterAll(async () => upstream?.stop());

test('add a server: test shows the exact error, then the tool count; it connects; the token never comes back', async ({
  page,
}) => {
  const { server } = airlock();
  await openPage(page, server, '/servers');
  await expect(page.getByTestId('servers-empty')).toBeVisible();
  const form = page.getByTestId('add-server-form');
  await form.getByLabel('Name').fill('tickets');
  await form.getByLabel('URL', { exact: true }).fill(upstream.url);

  // Without the token the upstream answers 401: the test says so, word for word from the core.
  await form.getByRole('button', { name: 'Test connection' }).click();
  const probe = form.getByTestId('probe-result');
  await expect(probe).toHaveAttribute('data-ok', 'false');
  await expect(probe).toContainText('Could not connect.');
  await expect(probe).toContainText('401');

  await form.getByLabel('Bearer token (optional)').fill(TOKEN);
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(probe).toHaveAttribute('data-ok', 'true');
  await expect(probe).toContainText('3 tools offered');
  await expect(probe).toContainText('list_tickets, close_ticket, comment');

  await form.getByRole('button', { name: 'Add server' }).click();
  const card = page.getByTestId('server-card').filter({ hasText: 'tickets' });
  await expect(card.getByTestId('server-state')).toHaveText('Connected · 3 tools');
  await expect(card).toContainText('Bearer token set');
  await expect(page.getByTestId('add-server-form')).toHaveCount(0);
  // Write-only: neither the page nor the control API ever shows it again.
  await page.reload();
  await expect(card.getByTestId('server-state')).toHaveText('Connected · 3 tools');
  expect(await page.content()).not.toContain(TOKEN);
  expect(JSON.stringify(await controlApi(server).listRemotes())).not.toContain(TOKEN);
  expect(upstream.requests.some((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);

  // Its tools are on the Tools page, grouped under the server, the unmarked ones asking first.
  await page.evaluate(`location.hash = '/tools'`);
  const group = page.getByTestId('tool-group').filter({ hasText: 'tickets' });
  await expect(group.getByTestId('tool-row')).toHaveCount(3);
  await expect(group.locator('[data-tool$="close_ticket"]')).toHaveAttribute(
    'data-approval',
    'ask',
  );
  await expect(group.locator('[data-tool$="list_tickets"]')).toHaveAttribute(
    'data-approval',
    'auto',
  );
});

test('disable, re-enable and reconnect show the status; remove asks first and removes it', async ({
  page,
}) => {
  const { server } = airlock();
  await openPage(page, server, '/servers');
  const card = page.getByTestId('server-card').filter({ hasText: 'tickets' });
  await card.getByRole('switch', { name: 'tickets enabled' }).click();
  await expect(card).toHaveAttribute('data-state', 'disabled');
  await expect(card.getByTestId('server-state')).toHaveText('Disabled');
  await card.getByRole('switch', { name: 'tickets enabled' }).click();
  await expect(card.getByTestId('server-state')).toHaveText('Connected · 3 tools');
  await card.getByRole('button', { name: 'Reconnect & test' }).click();
  await expect(card.getByTestId('server-note')).toHaveText('Reconnected: 3 tools.');

  // Its requests to agents (sampling, elicitation, roots) can be turned off and on (issue 27.3).
  const relay = card.getByTestId('server-relay');
  await expect(relay).toHaveAttribute('aria-checked', 'true');
  await relay.click();
  await expect(relay).toHaveAttribute('aria-checked', 'false');
  expect((await controlApi(server).listRemotes())[0]?.relay).toBe(false);
  await relay.click();
  await expect(relay).toHaveAttribute('aria-checked', 'true');

  // A wrong token: the card says why it stopped working.
  await card.getByRole('button', { name: 'Edit' }).click();
  await card.getByLabel('Set a new token').check();
  await card.getByLabel('New token', { exact: true }).fill('wrong-token');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card).toHaveAttribute('data-state', 'error');
  await expect(card.getByTestId('server-detail')).toContainText('401');

  await card.getByRole('button', { name: 'Remove' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove tickets?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'Remove' }).click();
  await dialog.getByRole('button', { name: 'Remove server' }).click();
  await expect(page.getByTestId('server-card')).toHaveCount(0);
  await expect(page.getByTestId('servers-empty')).toBeVisible();
  expect(await controlApi(server).listRemotes()).toEqual([]);
});
