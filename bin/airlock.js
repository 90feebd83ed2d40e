#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` and bundled into dist/main/bundle/
// (scripts/build-cli.mjs: one start file and a few chunks load faster than ~240 modules, issue 34);
// this runs the bundle. It checks the Node version
// first, so an older Node (Debian's 18, Ubuntu's 12) gets a sentence instead of an error from
// deep inside the CLI; this file itself therefore parses and runs on old Nodes too (no top-level
// await, no optional chaining, no `node:` imports).
import { existsSync } from 'fs';

const [major, minor] = process.versions.node.split('.').map(Number);
const cli = new URL('../dist/main/bundle/cli.js', import.meta.url);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `airlock: needs Node 22.12 or newer, and this is Node ${process.versions.node} (${process.execPath}).\n` +
      `  sh scripts/setup.sh installs Node 22 under ~/.cache/airlock-node22 and an "airlock" launcher that uses it.\n`,
  );
  process.exit(1);
} else if (!existsSync(cli)) {
  process.stderr.write(
    'airlock: not built yet (dist/main/bundle/cli.js is missing): run "npm run build", or sh scripts/setup.sh.\n',
  );
  process.exit(1);
} else {
  // Node's compile cache first (issue 34, cold start; main/platform/compile-cache.ts): only the
  // modules compiled after it is on are cached, and the CLI's whole graph is below. A cache that
  // cannot be used is only a slower start, never a failed one. The bundle's own entry for it, so
  // the bundle's cli.js shares this module rather than loading a second copy.
  import(new URL('../dist/main/bundle/compile-cache.js', import.meta.url).href)
    .then(
      (cache) => cache.enableCompileCache(),
      () => undefined,
    )
    .then(() => import(cli.href))
    .then(({ main }) => main(process.argv.slice(2)))
    .then(
      (code) => {
        if (typeof code === 'number') process.exitCode = code;
      },
      (err) => {
        process.stderr.write(`airlock: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = 1;
      },
    );
}
