#!/usr/bin/env node
// Issue 34 experiment: reads what timeline-hook.mjs wrote (one file per process) and splits each
// sequential call of every HTTP gateway leg into its steps across processes, medians in µs:
//
//   A  agent's headers written (undici sendHeaders) → the gateway has them parsed
//   B  → the gateway's upstream request written out
//   C  → the upstream has its headers parsed            (only where the upstream is node:http)
//   D  → the upstream's end() with the answer
//   E  → the gateway has the answer's head
//   E2 → the gateway has the answer's body end
//   F  → the gateway's own end() with its answer
//   G  → the agent has the answer's head
//   H  → the agent has the answer's end
//
// A gateway's calls are paired with the agent's by time: a call counts only while they do not
// overlap (the sequential phase). The direct leg (agent → upstream) gives A', D and G'.
//   node scripts/experiments/timeline-report.mjs DIR
//   TL_DIST=B node scripts/experiments/timeline-report.mjs DIR   also step B's 10/25/50/75/90th
//                                                                  percentiles per leg
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const procs = [];
for (const f of readdirSync(dir)) {
  if (!f.startsWith('ev-')) continue;
  const lines = readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean);
  const head = JSON.parse(lines[0]);
  const ev = lines.slice(1).map((l) => JSON.parse(l));
  ev.sort((a, b) => a[1] - b[1]);
  procs.push({ pid: head.pid, argv: head.argv, ev });
}
const name = (p) => {
  const a = p.argv.join(' ');
  if (a.includes('airlock.js') && a.includes('serve')) return `Airlock(${p.pid})`;
  if (a.includes('--relay-child')) return 'JSON relay';
  if (a.includes('--proxy-child')) return 'raw proxy';
  if (a.includes('bench-guarded-relay')) return 'guarded relay';
  if (a.includes('everything')) return `everything(${p.pid})`;
  return a.split(' ').slice(1, 3).join(' ').slice(-60);
};
const agentProc = procs.find((p) => p.ev.some((e) => e[0] === 'us'));
const owner = new Map(); // port → process that serves it
for (const p of procs) for (const e of p.ev) if (e[0] === 'ss') owner.set(e[2], p);
const of = (p, kind, port) =>
  p.ev.filter((e) => e[0] === kind && (port === undefined || e[2] === port)).map((e) => e[1]);
const after = (arr, t, until = Infinity) => {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (arr[m] < t) lo = m + 1;
    else hi = m;
  }
  return lo < arr.length && arr[lo] <= until ? arr[lo] : undefined;
};
const med = (a) => {
  const s = a.filter((x) => x !== undefined && Number.isFinite(x)).sort((x, y) => x - y);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};

/** The steps each leg's row gives, in the order printed. */
const keys = ['A', 'B', 'C', 'D', 'E', 'E2', 'F', 'G', 'H', 'served', 'total', 'cpuD'];
const ports = [...new Set(agentProc.ev.filter((e) => e[0] === 'us').map((e) => e[2]))];
const rows = [];
for (const port of ports) {
  const g = owner.get(port);
  if (!g) continue;
  const sends = of(agentProc, 'us', port);
  const heads = of(agentProc, 'uh', port);
  const ends = of(agentProc, 'ut', port);
  const ss = of(g, 'ss', port);
  const se = of(g, 'se', port);
  const cs = of(g, 'cs');
  const cpuAt = new Map(
    g.ev.filter((e) => e[0] === 'cs' || e[0] === 'ch').map((e) => [e[1], e[3]]),
  );
  const ch = of(g, 'ch');
  const ce = of(g, 'ce');
  const calls = [];
  for (let i = 0; i < sends.length; i++) {
    const t0 = sends[i];
    const next = sends[i + 1] ?? Infinity;
    const uh = after(heads, t0, next);
    const ut = after(ends, t0, next);
    if (uh === undefined || ut === undefined || ut > next) {
      if (calls.length > 100) break;
      continue;
    }
    const s0 = after(ss, t0, uh);
    const s1 = after(se, s0 ?? t0, uh);
    if (s0 === undefined || s1 === undefined) continue;
    const c = { A: s0 - t0, G: uh - s1, H: ut - uh, total: ut - t0, served: s1 - s0 };
    const up0 = after(cs, s0, s1);
    if (up0 !== undefined) {
      const h = after(ch, up0, s1);
      const e = h === undefined ? undefined : after(ce, h, s1);
      c.B = up0 - s0;
      if (h !== undefined) c.cpuD = cpuAt.get(h) - cpuAt.get(up0);
      if (h !== undefined) {
        const u = procs.find(
          (p) => p !== g && p.ev.some((x) => x[0] === 'ss' && x[1] >= up0 && x[1] <= h),
        );
        if (u) {
          const us0 = after(of(u, 'ss'), up0, h);
          const us1 = us0 === undefined ? undefined : after(of(u, 'se'), us0, h);
          if (us1 !== undefined) {
            c.C = us0 - up0;
            c.D = us1 - us0;
            c.E = h - us1;
          }
        }
        if (e !== undefined) {
          c.E2 = e - h;
          c.F = s1 - e;
        }
      }
    }
    calls.push(c);
  }
  if (calls.length === 0) continue;
  const m = Object.fromEntries(keys.map((k) => [k, med(calls.map((c) => c[k]))]));
  rows.push({ name: name(g), port, n: calls.length, m, g, calls });
}
console.log('leg'.padEnd(22) + 'n'.padStart(6) + keys.map((k) => k.padStart(8)).join(''));
for (const r of rows)
  console.log(
    r.name.padEnd(22) +
      String(r.n).padStart(6) +
      keys.map((k) => (Number.isNaN(r.m[k]) ? '—' : r.m[k].toFixed(0)).padStart(8)).join(''),
  );
if (process.env.TL_DIST) {
  const k = process.env.TL_DIST;
  const q = (a, p) => {
    const s = a.filter((x) => Number.isFinite(x)).sort((x, y) => x - y);
    return s[Math.floor(s.length * p)];
  };
  for (const r of rows) {
    const a = r.calls.map((c) => c[k]);
    console.log(
      r.name.padEnd(22),
      k,
      [0.1, 0.25, 0.5, 0.75, 0.9].map((p) => q(a, p)?.toFixed(0)).join(' '),
    );
  }
}
