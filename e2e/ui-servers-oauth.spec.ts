import { expect, test, type Locator, type Page } from '@playwright/test';
import { OAuthUpstream } from '../test-support/oauth-upstream.js';
import { controlApi } from './helpers/control.js';
import { callTool, textOf } from './helpers/mcp-client.js';
import { useAirlock } from './helpers/suite.js';
import { openPage, seriousViolations } from './helpers/ui.js';

// Issue 10 in the window: a remote server that requires OAuth, added on the
// Servers page, shows "Sign-in required"; Sign in offers the authorization
// link (headless `airlock serve` cannot open a browser), Chromium follows it
// in a second tab to oauth2-mock-server (which approves on its own) and on to
// Airlock's 127.0.0.1 listener; the card then shows the sign-in, the tools
// appear, and Sign out revokes. Cancel and a declined sign-in say so.
// Needs the real keychain: `bash scripts/with-keyring.sh npx playwright test e2e/ui-servers-oauth.spec.ts`.
test.describe.configure({ mode: 'serial' });
const airlock = useAirlock();
let up: OAuthUpstream;

test.beforeAll(async () => {
  up = new OAuthUpstream(
    [{ name: 'whoami', annotations: { readOnlyHint: true } }, { name: 'notes' }],
    { scopesSupported: ['notes:read'] },
  );
  await up.start();
});
test.afterAll(async () => up?.stop());

const cardOf = (page: Page) => page.locator('[data-testid="server-card"][data-name="secure"]');

/** Clicks the sign-in link, which opens a new tab, and waits for that tab's page to load. */
async function followLink(page: Page, card: Locator): Promise<Page> {
  const link = card.getByRole('link', { name: /Open the sign-in page/ });
  await expect(link).toHaveAttribute('target', '_blank');
  expect(await link.getAttribute('href')).toMatch(new RegExp(`^${up.issuer}/authorize\\?`));
  const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await tab.waitForLoadState();
  return tab;
}

