#!/usr/bin/env node
// Issue 34: what `airlock serve`'s memory settings cost in CPU. At start it caps V8's young
// generation at 8 MiB and holds the old generation with --heap-growing-percent=10
// (main/platform/young-generation.ts), for RSS under load; both make V8 collect more often. Four
// real `airlock serve`s, set up as the peer bench sets up its own (bench-peer-airlock.mjs: CLI, OS
// keychain under with-keyring.sh, server-everything over Streamable HTTP, `echo` run without
// asking), differ only in that:
//
//   default          the cap and --heap-growing-percent=10 (what users run, since wave 3 session 13)
//   optimize-for-size  the cap and --optimize-for-size for the whole run (the default until then)
//   cap only         the cap, the old generation as V8 holds it
//   neither          V8's own defaults
//
// Each is started through this file's `--serve VARIANT` entry, which runs dist/main/bundle/cli.js's
// main() with the variant as a CliInjection; the default goes through the same entry, so the
// entry is the same for all four. Stock SDK 1.x agents; rounds of 8 clients × N calls, the
// variants' order reversed every other round, then 200 sequential calls, round-robin in blocks of
// 10 across the variants, each timed for a p50. CPU per call and RSS are the process tree's, from
// /proc. Plain Node ESM over dist/ (npm run build:main first). Prints
// figures; asserts nothing (tests never depend on how fast a machine is).
//
//   node scripts/bench-memory-tradeoff.mjs          4 rounds of 8 × 100
//   node scripts/bench-memory-tradeoff.mjs --long   4 rounds of 8 × 250
//
// The entry skips bin/airlock.js's compile cache and loads this script into the serve process:
// the same for all four variants, so compare the ratios, not the absolute figures, with the peer
// bench's.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { startEverything, treeUsage } from './bench-lib.mjs';
import { airlock } from './bench-peer-airlock.mjs';
import { agent, root, started } from './bench-peer-gateways.mjs';

const self = fileURLToPath(import.meta.url);
const argv = process.argv.slice(2);
const PER_CLIENT = argv.includes('--long') ? 250 : 100;
const ROUNDS = 4;
const SEQ = 200;

const VARIANTS = {
  default: { label: 'default: cap + growing 10 %', inject: undefined },
  ofs: { label: 'cap + --optimize-for-size', inject: { oldGeneration: 'optimize-for-size' } },
  cap: { label: 'cap only', inject: { oldGeneration: 'none' } },
  neither: { label: "neither (V8's defaults)", inject: false },
};

async function serveChild(variant, rest) {
  const { main } = await import(pathToFileURL(join(root, 'dist/main/bundle/cli.js')).href);
  const { inject } = VARIANTS[variant];
  process.exitCode = await main(rest, inject === undefined ? {} : { youngGeneration: inject });
}

async function main() {
  console.log(
    `Memory settings trade-off (issue 34) — node ${process.version}, ${new Date().toISOString()}, ` +
      `${ROUNDS} rounds of 8 clients × ${PER_CLIENT} + ${SEQ} sequential\n`,
  );
  const es = await startEverything();
  const gws = [];
  try {
    for (const [variant, v] of Object.entries(VARIANTS)) {
      const gw = await airlock('http', es.url, { serveEntry: [self, '--serve', variant] });
      Object.assign(gw, {
        label: v.label,
        cpu: 0,
        n: 0,
        seqCpu: 0,
        seqN: 0,
        rss: 0,
        rate: [],
        lat: [],
      });
      gws.push(gw);
      gw.fleet = [];
      for (let i = 0; i < 8; i++) gw.fleet.push(await agent('2025', gw));
    }
    // Warm-up, outside every figure: the first calls compile and grow what every variant grows.
    for (const gw of gws)
      await Promise.all(
        gw.fleet.map(async (c, i) => {
          for (let j = 0; j < 20; j++)
            await c.callTool({ name: gw.tool, arguments: { message: `w${i}-${j}` } });
        }),
      );
    const call = (gw, c, i) =>
      c.callTool({ name: gw.tool, arguments: { message: `m${i}` } }).then((r) => {
        if (r.isError) throw new Error(`${gw.label}: ${JSON.stringify(r.content)}`);
      });
    for (let r = 0; r < ROUNDS; r++) {
      for (const gw of r % 2 === 0 ? gws : [...gws].reverse()) {
        const before = treeUsage(gw.pid).cpuMs;
        const t0 = performance.now();
        await Promise.all(
          gw.fleet.map(async (c) => {
            for (let i = 0; i < PER_CLIENT; i++) await call(gw, c, i);
          }),
        );
        gw.rate.push((8 * PER_CLIENT * 1000) / (performance.now() - t0));
        const u = treeUsage(gw.pid);
        gw.cpu += u.cpuMs - before;
        gw.n += 8 * PER_CLIENT;
        gw.rss = Math.max(gw.rss, u.rssMiB);
      }
      // Sequential calls, round-robin in blocks of 10 across the variants, so a change in the
      // machine's load falls on all of them alike; each call timed for the p50 (issue 34: the
      // settings' cost in latency, not only in CPU).
      for (let k = 0; k < SEQ / 10; k++)
        for (const gw of gws) {
          const seq0 = treeUsage(gw.pid).cpuMs;
          for (let i = 0; i < 10; i++) {
            const t0 = performance.now();
            await call(gw, gw.fleet[0], i);
            gw.lat.push(performance.now() - t0);
          }
          gw.seqCpu += treeUsage(gw.pid).cpuMs - seq0;
          gw.seqN += 10;
        }
    }
    const base = gws[0];
    const fig = (gw) => ({
      cpu: gw.cpu / gw.n,
      seq: gw.seqCpu / gw.seqN,
      rate: gw.rate.reduce((a, b) => a + b, 0) / gw.rate.length,
      rss: gw.rss,
      p50: [...gw.lat].sort((a, c) => a - c)[Math.floor(gw.lat.length / 2)],
    });
    const b = fig(base);
    console.log(
      '  variant                                CPU ms/call 8 cl   CPU ms/call seq     calls/s 8 cl   RSS MiB (max)     p50 ms seq',
    );
    for (const gw of gws) {
      const f = fig(gw);
      const x = (v, w) => `(${(v / w).toFixed(2)}×)`;
      console.log(
        `  ${gw.label.padEnd(36)} ${`${f.cpu.toFixed(3)} ${x(f.cpu, b.cpu)}`.padStart(18)}` +
          `${`${f.seq.toFixed(3)} ${x(f.seq, b.seq)}`.padStart(18)}` +
          `${`${f.rate.toFixed(0)} ${x(f.rate, b.rate)}`.padStart(17)}` +
          `${`${f.rss.toFixed(1)} (${f.rss - b.rss >= 0 ? '+' : ''}${(f.rss - b.rss).toFixed(1)})`.padStart(16)}` +
          `${`${f.p50.toFixed(2)} ${x(f.p50, b.p50)}`.padStart(15)}`,
      );
    }
    console.log('\n  (×) = ÷ the default; RSS in brackets: MiB over the default');
    for (const gw of gws) for (const c of gw.fleet) await c.close();
  } finally {
    for (const gw of gws) await gw.stop();
    es.stop();
    for (const p of started) p.kill('SIGKILL');
  }
}

if (argv[0] === '--serve') await serveChild(argv[1], argv.slice(2));
else await main();
