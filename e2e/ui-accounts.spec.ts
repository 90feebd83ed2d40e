import { expect, test, type Page } from '@playwright/test';
import { FakeGoogle } from './fake-google/server.js';
import { addAgent, newProfile, startServer, type RunningServer } from './helpers/airlock-server.js';
import { controlApi } from './helpers/control.js';
import { openPage } from './helpers/ui.js';
import { settledFlow } from '../test-support/google-flow.js';

// Issue 8 "Accounts": first-run guidance to import the OAuth client (file
// picker or drag-and-drop), connect with progress while the consent is open,
// the account's e-mail / scopes / state, disconnect (confirmed). Google is the
// loopback fake of e2e/fake-google (airlock serve has no browser opener, so
// the page offers the consent link itself, as it does headless).
test.describe.configure({ mode: 'serial' });
let google: FakeGoogle;
let server: RunningServer;

test.beforeAll(async () => {
  google = new FakeGoogle({ user: 'alice@example.com' });
  await google.start();
  const profile = newProfile();
  await addAgent(profile, 'e2e-agent');
  server = await startServer(profile, { env: google.env() });
});
test.afterAll(async () => {
  await server?.stop();
  await google?.stop();
});

/** Drops a file on the element, as a drag from the file manager does (the page reads DataTransfer.files). */
async function dropFile(page: Page, testId: string, name: string, text: string) {
  const data = await page.evaluateHandle(
    `(() => { const dt = new DataTransfer(); dt.items.add(new File([${JSON.stringify(text)}], ${JSON.stringify(name)}, { type: 'application/json' })); return dt; })()`,
  );
  await page.getByTestId(testId).dispatchEvent('drop', { dataTransfer: data });
}

test('first run: guidance, a wrong file is refused with the reason, the right one is imported by drag-and-drop', async ({
  page,
}) => {
  await openPage(page, server, '/accounts');
  const setup = page.getByTestId('client-setup');
  await expect(setup.getByRole('heading')).toHaveText('First, set up your Google OAuth client');
  await expect(setup.getByRole('link', { name: 'Credentials' })).toHaveAttribute(
    'href',
    'https://console.cloud.google.com/apis/credentials',
  );

  await setup.getByLabel('Choose the client_secret JSON file').setInputFiles({
    name: 'notes.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"web": {}}'),
  });
  await expect(setup.getByTestId('client-error')).toBeVisible();
  expect(await controlApi(server).getGoogleClient()).toBeNull();

  await dropFile(page, 'client-drop', 'client_secret_fake.json', google.clientFile());
  await expect(page.getByTestId('client-info')).toContainText(google.clientId);
  await expect(page.getByTestId('accounts-empty')).toBeVisible();
  expect(await page.content()).not.toContain(google.clientSecret);
});

test('connect: progress while the consent is open, then the account with its scopes; disconnect asks first', async ({
  page,
  context,
}) => {
  await openPage(page, server, '/accounts');
  await page.getByRole('button', { name: 'Connect Google account' }).click();
  const progress = page.getByTestId('connect-progress');
  await expect(progress).toHaveAttribute('data-state', 'waiting');
  await expect(progress).toContainText('Waiting for you in the browser');
  await expect(page.getByRole('button', { name: 'Connect Google account' })).toBeDisabled();

  const [consent] = await Promise.all([
    context.waitForEvent('page'),
    progress.getByRole('link', { name: 'Open Google’s sign-in page' }).click(),
  ]);
  await consent.waitForLoadState();
  await expect(progress).toHaveAttribute('data-state', 'connected');
  await expect(progress).toContainText('Connected as alice@example.com');
  await consent.close();

  const card = page.locator('[data-testid="account-card"][data-email="alice@example.com"]');
  await expect(card.getByTestId('account-state')).toHaveText('Connected');
  await expect(card).toContainText('Read, draft, send (after your approval)');
  await expect(card).toContainText('Create, change, answer and delete events');

  await card.getByRole('button', { name: 'Disconnect' }).click();
  const dialog = page.getByRole('dialog', { name: 'Disconnect alice@example.com?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'Disconnect' }).click();
  await dialog.getByRole('button', { name: 'Disconnect' }).click();
  await expect(card).toHaveCount(0);
  await expect(page.getByTestId('accounts-notice')).toContainText(
    'alice@example.com is disconnected',
  );
  expect(google.revoked.length).toBe(1);
  expect(await controlApi(server).listGoogleAccounts()).toEqual([]);
});

test('a declined consent says so and what to check', async ({ page, context }) => {
  google.deny = true;
  try {
    await openPage(page, server, '/accounts');
    await page.getByRole('button', { name: 'Connect Google account' }).click();
    const progress = page.getByTestId('connect-progress');
    const [consent] = await Promise.all([
      context.waitForEvent('page'),
      progress.getByRole('link', { name: 'Open Google’s sign-in page' }).click(),
    ]);
    await expect(progress).toHaveAttribute('data-state', 'failed');
    await expect(progress.getByRole('alert')).toContainText('test user');
    await consent.close();
    await progress.getByRole('button', { name: 'Close' }).click();
    await expect(progress).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Connect Google account' })).toBeEnabled();
  } finally {
    google.deny = false;
  }
});

test('with two accounts, "Make default" moves the default; the core agrees (issue 18.2)', async ({
  page,
}) => {
  const api = controlApi(server);
  for (const user of ['alice@example.com', 'bob@example.com']) {
    google.user = user;
    const start = await api.startGoogleConnect({ openBrowser: false });
    // The fake consents at once: follow its redirect to Airlock's loopback listener.
    const consent = await fetch(start.authUrl, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    expect((await fetch(consent.headers.get('location')!)).status).toBe(200);
    expect(await settledFlow(api, start.flowId)).toMatchObject({ state: 'connected' });
  }
  google.user = 'alice@example.com';
  await openPage(page, server, '/accounts');
  const alice = page.locator('[data-testid="account-card"][data-email="alice@example.com"]');
  const bob = page.locator('[data-testid="account-card"][data-email="bob@example.com"]');
  await expect(alice).toContainText('Default');
  await expect(alice.getByTestId('account-make-default')).toHaveCount(0);
  await bob.getByTestId('account-make-default').click();
  await expect(page.getByTestId('accounts-notice')).toContainText(
    'bob@example.com is now the default',
  );
  await expect(bob).toContainText('Default');
  await expect(alice.getByTestId('account-make-default')).toBeVisible();
  const accounts = await api.listGoogleAccounts();
  expect(accounts.map((a) => [a.email, a.isDefault])).toEqual([
    ['alice@example.com', false],
    ['bob@example.com', true],
  ]);
});
