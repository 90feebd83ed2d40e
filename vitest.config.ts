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
    testTimeout: 30_000,
    hookTimeout: 30_000,
    passWithNoTests: false,
  },
});