test('added on the page it says "Sign-in required"; cancel and a declined sign-in say so', async ({
  page,
}) => {
  const { server } = airlock();
  await openPage(page, server, '/servers');
  const form = page.getByTestId('add-server-form');
  await form.getByLabel('Name').fill('secure');
  await form.getByLabel('URL', { exact: true }).fill(up.url);
  await form.getByRole('button', { name: 'Add server' }).click();

  const card = cardOf(page);
  await expect(card.getByTestId('server-state')).toHaveText('Sign-in required');
  await expect(card.getByTestId('auth-required')).toHaveText(
    'Sign-in required. Sign in to let your agents use its tools.',
  );
  await expect(card.getByTestId('server-detail')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Sign out' })).toHaveCount(0);

  // The advanced options are collapsed, open from the keyboard, and labelled.
  await expect(card.getByLabel('Client ID (optional)')).toBeHidden();
  await card.getByText('Advanced sign-in options').focus();
  await page.keyboard.press('Enter');
  await expect(card.getByLabel('Client ID (optional)')).toBeVisible();
  await expect(card.getByLabel('Scope (optional)')).toBeVisible();

  // Cancel: the flow ends, nothing is signed in, and Sign in is offered again.
  await card.getByRole('button', { name: 'Sign in', exact: true }).focus();
  await page.keyboard.press('Enter');
  const progress = card.getByTestId('login-progress');
  await expect(progress).toHaveAttribute('data-state', 'waiting');
  await expect(progress).toContainText('Waiting for you in the browser');
  await expect(card.getByRole('button', { name: 'Sign in', exact: true })).toBeDisabled();
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(progress).toHaveAttribute('data-state', 'cancelled');
  await expect(progress).toContainText('The sign-in was cancelled; nothing changed.');
  await expect(progress.getByRole('link')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();

  // Declined at the provider: the core's message, and what to check.
  up.denyNextAuthorization();
  await card.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(progress).toHaveAttribute('data-state', 'waiting');
  const tab = await followLink(page, card);
  await expect(tab.getByRole('heading', { name: 'Access not granted' })).toBeVisible();
  await tab.close();
  await expect(progress).toHaveAttribute('data-state', 'failed');
  await expect(progress.getByRole('alert')).toContainText(
    'Access to "secure" was not granted; nothing changed.',
  );
  await expect(progress.getByRole('alert')).toContainText('check that your account may use');
  await progress.getByRole('button', { name: 'Close' }).click();
  await expect(progress).toHaveCount(0);
  expect(up.issued.size).toBe(0);
});

test('sign in through the link in a second tab: signed in, tools offered, no axe violation; sign out revokes', async ({
  page,
}) => {
  const { server, agent } = airlock();
  await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
  await openPage(page, server, '/servers');
  const card = cardOf(page);
  await expect(card.getByTestId('server-state')).toHaveText('Sign-in required');

  await card.getByRole('button', { name: 'Sign in', exact: true }).click();
  const progress = card.getByTestId('login-progress');
  await expect(progress).toHaveAttribute('data-state', 'waiting');
  // The page in that state (progress and link) passes axe, dark scheme.
  expect(await seriousViolations(page)).toEqual([]);

  const tab = await followLink(page, card);
  await expect(tab.getByRole('heading', { name: 'Signed in' })).toBeVisible();
  expect(new URL(tab.url()).hostname).toBe('127.0.0.1');
  await tab.close();
  await expect(progress).toHaveAttribute('data-state', 'signed-in');
  await expect(progress).toContainText('Signed in to secure.');
  expect(up.authorizeRequests.at(-1)).toMatchObject({
    code_challenge_method: 'S256',
    resource: up.url,
  });

  await expect(card.getByTestId('server-state')).toHaveText('Connected · 2 tools');
  await expect(card.getByTestId('auth-required')).toHaveCount(0);
  const status = card.getByTestId('auth-status');
  await expect(status).toContainText(`Signed in at ${new URL(up.issuer).host} `);
  await expect(status).toContainText('with scope notes:read');
  await expect(card.getByTestId('auth-expiry')).toContainText('Renews automatically before');
  await expect(card.getByTestId('auth-expiry')).toContainText('Client: registered automatically.');

  // Signed-in state, light scheme: no serious violation either; and no token on the page.
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await seriousViolations(page)).toEqual([]);
  const html = await page.content();
  for (const t of up.issued) expect(html.includes(t), 'a token is on the page').toBe(false);

  // The agent gets the tools through Airlock, and they are on the Tools page under the server.
  expect(textOf(await callTool(agent, 'secure__whoami', {}))).toContain(
    'whoami ran with scopes [notes:read]',
  );
  await page.evaluate(`location.hash = '/tools'`);
  const group = page.getByTestId('tool-group').filter({ hasText: 'secure' });
  await expect(group.getByTestId('tool-row')).toHaveCount(2);
  await expect(group.locator('[data-tool="secure__notes"]')).toHaveAttribute(
    'data-approval',
    'ask',
  );

  // Sign out asks first, then reports that the provider confirmed the revocation.
  await page.evaluate(`location.hash = '/servers'`);
  await card.getByRole('button', { name: 'Sign out' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign out of secure?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(up.revocations).toEqual([]);
  await card.getByRole('button', { name: 'Sign out' }).click();
  await dialog.getByRole('button', { name: 'Sign out' }).click();
  await expect(card.getByTestId('auth-notice')).toContainText(
    'Signed out of secure: its tokens are deleted from your keychain and the server confirmed the revocation.',
  );
  expect(up.revocations.length).toBeGreaterThan(0);
  await expect(card.getByTestId('server-state')).toHaveText('Sign-in required');
  await expect(card.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
  // Not offered any more; the Tools page keeps it as last seen and says why (issue 28 item 5).
  const tools = await controlApi(server).listTools();
  expect(tools.find((t) => t.name === 'secure__whoami')?.notOffered?.reason).toBe('sign-in');
  expect((await agent.client.listTools()).tools.map((t) => t.name)).not.toContain('secure__whoami');
  await page.evaluate(`location.hash = '/tools'`);
  await expect(page.locator('[data-tool="secure__whoami"]')).toHaveAttribute(
    'data-not-offered',
    'sign-in',
  );
  await expect(
    page.locator('[data-tool="secure__whoami"]').getByTestId('tool-unavailable'),
  ).toContainText('its server "secure" needs you to sign in again');
});
