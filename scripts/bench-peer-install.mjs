#!/usr/bin/env node
// The peer gateways of issue 34, installed into a cache folder beside the project — never into
// package.json or node_modules: `npm install --prefix <cache>` with exact versions, install
// scripts off. Used by bench-peers.mjs; run alone it installs (or finds) them and prints where.
//
//   node scripts/bench-peer-install.mjs
//
// AIRLOCK_BENCH_PEERS_DIR overrides the cache folder (default ~/.cache/airlock-bench-peers).
// Offline or on any install failure: returns the reason; the bench then skips the peers.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Exact versions: the ones the issue measured (supergateway 4.0, mcp-proxy 6.7, mcp-hub 4.2.1). */
export const PEERS = {
  'mcp-hub': { version: '4.2.1', bin: 'dist/cli.js' },
  supergateway: { version: '4.0.0', bin: 'dist/index.js' },
  'mcp-proxy': { version: '6.7.19', bin: 'dist/bin/mcp-proxy.mjs' },
};

export const peersDir = () =>
  process.env.AIRLOCK_BENCH_PEERS_DIR ?? join(homedir(), '.cache', 'airlock-bench-peers');

const installedVersion = (dir, name) => {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8'))
      .version;
  } catch {
    return undefined;
  }
};

/**
 * Each peer's entry script (run with this Node), installing what is missing first.
 * Resolves { bins: { name: path }, sdk: path of the cache's @modelcontextprotocol/sdk } or
 * { error: 'why' }; never throws.
 */
export function installPeers(log = (line) => console.log(line)) {
  const dir = peersDir();
  const missing = Object.entries(PEERS).filter(([n, p]) => installedVersion(dir, n) !== p.version);
  if (missing.length) {
    const specs = missing.map(([n, p]) => `${n}@${p.version}`);
    log(`  installing ${specs.join(' ')} into ${dir} (a cache, not a dependency) …`);
    try {
      mkdirSync(dir, { recursive: true });
    } catch (err) {
      return { error: `cannot create ${dir}: ${err.message}` };
    }
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(
      npm,
      ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', ...specs],
      { encoding: 'utf8', cwd: dir, timeout: 10 * 60_000 },
    );
    if (r.error || r.status !== 0) {
      // npm's own first words on it (code, the request that failed), not its closing advice.
      const lines = (r.error?.message ?? r.stderr ?? '').trim().split('\n');
      const said = lines.filter((l) =>
        /npm error (code|errno|network|request|404|notarget)/.test(l),
      );
      const why = (said.length ? said : lines.slice(-2)).slice(0, 3).join('; ');
      return { error: `npm install failed (offline?): ${why || `exit ${r.status}`}` };
    }
  }
  const bins = {};
  for (const [name, p] of Object.entries(PEERS)) {
    const bin = join(dir, 'node_modules', name, p.bin);
    if (!existsSync(bin)) return { error: `${name}@${p.version} has no ${p.bin} in ${dir}` };
    bins[name] = bin;
  }
  return { bins, dir };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = installPeers();
  if (r.error) console.log(`  peers not installed: ${r.error}`);
  else for (const [n, b] of Object.entries(r.bins)) console.log(`  ${n}@${PEERS[n].version}  ${b}`);
}
