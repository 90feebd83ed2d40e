/**
 * Electron entry (package.json "main" → dist/main/index.js). Builds the
 * core `App` and hands it to the shell; everything else lives in
 * main/shell/. Headless runs use `airlock serve` (main/cli.ts) instead.
 */
import { app } from 'electron';
import { App } from './app/app.js';
import { ExternalLinkGate } from './shell/link-gate.js';
import { runDesktop } from './shell/main-process.js';

// Google consent opens in the system browser through the same gate as every other external link.
const links = new ExternalLinkGate();
runDesktop({
  createCore: (dataDir) =>
    new App({
      dataDir,
      google: { openBrowser: (url) => void links.open(url) },
      // Issue 17.7: with the desktop window, only it (over IPC) confirms loosening.
      policyConfirm: 'window',
    }),
}).catch((err: unknown) => {
  process.stderr.write(
    `airlock: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  app.exit(1);
});
