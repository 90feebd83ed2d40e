#!/usr/bin/env node
// The file vault's share of `airlock serve`'s cold start (issue 34): spawn → ready line of
// `airlock serve --vault file` with no keychain, for this checkout and, interleaved (the order
// alternates), another built checkout DIR: a before/after. Two cases each:
//   fresh     a new data dir and key file (a new vault is created: key file, first write, verify);
//   existing  a data dir that checkout's own earlier start made (the vault is only opened);
//   upgrade   (with --compare) a data dir DIR's start made, opened by this checkout: its vault
//             as an older Airlock left it.
// Node's compile cache is warmed by one untimed start per checkout first. Every sample is printed.
//
//   node scripts/bench-vault-start.mjs [--compare DIR] [--runs N]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
const root = fileURLToPath(new URL('..', import.meta.url));
const compare = argv.includes('--compare') ? argv[argv.indexOf('--compare') + 1] : undefined;
const runs = argv.includes('--runs') ? Number(argv[argv.indexOf('--runs') + 1]) : 7;
const cache = mkdtempSync(join(tmpdir(), 'airlock-vb-cache-'));

/** The flags the checkout's launchers start Node with (bin/node-flags.js; none where it has none). */
const flagsOf = async (checkout) =>
  (
    await import(pathToFileURL(join(checkout, 'bin/node-flags.js')).href).catch(() => null)
  )?.nodeFlags() ?? [];

/** One `airlock serve` of `checkout` on `dataDir` with its key under `state`: ms to the ready line. */
async function start(checkout, dataDir, state) {
  const flags = await flagsOf(checkout);
  const t0 = performance.now();
  const proc = spawn(
    process.execPath,
    [...flags, join(checkout, 'bin/airlock.js'), 'serve', '--port', '0', '--data-dir', dataDir],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        AIRLOCK_VAULT: 'file',
        AIRLOCK_VAULT_PASSPHRASE: '',
        XDG_STATE_HOME: state,
        XDG_CACHE_HOME: cache,
        DBUS_SESSION_BUS_ADDRESS: '',
      },
    },
  );
  let err = '';
  proc.stderr.on('data', (d) => (err += d));
  const ok = await Promise.race([
    new Promise((r) => createInterface({ input: proc.stdout }).once('line', () => r(true))),
    new Promise((r) => proc.once('exit', () => r(false))),
  ]);
  const ms = performance.now() - t0;
  if (ok) {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
  }
  if (!ok) throw new Error(`${checkout}: airlock serve did not start: ${err.trim()}`);
  return ms;
}

const checkouts = { after: root, ...(compare ? { before: compare } : {}) };
const samples = Object.fromEntries(
  Object.keys(checkouts).flatMap((k) => [
    [`${k} fresh`, []],
    [`${k} existing`, []],
  ]),
);
if (compare) samples['after upgrade'] = [];
for (let i = -1; i < runs; i++) {
  const order = Object.keys(checkouts);
  for (const name of i % 2 ? order.reverse() : order) {
    const dataDir = mkdtempSync(join(tmpdir(), 'airlock-vb-data-'));
    const state = mkdtempSync(join(tmpdir(), 'airlock-vb-state-'));
    const fresh = await start(checkouts[name], dataDir, state);
    const existing = await start(checkouts[name], dataDir, state);
    if (i >= 0) {
      samples[`${name} fresh`].push(fresh);
      samples[`${name} existing`].push(existing);
    }
    if (name === 'before') {
      // The same data dir, as the older checkout left it, opened by this one.
      const upgrade = await start(root, dataDir, state);
      if (i >= 0) samples['after upgrade'].push(upgrade);
    }
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  }
}
rmSync(cache, { recursive: true, force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [k, xs] of Object.entries(samples))
  console.log(
    `${k.padEnd(18)} median ${median(xs).toFixed(0).padStart(4)} ms   samples ${xs.map((x) => x.toFixed(0)).join(' ')}`,
  );
