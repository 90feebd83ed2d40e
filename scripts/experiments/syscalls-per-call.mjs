#!/usr/bin/env node
// Issue 34 experiment: system calls (and so event-loop wakes) a sequential call costs each
// gateway's process: the JSON relay, the guarded relay and `airlock serve`, one HTTP upstream
// (server-everything). `strace -c -f -p PID` is attached for N sequential calls after a warm-up.
// Counts, not times: strace slows every call, so only the numbers per call are read.
//   bash scripts/with-keyring.sh node scripts/experiments/syscalls-per-call.mjs [N] [era]
import { spawn } from 'node:child_process';
import * as G from '../bench-peer-gateways.mjs';
import { airlock } from '../bench-peer-airlock.mjs';
import { startEverything } from '../bench-lib.mjs';

const N = Number(process.argv[2] ?? 400);
const era = process.argv[3] ?? '2025';
const es = await startEverything();
const gws = [
  [
    'JSON relay',
    () => G.floorChild('JSON relay', es.url, 'bench-passthrough.mjs', '--relay-child'),
  ],
  ['guarded relay', () => G.floorChild('guarded relay', es.url, 'bench-guarded-relay.mjs')],
  ['Airlock', () => airlock('http', es.url)],
];
for (const [name, start] of gws) {
  const gw = await start();
  const c = await G.agent(era, gw);
  if (c.na) {
    console.log(name, c.na);
    await gw.stop();
    continue;
  }
  const call = () => c.callTool({ name: gw.tool, arguments: { message: 'hello' } });
  for (let i = 0; i < 300; i++) await call();
  const st = spawn('strace', ['-c', '-f', '-p', String(gw.pid), '-S', 'calls'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let out = '';
  st.stderr.on('data', (d) => (out += d));
  await new Promise((r) => setTimeout(r, 1500)); // attach (not a measurement)
  for (let i = 0; i < N; i++) await call();
  await new Promise((r) => setTimeout(r, 300));
  st.kill('SIGINT');
  await new Promise((r) => st.once('exit', r));
  console.log(`\n== ${name}: per call over ${N} sequential calls`);
  for (const line of out.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length >= 5 && /^\d/.test(f[0]) && f.at(-1) !== 'total') {
      const calls = Number(f[3]);
      console.log(`  ${f.at(-1).padEnd(18)} ${(calls / N).toFixed(2)}`);
    } else if (f.at(-1) === 'total')
      console.log(`  total              ${(Number(f[2]) / N).toFixed(2)}`);
  }
  await c.close();
  await gw.stop();
}
es.stop();
process.exit(0);
