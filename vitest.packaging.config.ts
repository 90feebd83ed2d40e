import { defineConfig } from 'vitest/config';

// The packaging test (issue 32): electron-builder builds Airlock for every target against a
// stand-in Electron and the test reads each package's file list. It takes about two minutes and
// needs `npm run build` first and the npm registry, so `npm test` runs it as its own stage
// (scripts/test.sh "packaging"), not with the unit specs (vitest.config.ts excludes it).
export default defineConfig({
  test: {
    include: ['main/shell/packaging.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 900_000,
    passWithNoTests: false,
  },
});
