/**
 * Electron entry (package.json "main" → dist/main/index.js). Builds the
 * core `App` and hands it to the shell; everything else lives in
 * main/shell/. Headless runs use `airlock serve` (main/cli.ts) instead.
 */
import { app } from 'electron';
import { App } from './core/app.js';
import { runDesktop } from './shell/main-process.js';

runDesktop({ createCore: (dataDir) => new App({ dataDir }) }).catch((err: unknown) => {
  process.stderr.write(`airlock: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  app.exit(1);
});
