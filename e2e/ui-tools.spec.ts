import { expect, test } from '@playwright/test';
import { controlApi } from './helpers/control.js';
import { callTool, textOf } from './helpers/mcp-client.js';
import { marker, useAirlock } from './helpers/suite.js';
import { openPage } from './helpers/ui.js';

// Issue 8 "Tools": grouped by source, searchable, enabled and auto/ask with
// read-only / destructive badges, per-agent overrides, and a warning plus an
// explicit confirmation before a destructive tool runs without asking.
// Test tools (e2e/fixtures/test-sources.mjs): test_echo read-only,
// test_send changes (destructiveHint false), test_block destructive (no hint).
test.describe.configure({ mode: 'serial' });
const airlock = useAirlock();

const row = (page: import('@playwright/test').Page, name: string) =>
  page.locator(`[data-testid="tool-row"][data-tool="${name}"]`);

test('grouped by source with badges; search narrows the list', async ({ page }) => {
  const { server } = airlock();
  await openPage(page, server, '/tools');
  const group = page.getByTestId('tool-group').filter({ hasText: 'Test tools' });
  await expect(group.getByRole('heading', { name: /Test tools/ })).toBeVisible();
  await expect(group.getByTestId('tool-row')).toHaveCount(3);
  await expect(row(page, 'test_echo').getByTestId('badge-read-only')).toBeVisible();
  await expect(row(page, 'test_block').getByTestId('badge-destructive')).toBeVisible();
  await expect(row(page, 'test_send').getByTestId('badge-changes')).toBeVisible();
  await expect(row(page, 'test_echo')).toHaveAttribute('data-approval', 'auto');
  await expect(row(page, 'test_send')).toHaveAttribute('data-approval', 'ask');

  await page.getByLabel('Search').fill('recipient');
  await expect(page.getByTestId('tool-row')).toHaveCount(1);
  await expect(row(page, 'test_send')).toBeVisible();
  await expect(page.getByTestId('tools-count')).toContainText('1 of');
  await page.getByLabel('Search').fill('');
  await expect(group.getByTestId('tool-row')).toHaveCount(3);
});

test('a destructive tool asks for confirmation before it runs freely; cancel keeps "asks first"', async ({
  page,
}) => {
  const { server, agent } = airlock();
  await openPage(page, server, '/tools');
  // A controlled radio: it stays on "Asks first" until the user confirms, so click rather than check().
  await row(page, 'test_block').getByLabel('Runs freely').click();
  const dialog = page.getByRole('dialog', { name: 'Let test_block run without asking?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('can send, change or delete things');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(row(page, 'test_block')).toHaveAttribute('data-approval', 'ask');
  expect(
    (await controlApi(server).listTools()).find((t) => t.name === 'test_block')?.approval,
  ).toBe('ask');

  // A non-destructive tool switches at once; the agent's next call runs without a card.
  await row(page, 'test_send').getByLabel('Runs freely').check();
  await expect(row(page, 'test_send')).toHaveAttribute('data-approval', 'auto');
  await expect(row(page, 'test_send').getByTestId('badge-customized')).toBeVisible();
  const body = marker('free');
  expect(textOf(await callTool(agent, 'test_send', { to: 'bob@example.com', body }))).toBe(
    `sent to bob@example.com: ${body}`,
  );

  // Confirmed: the destructive one runs freely too.
  await row(page, 'test_block').getByLabel('Runs freely').click();
  await dialog.getByRole('button', { name: 'Run without asking' }).click();
  await expect(dialog).toBeHidden();
  await expect(row(page, 'test_block')).toHaveAttribute('data-approval', 'auto');
  expect(
    (await controlApi(server).listTools()).find((t) => t.name === 'test_block')?.approval,
  ).toBe('auto');

  // Back to asking for both (no confirmation needed for the safer direction).
  await row(page, 'test_block').getByLabel('Asks first').check();
  await row(page, 'test_send').getByLabel('Asks first').check();
  await expect(row(page, 'test_block')).toHaveAttribute('data-approval', 'ask');
  await expect(row(page, 'test_send')).toHaveAttribute('data-approval', 'ask');
});

test('turning a tool off hides it from agents; a per-agent override wins for that agent only', async ({
  page,
}) => {
  const { server, agent } = airlock();
  await openPage(page, server, '/tools');
  await row(page, 'test_echo')
    .getByRole('checkbox', { name: 'Offer test_echo to agents' })
    .uncheck();
  await expect(row(page, 'test_echo')).toHaveAttribute('data-enabled', 'false');
  await expect
    .poll(async () => (await agent.client.listTools()).tools.map((t) => t.name))
    .not.toContain('test_echo');

  // For e2e-agent only: test_echo back on.
  await page.getByLabel('Settings for').selectOption('e2e-agent');
  await expect(page.getByTestId('tools-count')).toContainText('apply to e2e-agent only');
  await expect(row(page, 'test_echo')).toHaveAttribute('data-enabled', 'false');
  await row(page, 'test_echo').getByRole('checkbox', { name: 'Offer test_echo to agents' }).check();
  await expect(row(page, 'test_echo')).toHaveAttribute('data-enabled', 'true');
  await expect
    .poll(async () => (await agent.client.listTools()).tools.map((t) => t.name))
    .toContain('test_echo');
  const api = controlApi(server);
  expect((await api.listTools('e2e-agent')).find((t) => t.name === 'test_echo')?.enabled).toBe(
    true,
  );
  expect((await api.listTools()).find((t) => t.name === 'test_echo')?.enabled).toBe(false);

  await page.getByLabel('Settings for').selectOption('');
  await expect(row(page, 'test_echo')).toHaveAttribute('data-enabled', 'false');
  await row(page, 'test_echo').getByRole('checkbox', { name: 'Offer test_echo to agents' }).check();
  await expect(row(page, 'test_echo')).toHaveAttribute('data-enabled', 'true');
});
