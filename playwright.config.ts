import { defineConfig } from '@playwright/test';

// E2E specs start their own gateway / UI servers (no `webServer` block), so run them
// serially: the CI box has 2 cores and parallel servers would just contend.
// Chromium comes from the system package (/usr/bin/chromium); Playwright's bundled
// browsers are never downloaded. Override with CHROMIUM_PATH.
const executablePath = process.env['CHROMIUM_PATH'] || '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env['CI'],
  retries: 0,
  // Safety nets, not assertions (issue 29 item 2): specs wait on events, and a loaded 2-core
  // machine (Chromium, servers and the specs sharing it) must only make them slower.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: 'list',
  use: {
    browserName: 'chromium',
    headless: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
