// The peer bench's stdio era ratio taken apart (issue 34: "a 2026-07-28 agent within 1.1× of a
// 2025 one"; docs/performance.md, "The stdio era ratio taken apart (wave 3 session 26)").
//
// One `airlock serve` with its local server-everything, set up as the peer bench sets it up
// (bench-peer-airlock.mjs), and each agent of the bench (SDK 1.x Client on a 2025 session, the v2
// client on 2026-07-28 and on a 2025 session), sequential calls in alternating blocks (the order
// reversed every other round). Per agent it prints the p50, the gateway tree's CPU per call and
// the agent process's CPU per call, and the same agent's p50 against its *client floor*: a bare
// node:http server in this process that replays Airlock's own answers to that agent byte for byte
// (recorded from its fifth call), so the floor is what the agent's own library and the loopback
// cost with no server work. Whatever the floors differ by is the client libraries' share of the
// era ratio, not the gateway's.
//
// --cpu-prof: the gateway's process is profiled (one run, both eras interleaved) and its samples
// are cut at the blocks' bounds (both clocks are the monotonic clock), so each era's self time per
// call, by file, comes from the same moments of the machine (a load-robust comparison; separate
// runs per era are not).
//
// A measurement (like bench-fast-lane.mjs), not one of `npm run bench`'s: it reports no target.
//
//   node scripts/bench-era-stdio.mjs [--calls 3000] [--eras 2025,2026,v2-2025] [--cpu-prof] [--help]
import http from 'node:http';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { airlock } from './bench-peer-airlock.mjs';
import { agent, root } from './bench-peer-gateways.mjs';
import { treeUsage } from './bench-lib.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : process.argv[i + 1];
};
const USAGE = `node scripts/bench-era-stdio.mjs [--calls N] [--eras LIST] [--cpu-prof]
  --calls N     sequential calls per leg, a multiple of 20 (default 3000)
  --eras LIST   agents, comma-separated, of 2025, 2026 and v2-2025 (default all three)
  --cpu-prof    profile the gateway and print each era's self time per call, by file
A measurement, not part of \`npm run bench\`; needs a build (npm run build:main).`;
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const BLOCK = 20;
const N = Number(arg('--calls', 3000));
const ERAS = arg('--eras', '2025,2026,v2-2025').split(',');
// A bad argument is said before a gateway starts (a NaN count ran no block, then failed on an
// empty p50; an unknown era failed after the gateway and its server were up).
const bad =
  !Number.isInteger(N) || N < BLOCK || N % BLOCK
    ? `--calls must be a positive multiple of ${BLOCK}, got ${arg('--calls')}`
    : ERAS.find((e) => !['2025', '2026', 'v2-2025'].includes(e))
      ? `--eras takes 2025, 2026 and v2-2025, got ${ERAS.join(',')}`
      : '';
if (bad) {
  console.error(`${bad}\n\n${USAGE}`);
  process.exit(2);
}
const PROF = process.argv.includes('--cpu-prof') ? mkdtempSync(join(tmpdir(), 'era-prof-')) : '';

const gw = await airlock(
  'stdio',
  undefined,
  PROF
    ? {
        serveEntry: [
          '--cpu-prof',
          `--cpu-prof-dir=${PROF}`,
          '--cpu-prof-interval=250',
          join(root, 'bin/airlock.js'),
        ],
      }
    : {},
);
const call = (c) => c.callTool({ name: gw.tool.name ?? gw.tool, arguments: { message: 'hi' } });

// Each agent's answers from Airlock, recorded by method (the last of five calls: an agent's
// first call may take another path, e.g. the SDK's, than its everyday ones).
const realFetch = globalThis.fetch;
const recorded = {};
const agents = {};
for (const era of ERAS) {
  const table = (recorded[era] = new Map());
  globalThis.fetch = async (url, init) => {
    const res = await realFetch(url, init);
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    table.set(`${init?.method ?? 'GET'} ${body?.method ?? ''}`, {
      status: res.status,
      headers: Object.fromEntries(res.headers),
      text: await res.clone().text(),
    });
    return res;
  };
  agents[era] = await agent(era, gw);
  if (agents[era].na) throw new Error(`${era}: ${agents[era].na}`);
  for (let k = 0; k < 5; k++) await call(agents[era]);
  globalThis.fetch = realFetch;
}

