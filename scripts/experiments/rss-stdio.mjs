// Throwaway (issue 34, wave 3 session 19): Airlock's own RSS in the peer bench's stdio leg. Starts
// one `airlock serve` per variant as bench-peer-airlock.mjs does (server-everything over stdio,
// sandboxed by Airlock), one SDK 1.x 2025 agent each, then the bench's --long sizes: 200 warm +
// 1,000 sequential calls, 2 rounds of 8 clients × 250, legs interleaved (order reversed each
// block). RSS of the Airlock process and of its tree sampled every 50 ms and at the bench's own
// sample points; CPU of the Airlock process (not the tree) per call from /proc.
//
//   bash scripts/with-keyring.sh node scripts/experiments/rss-stdio.mjs \
//     '[{"name":"base","bin":"/tmp/rss-base/bin/airlock.js"},{"name":"now"}]'
// A variant: { name, bin?, root?, env? } (env merged into the serve process's environment only;
// root: a copy of the repository whose scripts/bench-peer-airlock.mjs, bin/node-flags.js and dist/
// start it, so that its launch flags are that copy's).
import { readFileSync } from 'node:fs';
import { treePids, treeUsage } from '../bench-lib.mjs';
import * as A from '../bench-peer-airlock.mjs';
import * as G from '../bench-peer-gateways.mjs';

const variants = JSON.parse(process.argv[2] ?? '[{"name":"now"}]');
const SEQ = Number(process.env.SEQ ?? 1000);
const WARM = 200;
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const PER = 250;
const rssOf = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return 0;
  }
};
const rollup = (pid) => {
  const t = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const f = (k) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(t)?.[1] ?? 0) / 1024;
  return { rss: f('Rss'), anon: f('Anonymous'), file: f('Rss') - f('Anonymous') };
};

const legs = [];
for (const v of variants) {
  const saved = { ...process.env };
  Object.assign(process.env, v.env ?? {});
  const from = v.root ? await import(`${v.root}/scripts/bench-peer-airlock.mjs`) : A;
  const g = await from.airlock('stdio', undefined, v.bin ? { serveEntry: [v.bin] } : {});
  for (const k of Object.keys(v.env ?? {}))
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  g.pids = treePids(g.pid);
  const c = await G.agent('2025', g);
  legs.push({ v, g, c, max: 0, treeMax: 0, idle: rssOf(g.pid), idleTree: treeUsage(g.pid).rssMiB });
}
const sample = () => {
  for (const l of legs) {
    l.max = Math.max(l.max, rssOf(l.g.pid));
    l.treeMax = Math.max(l.treeMax, treeUsage(l.g.pid, l.g.pids).rssMiB);
  }
};
const timer = setInterval(sample, 50);
const TICK = 10; // ms per clock tick (getconf CLK_TCK = 100)
const cpu = (l) => {
  const f = readFileSync(`/proc/${l.g.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK;
};
const calls = async (l, c, n) => {
  for (let i = 0; i < n; i++) {
    const r = await c.callTool({ name: l.g.tool, arguments: { message: `m${i}` } });
    if (r.isError) throw new Error(JSON.stringify(r.content));
  }
};
const order = (i) => (i % 2 ? [...legs].reverse() : legs);
for (const l of legs) await calls(l, l.c, WARM);
for (const l of legs) l.seqCpu = 0;
for (let b = 0; b < SEQ / 10; b++)
  for (const l of order(b)) {
    const c0 = cpu(l);
    await calls(l, l.c, 10);
    l.seqCpu += cpu(l) - c0;
  }
for (const l of legs) {
  l.afterSeq = rssOf(l.g.pid);
  l.fleet = [];
  for (let i = 0; i < 8; i++) l.fleet.push(await G.agent('2025', l.g));
  l.conCpu = 0;
}
for (let r = 0; r < ROUNDS; r++)
  for (const l of order(r)) {
    const c0 = cpu(l);
    await Promise.all(l.fleet.map((c) => calls(l, c, PER)));
    l.conCpu += cpu(l) - c0;
    sample();
  }
clearInterval(timer);
await new Promise((r) => setTimeout(r, 1000));
const f = (x) => x.toFixed(1);
for (const l of legs) {
  const s = rollup(l.g.pid);
  console.log(
    `${l.v.name.padEnd(14)} idle ${f(l.idle)} (tree ${f(l.idleTree)}) | max ${f(l.max)} tree ${f(l.treeMax)} | ` +
      `after seq ${f(l.afterSeq)} end ${f(s.rss)} (anon ${f(s.anon)} file ${f(s.file)}) | ` +
      `cpu ms/call seq ${(l.seqCpu / SEQ).toFixed(3)} 8x ${(l.conCpu / (ROUNDS * 8 * PER)).toFixed(3)} | procs ${l.g.pids.length}`,
  );
}
if (process.env.GCPROBE) {
  // NODE_OPTIONS='--import <a probe>' that writes /tmp/gcprobe-PID.json on SIGUSR2 (GC counts).
  for (const l of legs) process.kill(l.g.pid, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 1000));
  for (const l of legs) console.log(l.v.name, readFileSync(`/tmp/gcprobe-${l.g.pid}.json`, 'utf8'));
}
if (process.env.HOLD) {
  console.log('pids', legs.map((l) => `${l.v.name}=${l.g.pid}`).join(' '));
  await new Promise((r) => setTimeout(r, Number(process.env.HOLD)));
}
for (const l of legs) {
  for (const c of [l.c, ...l.fleet]) await c.close().catch(() => {});
  await l.g.stop();
}
process.exit(0);
