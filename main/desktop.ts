/**
 * The desktop app's composition: builds the core `App` and hands it to the shell. main/index.ts
 * (package.json "main" → dist/main/index.js) calls it with nothing; a test's own entry (see
 * test-support/electron-main.mjs) passes extra tool sources in. Production code never loads a
 * module named by the environment (issue 31).
 */
import { App } from './app/app.js';
import { ExternalLinkGate } from './shell/link-gate.js';
import { exitOnStartError, runDesktop } from './shell/main-process.js';
import type { ToolSource } from './tools/types.js';

export interface DesktopOptions {
  /** Extra tool sources (the e2e suite's counting and blocking tools). */
  sources?: ToolSource[];
  /**
   * Puts the shell on globalThis.airlockShell, reachable from Playwright's `app.evaluate` (main
   * process only; no page can reach it). Only a test's entry sets it.
   */
  exposeShell?: boolean;
}

export function startDesktop(opts: DesktopOptions = {}): void {
  // Google consent opens in the system browser through the same gate as every other external link.
  const links = new ExternalLinkGate();
  runDesktop({
    // Called after 'ready' (nothing is awaited before runDesktop registers the app:// scheme).
    createCore: (dataDir) =>
      new App({
        dataDir,
        google: { openBrowser: (url) => void links.open(url) },
        sources: opts.sources ?? [],
        // Issue 17.7: with the desktop window, only it (over IPC) confirms loosening.
        policyConfirm: 'window',
        // URL elicitations for approvals open this app's card, not the headless page (issue 16 item 1).
        approvalLink: (id) => `airlock://approval/${encodeURIComponent(id)}`,
      }),
  })
    .then((shell) => {
      if (opts.exposeShell && shell)
        (globalThis as { airlockShell?: unknown }).airlockShell = shell;
    })
    .catch(exitOnStartError);
}
