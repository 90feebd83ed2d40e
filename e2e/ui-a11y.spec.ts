import { expect, test, type Page } from '@playwright/test';
import { startFullState, type FullState } from './helpers/ui-state.js';
import { openPage, screenshot, seriousViolations, type AxeProblem } from './helpers/ui.js';

// Issue 8 "Must hold": no serious or critical axe violation on any page,
// light or dark; the run writes docs/screenshots/ (every page, both schemes,
// and the 360-px approval popup) for the README.
// Each test scans every page and state with axe (CPU-heavy): on a loaded 2-core machine one took
// more than the default 2 minutes' safety net (issue 29 item 2), so its own net is larger.
test.describe.configure({ mode: 'serial', timeout: 300_000 });
let state: FullState;
test.beforeAll(async () => {
  state = await startFullState();
});
test.afterAll(async () => state?.stop());

/** Each page and what shows that its data is on screen. */
const PAGES: { path: string; name: string; ready: (page: Page) => Promise<void> }[] = [
  {
    path: '/approvals',
    name: 'approvals',
    ready: async (p) => void (await expect(p.getByTestId('approval-card').first()).toBeVisible()),
  },
  {
    path: '/activity',
    name: 'activity',
    ready: async (p) => void (await expect(p.getByTestId('activity-row').first()).toBeVisible()),
  },
  {
    path: '/tools',
    name: 'tools',
    ready: async (p) => void (await expect(p.getByTestId('tool-group').first()).toBeVisible()),
  },
  {
    path: '/agents',
    name: 'agents',
    ready: async (p) => void (await expect(p.getByTestId('agent-row').first()).toBeVisible()),
  },
  {
    path: '/accounts',
    name: 'accounts',
    ready: async (p) => void (await expect(p.getByTestId('account-card').first()).toBeVisible()),
  },
  {
    path: '/servers',
    name: 'servers',
    ready: async (p) =>
      void (await expect(
        p.locator('[data-testid="server-card"][data-state="ready"]'),
      ).toBeVisible()),
  },
];

for (const scheme of ['light', 'dark'] as const) {
  test(`every page in ${scheme}: no serious or critical violation; screenshots`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1100, height: 800 });
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    const problems: (AxeProblem & { page: string })[] = [];
    const scan = async (name: string) =>
      problems.push(...(await seriousViolations(page)).map((v) => ({ ...v, page: name })));

    for (const p of PAGES) {
      await openPage(page, state.server, p.path);
      await p.ready(page);
      await scan(p.name);
      await screenshot(page, `${p.name}-${scheme}`);
    }

    // The states in between: the e-mail preview, a new agent's setup, a confirmation dialog.
    await openPage(page, state.server, '/approvals');
    // The test message renders as a message (recipient and body), not as a JSON blob only.
    const mail = page
      .getByTestId('approval-card')
      .filter({ hasText: 'Lunch at 1?' })
      .getByTestId('summary-email');
    await expect(mail).toContainText('Tocarol@example.com');
    await expect(mail.getByTestId('summary-email-body')).toHaveText('Lunch at 1?');
    await openPage(page, state.server, '/agents');
    await page.getByLabel('Agent name').fill(`vscode-${scheme}`);
    await page.getByRole('button', { name: 'Add agent' }).click();
    await expect(page.getByTestId('new-agent')).toBeVisible();
    await scan('agents: new agent');
    await screenshot(page, `agents-new-${scheme}`);
    await openPage(page, state.server, '/tools');
    await page
      .locator('[data-testid="tool-row"][data-tool="test_block"]')
      .getByLabel('Runs freely')
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await scan('tools: destructive confirmation');
    await page.keyboard.press('Escape');

    // The 360-px always-on-top approval popup.
    await page.setViewportSize({ width: 360, height: 640 });
    await openPage(page, state.server, '/popup');
    await expect(page.getByTestId('approval-card').first()).toBeVisible();
    await scan('popup');
    await screenshot(page, `popup-${scheme}`);

    expect(problems, JSON.stringify(problems, null, 2)).toEqual([]);
  });
}
