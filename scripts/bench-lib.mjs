import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Shared helpers for the benchmark scripts: percentiles and printing.
export function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function summary(samples) {
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), n: samples.length };
}

export const ms = (x) => `${x.toFixed(3)} ms`;

export function row(label, value, target) {
  console.log(
    `  ${label.padEnd(58)} ${String(value).padStart(14)}${target ? `   (target ${target})` : ''}`,
  );
}

export async function timeEach(n, fn) {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    samples.push(performance.now() - t0);
  }
  return samples;
}

/**
 * The core in-process on a free loopback port (MemoryVault, quiet logger, long approval waits)
 * with the given tool sources and one agent "bench". Needs a build (npm run build).
 */
export async function startBenchApp(sources, prefix = 'airlock-bench-') {
  const dist = (path) => new URL(`../dist/main/${path}`, import.meta.url).href;
  const [{ App }, { Logger }, { MemoryVault }] = await Promise.all([
    import(dist('app/app.js')),
    import(dist('platform/log.js')),
    import(dist('platform/vault/vault.js')),
  ]);
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ approvals: { waitSeconds: 60 } }));
  const app = new App({
    dataDir,
    port: 0,
    vault: new MemoryVault(),
    sources,
    logger: new Logger({ stderr: false }),
  });
  await app.start();
  const { token } = await app.control.addAgent('bench');
  return { app, token };
}
