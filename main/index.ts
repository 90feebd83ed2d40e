/**
 * Electron entry (package.json "main" → dist/main/index.js). Everything lives in main/desktop.ts
 * and main/shell/; headless runs use `airlock serve` (main/cli.ts) instead.
 */
import { startDesktop } from './desktop.js';

startDesktop();
