/**
 * Electron entry (package.json "main" → dist/main/index.js). Builds the
 * core `App` and hands it to the shell; everything else lives in
 * main/shell/. Headless runs use `airlock serve` (main/cli.ts) instead.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app } from 'electron';
import { App } from './app/app.js';
import { ExternalLinkGate } from './shell/link-gate.js';
import { runDesktop } from './shell/main-process.js';
import type { ToolSource } from './tools/types.js';

/**
 * Test hooks for e2e/electron.spec.ts, honoured only when running from
 * source (never in a packaged build, whose fuses also refuse NODE_OPTIONS
 * and RunAsNode): AIRLOCK_TEST_SOURCE adds the e2e tool source, as
 * `airlock serve` does, and the shell is reachable from Playwright's
 * `app.evaluate` as globalThis.airlockShell (main process only; no page
 * can reach it).
 */
const testSourcePath = app.isPackaged ? undefined : process.env.AIRLOCK_TEST_SOURCE;

async function testSources(): Promise<ToolSource[]> {
  if (!testSourcePath) return [];
  const mod = (await import(pathToFileURL(resolve(testSourcePath)).href)) as {
    createSources: () => ToolSource[];
  };
  return mod.createSources();
}

// Google consent opens in the system browser through the same gate as every other external link.
const links = new ExternalLinkGate();
runDesktop({
  // Called after 'ready' (nothing is awaited before runDesktop registers the app:// scheme).
  createCore: async (dataDir) =>
    new App({
      dataDir,
      google: { openBrowser: (url) => void links.open(url) },
      sources: await testSources(),
      // Issue 17.7: with the desktop window, only it (over IPC) confirms loosening.
      policyConfirm: 'window',
      // URL elicitations for approvals open this app's card, not the headless page (issue 16 item 1).
      approvalLink: (id) => `airlock://approval/${encodeURIComponent(id)}`,
    }),
})
  .then((shell) => {
    if (testSourcePath && shell) (globalThis as { airlockShell?: unknown }).airlockShell = shell;
  })
  .catch((err: unknown) => {
    process.stderr.write(
      `airlock: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    app.exit(1);
  });
