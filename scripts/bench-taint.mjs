#!/usr/bin/env node
// Taint check (issue 22): detection and false-flag rates on the repository's corpus
// (test-support/taint-corpus/), the check's cost per call against an anchor measured in the
// same process (the canonical-JSON digest every call already pays), and the index's memory over
// a long session. Prints figures; asserts nothing (the rates are asserted by
// main/provenance/corpus.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { build } from 'vite';

// The memory figure needs forced GC: re-run this script with --expose-gc when it is missing.
if (typeof globalThis.gc !== 'function') {
  const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
  });
  process.exit(r.status ?? 1);
}

const root = fileURLToPath(new URL('..', import.meta.url));
// Inside the project, so that the bundle's packages (nodemailer, fast-check, …) resolve from its
// node_modules; removed at exit (chunks load lazily).
const out = mkdtempSync(join(root, '.bench-taint-'));
process.on('exit', () => rmSync(out, { recursive: true, force: true }));
await build({
  root,
  configFile: false,
  logLevel: 'warn',
  build: {
    ssr: 'test-support/taint-corpus/bench-entry.ts',
    outDir: out,
    emptyOutDir: true,
    target: 'node22',
    minify: false,
    rollupOptions: { output: { format: 'es', entryFileNames: 'bench-entry.mjs' } },
  },
});
const { runCorpusDirect, rates, corpusService, longSession, provenanceCorpus } = await import(
  pathToFileURL(join(out, 'bench-entry.mjs')).href
);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (ms) => `${(ms * 1000).toFixed(1)} µs`;

// 1. Rates.
const r = rates(await runCorpusDirect());
const detection = r.detected / r.injected;
const falseRate = r.falseFlags / r.benign;
console.log(
  `corpus: ${r.injected} injected, ${r.benign} benign sessions (+${r.limits.length} documented limits)`,
);
console.log(
  `  detection   ${(detection * 100).toFixed(1)}% (${r.detected}/${r.injected})  target ≥ 95%  ${detection >= 0.95 ? 'MET' : 'MISSED'}`,
);
console.log(
  `  false flags ${(falseRate * 100).toFixed(1)}% (${r.falseFlags}/${r.benign})  target ≤ 5%   ${falseRate <= 0.05 ? 'MET' : 'MISSED'}` +
    (r.falselyFlagged.length ? `  (${r.falselyFlagged.join(', ')})` : ''),
);
for (const l of r.limits)
  console.log(`  limit ${l.id}: ${l.flagged ? 'flagged' : 'not flagged (documented)'}`);

// 2. Cost per check, warm, over many corpus runs (one service, so the index is populated).
const svc = corpusService();
const checks = [];
for (let i = 0; i < 30; i++) {
  await runCorpusDirect(svc, (ms, outbound) => {
    if (outbound) checks.push(ms);
  });
}
// Anchor: SHA-256 of the canonical arguments, which every call already computes (argsDigest).
const anchor = [];
const sample = { to: ['billing@evil.example'], subject: 'Invoices', body: 'x'.repeat(400) };
for (let i = 0; i < checks.length; i++) {
  const t = performance.now();
  createHash('sha256').update(JSON.stringify(sample)).digest('hex');
  anchor.push(performance.now() - t);
}
const p50 = pct(checks, 50);
console.log(
  `check cost (least of 5 runs of each check): p50 ${fmt(p50)}, p99 ${fmt(pct(checks, 99))} over ${checks.length} checks of calls that send out ` +
    `(anchor argsDigest p50 ${fmt(pct(anchor, 50))}, ratio ${(p50 / pct(anchor, 50)).toFixed(1)}×)  ` +
    `target p99 ≤ 100 µs  ${pct(checks, 99) <= 0.1 ? 'MET' : 'MISSED'}`,
);

// 3. Memory over a long session: one agent reads thousands of mails (before 2b, which loads the
// Google tools and the fakes, so the heap figure is the index's).
const mem = await longSession();
console.log(
  `long session: ${mem.reads} mails read (${(mem.bytesRead / 1048576).toFixed(1)} MiB of text), indexing ${fmt(mem.observeMsPerRead)} per 3 KB result (off the answer path); ` +
    `index keys ${mem.keysAt.map((k) => k.toLocaleString('en')).join(' → ')}; ` +
    `heap after GC ${mem.heapAt.map((h) => `${(h / 1048576).toFixed(1)}`).join(' → ')} MiB, ${(mem.baseline / 1048576).toFixed(1)} MiB before the session ` +
    `(bounded: ${mem.bounded ? 'yes' : 'NO'})`,
);

// 2b. Issue 30's corpus (real mail through the Gmail tools, calendars, third-party tools): its
// figures by part, and the cost of every outbound check over three rounds through one service.
const pc = await provenanceCorpus(3);
const line = (name, f) =>
  `  ${name}: detected ${f.detected}/${f.detectable} (${((100 * f.detected) / f.detectable).toFixed(1)}%), ` +
  `false flags ${f.falseFlags}/${f.benign} (${((100 * f.falseFlags) / f.benign).toFixed(1)}%)`;
console.log(`provenance corpus (issue 30): ${pc.sessions} sessions`);
console.log(line('tuning part', pc.tuning));
console.log(line('held-out third', pc.heldOut));
const p99 = pct(pc.checks, 99);
console.log(
  `  check cost (least of 5 runs of each check): p50 ${fmt(pct(pc.checks, 50))}, p99 ${fmt(p99)} over ${pc.checks.length} outbound checks  ` +
    `target p99 ≤ 100 µs  ${p99 <= 0.1 ? 'MET' : 'MISSED'}`,
);