/** A server that answers as Airlock answered `era`'s agent, with the request's own id. */
async function replay(era) {
  const table = recorded[era];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const body = text ? JSON.parse(text) : undefined;
      const rec = table.get(`${req.method} ${body?.method ?? ''}`);
      if (!rec) return res.writeHead(405).end();
      let out = rec.text;
      if (body?.id !== undefined)
        out = out.startsWith('{')
          ? JSON.stringify({ ...JSON.parse(out), id: body.id })
          : out.replace(/"id":("[^"]*"|-?\d+)/, `"id":${JSON.stringify(body.id)}`);
      const headers = { ...rec.headers };
      for (const h of ['content-length', 'transfer-encoding', 'date', 'connection', 'keep-alive'])
        delete headers[h];
      res.writeHead(rec.status, headers).end(out);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
const servers = [];
const legs = [];
for (const era of ERAS) {
  const server = await replay(era);
  servers.push(server);
  const c = await agent(era, { ...gw, url: `http://127.0.0.1:${server.address().port}/mcp` });
  if (c.na) throw new Error(`${era} floor: ${c.na}`);
  legs.push({ era, to: 'airlock', c: agents[era] }, { era, to: 'floor', c });
}
for (const leg of legs) Object.assign(leg, { t: [], cpu: 0, own: 0, calls: 0 });

for (const leg of legs) for (let k = 0; k < 200; k++) await call(leg.c);
const blocks = [];
for (let r = 0; r < N / BLOCK; r++)
  for (const leg of r % 2 ? [...legs].reverse() : legs) {
    const gw0 = treeUsage(gw.pid).cpuMs;
    const own0 = process.cpuUsage();
    const h0 = process.hrtime.bigint();
    for (let k = 0; k < BLOCK; k++) {
      const t0 = performance.now();
      await call(leg.c);
      leg.t.push(performance.now() - t0);
    }
    if (leg.to === 'airlock')
      blocks.push({ era: leg.era, from: h0 / 1000n, to: process.hrtime.bigint() / 1000n });
    leg.cpu += treeUsage(gw.pid).cpuMs - gw0;
    const own = process.cpuUsage(own0);
    leg.own += (own.user + own.system) / 1000;
    leg.calls += BLOCK;
  }

const p50 = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const f3 = (x) => x.toFixed(3);
console.log(
  `stdio upstream, ${N} sequential calls per leg in blocks of ${BLOCK}; load average ${(
    await import('node:os')
  )
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log('agent     to        p50 ms  gateway tree CPU ms/call  agent process CPU ms/call');
for (const l of legs)
  console.log(
    `${l.era.padEnd(9)} ${l.to.padEnd(8)} ${f3(p50(l.t)).padStart(7)}  ${(l.to === 'airlock' ? f3(l.cpu / l.calls) : '—').padStart(24)}  ${f3(l.own / l.calls).padStart(25)}${l.to === 'floor' ? ' (with the replay server)' : ''}`,
  );
const leg = (era, to) => legs.find((l) => l.era === era && l.to === to);
const over = (era) => p50(leg(era, 'airlock').t) - p50(leg(era, 'floor').t);
for (const era of ERAS)
  console.log(`${era.padEnd(9)} p50 over its client floor ${f3(over(era))} ms`);
if (ERAS.includes('2025') && ERAS.includes('2026')) {
  const [a, b] = [leg('2025', 'airlock'), leg('2026', 'airlock')];
  const floorGap = p50(leg('2026', 'floor').t) - p50(leg('2025', 'floor').t);
  console.log(
    `2026 ÷ 2025: p50 ${f3(p50(b.t) / p50(a.t))}× (the peer bench's figure); with the 2026 agent's client floor put at the 2025 one's (${f3(floorGap)} ms less) ${f3((p50(b.t) - floorGap) / p50(a.t))}×; gateway tree CPU per call ${f3(b.cpu / b.calls / (a.cpu / a.calls))}×`,
  );
}

for (const c of [...Object.values(agents), ...legs.map((l) => l.c)])
  await c.close().catch(() => {});
for (const s of servers) s.close();
await gw.stop();

if (PROF) {
  const file = readdirSync(PROF).find((f) => f.endsWith('.cpuprofile'));
  if (file) bySlices(JSON.parse(readFileSync(join(PROF, file), 'utf8')));
  else console.log(`  (no profile written in ${PROF})`);
}
process.exit(0);

/** The gateway's self time per call by era (its samples cut at the blocks' bounds), by file. */
function bySlices(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const spans = blocks
    .map((b) => ({ era: b.era, from: Number(b.from), to: Number(b.to) }))
    .sort((x, y) => x.from - y.from);
  const calls = {};
  for (const b of spans) calls[b.era] = (calls[b.era] ?? 0) + BLOCK;
  const per = {};
  const where = ({ url, functionName }) => {
    if (url.includes('/dist/')) return url.replace(/.*\/dist\//, '');
    const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
    if (pkg) return pkg[1];
    return url.startsWith('node:') ? url : functionName;
  };
  let t = profile.startTime;
  let i = 0;
  for (let s = 0; s < profile.samples.length; s++) {
    t += profile.timeDeltas[s];
    const dt = profile.timeDeltas[s + 1] ?? 0;
    while (i < spans.length && spans[i].to < t) i++;
    if (i >= spans.length || spans[i].from > t) continue;
    const frame = byId.get(profile.samples[s]).callFrame;
    if (frame.functionName === '(idle)') continue;
    const m = (per[spans[i].era] ??= new Map());
    for (const k of [where(frame), '(all)']) m.set(k, (m.get(k) ?? 0) + dt);
  }
  const [a, b] = ['2025', '2026'].every((e) => per[e]) ? ['2025', '2026'] : Object.keys(per);
  if (!b) return;
  const keys = new Set([...per[a].keys(), ...per[b].keys()]);
  const rows = [...keys]
    .map((k) => [k, (per[a].get(k) ?? 0) / calls[a], (per[b].get(k) ?? 0) / calls[b]])
    .sort((x, y) => Math.abs(y[2] - y[1]) - Math.abs(x[2] - x[1]));
  console.log(`\nGateway self time, µs per call (profiled, so inflated), ${a} → ${b}, by file:`);
  for (const [k, x, y] of rows.slice(0, 30))
    console.log(
      `${(y - x).toFixed(1).padStart(7)}  ${x.toFixed(1).padStart(7)} → ${y.toFixed(1).padStart(7)}  ${k}`,
    );
}
