// The desktop app as main/index.ts starts it, plus the e2e suite's tool sources and the shell on
// globalThis.airlockShell for Playwright's `app.evaluate` (e2e/electron.spec.ts launches Electron
// with this file). Production code loads no module named by the environment (issue 31).
import { createSources } from '../e2e/fixtures/test-sources.mjs';

const { startDesktop } = await import(new URL('../dist/main/desktop.js', import.meta.url).href);
startDesktop({ sources: createSources(), exposeShell: true });
