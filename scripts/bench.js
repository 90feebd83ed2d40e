// `npm run bench`: runs every scripts/bench-*.mjs in turn and prints their figures.
// Needs a build (npm run build) and, for the cold-start figure, an OS keychain
// (scripts/with-keyring.sh); it asserts nothing.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv[2];
const scripts = readdirSync(dir)
  .filter((f) => /^bench-.*\.mjs$/.test(f) && f !== 'bench-lib.mjs' && (!only || f.includes(only)))
  .sort();
let failed = 0;
for (const script of scripts) {
  console.log(`\n=== ${script} ===`);
  const r = spawnSync(process.execPath, [fileURLToPath(new URL(script, import.meta.url))], {
    stdio: 'inherit',
  });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
