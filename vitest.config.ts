import { defineConfig } from 'vitest/config';
import { nodeFlags } from './bin/node-flags.js';

// The specs that hold AsyncLocalStorage's guarantees (main/remote/relay/relay-scope.ts: a
// server→client request belongs to the agent whose call caused it; a response's callbacks run in
// its request's context). They run twice: as everything else, and in a Node started with the flags
// Airlock's launchers start it with (bin/node-flags.js: on Node 22, AsyncLocalStorage on
// AsyncContextFrame instead of async_hooks), so they hold on the implementation users get.
const ASYNC_CONTEXT_SPECS = [
  'main/cli/node-flags.started.test.ts',
  'main/remote/relay/*.test.ts',
  'main/remote/http/lean-transport.test.ts',
  'main/remote/relay-label.security.test.ts',
  'main/remote/remote-passthrough.test.ts',
  // Sampling, elicitation and roots reaching a 1.x agent; URL-elicitation steps noted in the
  // calling agent's scope (relay-scope.ts noteUrlStep).
  'main/remote/remote-passthrough-sdk1.test.ts',
  'main/remote/remote-url-required.test.ts',
  'main/remote/remote-modern.test.ts',
  'main/remote/tasks/task-relay.test.ts',
  'main/gateway/input-rounds.security.test.ts',
  // A round's decision in the async context of its wake-up (input-rounds.ts `wake`).
  'main/gateway/input-rounds.schedule.test.ts',
];

// Unit + security specs (`*.security.test.ts`) for main/, preload/ and renderer/.
// Playwright specs live in e2e/ and are run by `playwright test`, never by vitest.
export default defineConfig({
  test: {
    environment: 'node',
    // Child processes (not worker threads): native addons (better-sqlite3, @napi-rs/keyring)
    // and specs that spawn servers / touch process-global state behave reliably in forks.
    pool: 'forks',
    // Safety nets, not assertions: no test is decided by the clock (issue 29 item 2; the lint rule
    // airlock/test-clock). Generous, so a loaded 2-core machine only makes the suite slower.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll's own default is 1 s, which a loaded machine misses; vi.waitFor has no such
    // setting (its 1 s default is why test-support/eventually.ts exists).
    expect: { poll: { timeout: 30_000 } },
    passWithNoTests: false,
    // One fixed fast-check seed for every property that does not name its own.
    setupFiles: ['test-support/fast-check-seed.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'main/**/*.test.ts',
            'common/**/*.test.ts',
            'eslint/**/*.test.ts',
            'preload/**/*.test.ts',
            'renderer/**/*.test.ts',
            'renderer/**/*.test.tsx',
          ],
          // The packaging test builds every platform with electron-builder: its own stage and config
          // (vitest.packaging.config.ts).
          exclude: [
            '**/node_modules/**',
            '**/dist/**',
            'e2e/**',
            'release/**',
            'main/shell/packaging.test.ts',
            // The launch-flags project's own check (below).
            'main/cli/node-flags.started.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: { name: 'launch-flags', include: ASYNC_CONTEXT_SPECS, execArgv: nodeFlags() },
      },
    ],
  },
});
