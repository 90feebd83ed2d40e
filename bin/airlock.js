#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build`. It checks the Node version
// first, so an older Node (Debian's 18, say) gets a sentence instead of a TypeError from deep
// inside the CLI; this file itself must therefore parse and run on old Nodes too.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `airlock: needs Node 22.12 or newer, and this is Node ${process.versions.node} (${process.execPath}).\n` +
      `  sh scripts/setup.sh installs Node 22 under ~/.cache/airlock-node22 and an "airlock" launcher that uses it.\n`,
  );
  process.exit(1);
}

let cli;
try {
  cli = await import('../dist/main/cli.js');
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('dist/main/cli.js'))
    throw err;
  process.stderr.write(
    'airlock: not built yet (dist/main/cli.js is missing): run "npm run build", or sh scripts/setup.sh.\n',
  );
  process.exit(1);
}

cli.main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`airlock: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
