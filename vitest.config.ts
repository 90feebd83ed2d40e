import { defineConfig } from 'vitest/config';

// Unit + security specs (`*.security.test.ts`) for main/, preload/ and renderer/.
// Playwright specs live in e2e/ and are run by `playwright test`, never by vitest.
export default defineConfig({
  test: {
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
    ],
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
  },
});
