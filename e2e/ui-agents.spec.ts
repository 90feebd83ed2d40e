import { expect, test } from '@playwright/test';
import { controlApi } from './helpers/control.js';
import { connectAgent } from './helpers/mcp-client.js';
import { useAirlock } from './helpers/suite.js';
import { openPage } from './helpers/ui.js';

// Issue 8 "Agents": list with last seen; add → the token once plus
// copy-ready setup for six clients; revoke (confirmed) cuts the token off.
test.describe.configure({ mode: 'serial' });
const airlock = useAirlock();

test('the list shows the connected agent and when it was last seen', async ({ page }) => {
  const { server } = airlock();
  await openPage(page, server, '/agents');
  const row = page.locator('[data-testid="agent-row"][data-name="e2e-agent"]');
  await expect(row).toContainText('Connected');
  await expect(row.locator('time').first()).toHaveText('just now');
});

test('add: the token is shown once with setup for every client; it works; revoke asks first and cuts it off', async ({
  page,
  context,
}) => {
  const { server } = airlock();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openPage(page, server, '/agents');
  await page.getByLabel('Agent name').fill('ui-cursor');
  await page.getByRole('button', { name: 'Add agent' }).click();

  const panel = page.getByTestId('new-agent');
  await expect(panel.getByRole('heading')).toHaveText('ui-cursor is ready to connect');
  const token = (await panel.getByTestId('new-agent-token').textContent()) ?? '';
  expect(token).toMatch(/^alk_/);
  await panel.getByRole('button', { name: 'Copy the token' }).click();
  await expect(panel.getByRole('button', { name: 'Copy the token' })).toHaveText('Copied');
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token);

  // Eleven clients, each copy-ready with this agent's token and the MCP URL.
  const tabs = panel.getByRole('tab');
  await expect(tabs).toHaveText([
    'Claude Code',
    'Claude Desktop',
    'Cursor',
    'VS Code',
    'Codex',
    'Windsurf',
    'Gemini CLI',
    'Antigravity',
    'Zed',
    'Cline',
    'JetBrains AI Assistant',
  ]);
  const text = panel.getByTestId('setup-text');
  await expect(text).toContainText(`claude mcp add --transport http airlock ${server.mcpUrl}`);
  await expect(text).toContainText(`Authorization: Bearer ${token}`);
  // Arrow keys move between tabs (WAI-ARIA tabs pattern).
  await tabs.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(panel.getByRole('tab', { name: 'Claude Desktop' })).toBeFocused();
  await expect(text).toContainText('mcp-remote');
  await panel.getByRole('tab', { name: 'VS Code' }).click();
  const vscode = JSON.parse((await text.textContent()) ?? '{}') as {
    servers: Record<string, { url: string; headers: Record<string, string> }>;
  };
  expect(vscode.servers['airlock']).toEqual({
    type: 'http',
    url: server.mcpUrl,
    headers: { Authorization: `Bearer ${token}` },
  });
  await panel.getByRole('tab', { name: 'Codex' }).click();
  await panel.getByRole('button', { name: 'Copy the Codex setup' }).click();
  expect(await page.evaluate('navigator.clipboard.readText()')).toContain(`[mcp_servers.airlock]`);

  // The token really works.
  const agent = await connectAgent(server.mcpUrl, token, 'ui-cursor');
  expect((await agent.client.listTools()).tools.length).toBeGreaterThan(0);
  await agent.close();

  // Once: after "Done" (or a reload) it is nowhere on the page.
  await panel.getByRole('button', { name: 'Done, I saved it' }).click();
  await expect(panel).toHaveCount(0);
  expect(await page.content()).not.toContain(token);
  await page.reload();
  await expect(page.locator('[data-testid="agent-row"][data-name="ui-cursor"]')).toBeVisible();
  expect(await page.content()).not.toContain(token);

  // Revoke: Cancel keeps it; confirming removes it and the token stops working.
  const row = page.locator('[data-testid="agent-row"][data-name="ui-cursor"]');
  await row.getByRole('button', { name: 'Revoke ui-cursor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke ui-cursor?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Revoke ui-cursor' }).click();
  await dialog.getByRole('button', { name: 'Revoke agent' }).click();
  await expect(row).toHaveCount(0);
  expect((await controlApi(server).listAgents()).map((a) => a.name)).toEqual(['e2e-agent']);
  await expect(connectAgent(server.mcpUrl, token, 'ui-cursor')).rejects.toThrow();
});

test('a name that is taken is refused with the reason, and nothing changes', async ({ page }) => {
  const { server } = airlock();
  await openPage(page, server, '/agents');
  await page.getByLabel('Agent name').fill('e2e-agent');
  await page.getByRole('button', { name: 'Add agent' }).click();
  await expect(page.getByTestId('agent-error')).toBeVisible();
  await expect(page.getByTestId('new-agent')).toHaveCount(0);
  expect((await controlApi(server).listAgents()).map((a) => a.name)).toEqual(['e2e-agent']);
});
