import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parse as parseJsonc } from 'jsonc-parser';
import { sampleHome, type SampleHome } from '../test-support/client-configs.js';
import { newProfile, startServer, type RunningServer } from './helpers/airlock-server.js';
import { controlApi } from './helpers/control.js';
import { openPage, seriousViolations } from './helpers/ui.js';

// Issue 15 in the window: a local server added on the Servers page runs and
// shows its process; on the Agents page, "Connect Cursor" writes Airlock into
// Cursor's config (in a temp HOME — never the real one) and the import brings
// the apps' servers over.
test.describe.configure({ mode: 'serial' });
const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);
let home: SampleHome;
let server: RunningServer;

test.beforeAll(async () => {
  home = sampleHome({ only: ['cursor'] });
  // Entries that fail fast and offline: nothing is downloaded or reached outside this machine.
  writeFileSync(
    home.paths.cursor,
    `{
  // Cursor: servers for every project
  "mcpServers": {
    "sentry": { "url": "http://127.0.0.1:9/mcp", "headers": { "X-Api-Key": "k-cursor-secret-555" } },
    "puppeteer": { "command": "airlock-no-such-command-xyz", "args": ["--headless"] }
  }
}
`,
  );
  server = await startServer(newProfile(), {
    env: { HOME: home.home, USERPROFILE: home.home, XDG_CONFIG_HOME: join(home.home, '.config') },
  });
});
test.afterAll(async () => server?.stop());

test('add a local server: it starts, the card shows its command and process', async ({ page }) => {
  await openPage(page, server, '/servers');
  const form = page.getByTestId('add-server-form');
  await form.getByLabel('Name', { exact: true }).fill('everything');
  await form.getByTestId('kind-local').check();
  await form.getByTestId('local-command').fill(process.execPath);
  await form.getByTestId('local-args').fill(`${EVERYTHING}\nstdio`);
  await form.getByRole('button', { name: 'Add a variable' }).click();
  await form.getByTestId('env-name-0').fill('EV_SECRET');
  await form.getByTestId('env-value-0').fill('ui-secret-value-31337');
  await form.getByRole('button', { name: 'Add server' }).click();
  const card = page.getByTestId('server-card').filter({ hasText: 'everything' });
  await expect(card.getByTestId('server-state')).toContainText('Connected');
  await expect(card.getByTestId('server-where')).toContainText('index.js stdio');
  await expect(card.getByTestId('server-process')).toContainText(/Local · pid \d+/);
  await expect(card.getByTestId('server-process')).toContainText('secret variables: EV_SECRET');
  expect(await page.content()).not.toContain('ui-secret-value-31337');
  expect(await seriousViolations(page)).toEqual([]);
  const [view] = await controlApi(server).listRemotes();
  expect(view).toMatchObject({ name: 'everything', transport: 'stdio', state: 'ready' });

  // Edit: a new plain variable; Airlock restarts it with a new process, the secret stays.
  await card.getByTestId('server-edit').click();
  const edit = card.getByTestId('edit-local-form');
  await expect(edit).toContainText('Secret variables kept in the keychain: EV_SECRET');
  await edit.getByRole('button', { name: 'Add a variable' }).click();
  await edit.getByTestId('env-name-0').fill('LOG_LEVEL');
  await edit.getByTestId('env-secret-0').uncheck();
  await edit.getByTestId('env-value-0').fill('debug');
  await edit.getByRole('button', { name: 'Save and restart' }).click();
  await expect(card.getByTestId('server-process')).toContainText('started 2 times');
  const [after] = await controlApi(server).listRemotes();
  expect(after!.stdio).toMatchObject({
    env: { LOG_LEVEL: 'debug' },
    secretEnvNames: ['EV_SECRET'],
  });
  expect(after!.process!.pid).not.toBe(view!.process!.pid);
});

test('Agents page: connect Cursor (dry run first), import its servers, then take them out of Cursor', async ({
  page,
}) => {
  await openPage(page, server, '/agents');
  const row = page.locator('[data-testid="client-row"][data-client="cursor"]');
  await expect(row).toContainText('Not connected');
  expect(await seriousViolations(page)).toEqual([]);

  // Import: the dry run lists what would come over; confirming adds them.
  await page.getByTestId('clients-import').click();
  const importDialog = page.getByTestId('clients-import-dialog');
  await expect(importDialog.getByTestId('import-item')).toHaveCount(2);
  await expect(importDialog).toContainText('to the keychain: X-Api-Key');
  await importDialog.getByRole('button', { name: 'Import 2 servers' }).click();
  await expect(page.getByTestId('clients-done')).toContainText('Imported 2 servers.');
  await expect(page.getByTestId('clients-done')).toContainText('puppeteer (could not start');
  expect(await page.content()).not.toContain('k-cursor-secret-555');

  await row.getByRole('button', { name: 'Connect Cursor' }).click();
  const dialog = page.getByTestId('client-connect-dialog');
  await expect(dialog).toContainText('Airlock entry added');
  await dialog.getByTestId('client-remove-imported').check();
  await expect(dialog).toContainText('removes sentry, puppeteer');
  expect(readFileSync(home.paths.cursor, 'utf8')).not.toContain('"airlock"'); // still a dry run
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByTestId('clients-done')).toContainText(
    'Cursor connected as agent “Cursor”',
  );
  await expect(page.getByTestId('clients-done')).toContainText('airlock-backup-');
  await expect(row).toContainText('Connected');

  const text = readFileSync(home.paths.cursor, 'utf8');
  expect(text).toContain('// Cursor: servers for every project');
  const parsed = parseJsonc(text) as { mcpServers: Record<string, { url: string }> };
  expect(Object.keys(parsed.mcpServers)).toEqual(['airlock']);
  // Issue 29.1: the URL this server answers on (a free port), not the settings port.
  expect(parsed.mcpServers.airlock!.url).toBe(server.mcpUrl);

  // An entry left on another port is stale: the row says so and Reconnect rewrites it.
  const elsewhere = `http://127.0.0.1:${server.port === 47821 ? 47822 : 47821}/mcp`;
  writeFileSync(home.paths.cursor, text.replace(server.mcpUrl, elsewhere));
  await page.reload();
  await expect(row).toContainText('Out of date');
  await expect(row.getByTestId('client-stale')).toContainText(`its entry points at ${elsewhere}`);
  expect(await seriousViolations(page)).toEqual([]);
  await row.getByRole('button', { name: 'Reconnect Cursor' }).click();
  await expect(dialog).toContainText('Airlock entry updated');
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(row).toContainText('Connected');
  const again = parseJsonc(readFileSync(home.paths.cursor, 'utf8')) as {
    mcpServers: Record<string, { url: string }>;
  };
  expect(again.mcpServers.airlock!.url).toBe(server.mcpUrl);
});
