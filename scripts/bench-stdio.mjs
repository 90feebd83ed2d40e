#!/usr/bin/env node
// Issue 34, "a hot path that costs what a relay costs", for local (stdio) servers: server-everything
// over stdio driven directly by an SDK client, and the same server as a local server of Airlock
// driven through Airlock by agents. Plain Node ESM over dist/ (npm run build:main first). Prints
// figures; asserts nothing (tests never depend on how fast a machine is).
//
//   node scripts/bench-stdio.mjs            500 sequential calls, 8 clients × 125
//   node scripts/bench-stdio.mjs --long     1,000 sequential, 8 × 250
//   … --http                                server-everything over Streamable HTTP instead
//   … --compare DIR                         a second Airlock from DIR (another checkout, built,
//                                           with this script in DIR/scripts) beside this one,
//                                           block for block: a before/after at the same moment
//                                           of a shared machine
//   … --eras                                a second Airlock of this tree driven by 2026-07-28
//                                           agents beside the one driven by 2025-era session
//                                           agents, block for block: what a session costs
//   … --segments                            also each Airlock's own time per sequential call,
//                                           read inside it (bench-segments.mjs): with --eras,
//                                           the era's cost to Airlock alone, the agents' client
//                                           library's own work not in it
//
// CPU is whole-process, read from /proc/<pid>/stat (user + system, every thread: GC and libuv's
// included): Airlock's process, and the server-everything process each leg talks to. The direct
// client runs in this process beside the agents, so its own CPU is not separable and not shown.
// Sequential calls alternate between the legs in blocks of 10, so a slow moment of the shared
// machine falls on both.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { lineChild, perRequestFetch } from './bench-lib.mjs';
import { recordSegments } from './bench-segments.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const self = fileURLToPath(import.meta.url);
const require = createRequire(join(root, 'package.json'));
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const argv = process.argv.slice(2);
const LONG = argv.includes('--long');
const HTTP = argv.includes('--http');
const COMPARE = argv.includes('--compare') ? argv[argv.indexOf('--compare') + 1] : undefined;
const ERAS = argv.includes('--eras');
const SEGMENTS = argv.includes('--segments');
const SIZES = LONG
  ? { seq: 1000, warm: 200, clients: 8, each: 250 }
  : { seq: 500, warm: 100, clients: 8, each: 125 };

/** Airlock in-process (dist/) with server-everything as a local server; answers "cpu"/"stop". */
async function airlockChild() {
  const dist = (p) => new URL(`../dist/main/${p}`, import.meta.url).href;
  const [{ App }, { Logger }, { MemoryVault }] = await Promise.all([
    import(dist('app/app.js')),
    import(dist('platform/log.js')),
    import(dist('platform/vault/vault.js')),
  ]);
  const segments = argv.includes('--segments') ? recordSegments() : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'airlock-bench-stdio-'));
  const app = new App({
    dataDir,
    port: 0,
    vault: new MemoryVault(),
    skipLock: true,
    sources: [],
    logger: new Logger({ stderr: false }),
  });
  const started = await app.start();
  const { token } = await app.control.addAgent('bench');
  // The upstream the parent chose (`--http`: server-everything over Streamable HTTP). Before
  // wave 3 session 12 this child ignored it and always added the stdio server, so figures
  // recorded as `--http` runs of this script before then were of a stdio upstream.
  const view = await app.control.addRemote(JSON.parse(process.env.AIRLOCK_BENCH_UPSTREAM));
  const say = (o) => process.stdout.write(JSON.stringify(o) + '\n');
  if (view.state !== 'ready') return say({ error: `${view.state}: ${view.detail}` });
  say({ mcpUrl: started.mcpUrl, token, pid: process.pid });
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line === 'segments') say({ segments: segments?.report() ?? {} });
    if (line === 'stop')
      void app.stop().finally(() => {
        rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
  });
}

/** utime + stime of one process, every thread, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // fields 14 and 15, CLK_TCK 100
  } catch {
    return 0;
  }
}

/** The pids under `pid` (its children, theirs, …): the sandbox and server-everything. */
function descendants(pid) {
  const out = [];
  for (const tid of safeList(`/proc/${pid}/task`)) {
    const kids = readSafe(`/proc/${pid}/task/${tid}/children`).trim().split(/\s+/).filter(Boolean);
    for (const k of kids) out.push(Number(k), ...descendants(Number(k)));
  }
  return out;
}
const safeList = (d) => {
  try {
    return readdirSync(d);
  } catch {
    return [];
  }
};
const readSafe = (f) => {
  try {
    return readFileSync(f, 'utf8');
  } catch {
    return '';
  }
};

async function sdk() {
  const m = await import(require.resolve('@modelcontextprotocol/client'));
  const stdio = await import(require.resolve('@modelcontextprotocol/client/stdio'));
  return { ...m, ...stdio };
}

/** An agent: a 2025-era session (`legacy`), or 2026-07-28 per-request (`auto` against Airlock). */
async function agentClient(url, token, mode = 'legacy') {
  const { Client, StreamableHTTPClientTransport } = await sdk();
  const c = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode } });
  // One AbortSignal.any per request on either era (bench-lib.mjs, perRequestFetch).
  await c.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
      fetch: perRequestFetch(),
    }),
  );
  // The comparison is meaningless if a 2026-07-28 agent fell back to a session.
  if (c.getProtocolEra() !== (mode === 'auto' ? 'modern' : 'legacy'))
    throw new Error(`agent (${mode}) got a ${c.getProtocolEra()} connection`);
  return c;
}

async function directClient() {
  const { Client, StdioClientTransport } = await sdk();
  const c = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  const t = new StdioClientTransport({
    command: process.execPath,
    args: [EVERYTHING, 'stdio'],
    stderr: 'ignore',
  });
  await c.connect(t);
  return { c, pid: t.pid };
}

async function calls(c, tool, n, into, from = 0) {
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await c.callTool({ name: tool, arguments: { message: `m${from + i}` } });
    into?.push(performance.now() - t0);
    if (r.isError) throw new Error(`${tool} failed: ${JSON.stringify(r.content)}`);
  }
}

const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const f3 = (x) => x.toFixed(3);

/** The node flags a checkout's launchers start Airlock with (bin/node-flags.js; none where it has none). */
async function flagsOf(script) {
  const module = join(dirname(script), '..', 'bin/node-flags.js');
  return existsSync(module) ? (await import(pathToFileURL(module).href)).nodeFlags() : [];
}

function airlock(script, upstream, flags) {
  // Each leg as that checkout's launchers start Airlock (flagsOf), so an A/B measures what users get.
  // Only this script's own children record segments: another checkout's may not know the option.
  const own = script === self && SEGMENTS;
  const proc = spawn(
    process.execPath,
    [...flags, script, '--airlock-child', ...(own ? ['--segments'] : [])],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, AIRLOCK_BENCH_UPSTREAM: JSON.stringify(upstream) },
    },
  );
  const { ready, ask, exited } = lineChild(proc, `Airlock (${script})`);
  return {
    ready,
    segments: async () => (own ? (await ask('segments')).segments : undefined),
    stop: async () => {
      proc.stdin.write('stop\n');
      await exited;
    },
  };
}

async function main() {
  console.log(
    `${HTTP ? 'HTTP' : 'stdio'} passthrough bench (issue 34) — node ${process.version}, ${new Date().toISOString()}\n`,
  );
  let es;
  if (HTTP) es = await (await import('./bench-lib.mjs')).startEverything();
  const upstream = HTTP
    ? { name: 'everything', url: es.url }
    : {
        name: 'everything',
        stdio: {
          command: process.execPath,
          args: [EVERYTHING, 'stdio'],
          sandbox: { allowUnsandboxed: true },
        },
      };
  const ownFlags = await flagsOf(self);
  const children = { airlock: airlock(self, upstream, ownFlags) };
  if (COMPARE) {
    const script = join(COMPARE, 'scripts/bench-stdio.mjs');
    children.compared = airlock(script, upstream, await flagsOf(script));
  }
  if (ERAS) children.modern = airlock(self, upstream, ownFlags);
  const info = {};
  for (const [k, c] of Object.entries(children)) info[k] = await c.ready;
  const direct = HTTP ? await httpClient(es.url) : await directClient();
  const legs = [
    {
      name: 'direct',
      c: direct.c,
      tool: 'echo',
      t: [],
      pids: () => (direct.pid ? [direct.pid] : []),
    },
  ];
  const names = {
    airlock: ERAS ? 'Airlock, 2025 session agents' : 'Airlock (this tree)',
    compared: `Airlock (${COMPARE})`,
    modern: 'Airlock, 2026-07-28 agents',
  };
  for (const [k, i] of Object.entries(info))
    legs.push({
      name: names[k],
      mode: k === 'modern' ? 'auto' : 'legacy',
      c: await agentClient(i.mcpUrl, i.token, k === 'modern' ? 'auto' : 'legacy'),
      tool: 'everything__echo',
      t: [],
      cpu: 0,
      server: 0,
      pid: i.pid,
      url: i.mcpUrl,
      token: i.token,
      key: k,
      child: children[k],
    });
  try {
    for (const l of legs) await calls(l.c, l.tool, SIZES.warm);
    // 1. Sequential calls, the legs alternating in blocks of 10.
    for (let done = 0; done < SIZES.seq; done += 10)
      for (const l of legs) {
        if (!l.pid) {
          await calls(l.c, l.tool, 10, l.t, done);
          continue;
        }
        const kids = HTTP ? [] : descendants(l.pid);
        const a0 = cpuMs(l.pid);
        const s0 = kids.reduce((s, p) => s + cpuMs(p), 0);
        await calls(l.c, l.tool, 10, l.t, done);
        l.cpu += cpuMs(l.pid) - a0;
        l.server += kids.reduce((s, p) => s + cpuMs(p), 0) - s0;
      }
    const n = SIZES.seq;
    const d50 = pct(legs[0].t, 50);
    console.log(
      `1. ${n} sequential echo calls, p50 / p99; added p50 over direct; whole-process CPU per call`,
    );
    for (const l of legs)
      console.log(
        `   ${l.name.padEnd(36)} ${f3(pct(l.t, 50))} / ${f3(pct(l.t, 99))} ms` +
          (l.pid
            ? `   +${f3(pct(l.t, 50) - d50)} ms   Airlock ${f3(l.cpu / n)} ms` +
              (HTTP ? '' : `, its server ${f3(l.server / n)} ms`)
            : ''),
      );
    if (SEGMENTS) await printServed(legs);

    // 2. Throughput: 8 agents per Airlock; the direct client with 8 calls in flight at once.
    const { clients: k, each } = SIZES;
    for (const l of legs)
      l.many = l.pid
        ? await Promise.all(Array.from({ length: k }, () => agentClient(l.url, l.token, l.mode)))
        : Array(k).fill(l.c);
    const rates = legs.map(() => []);
    for (let round = 0; round < 2; round++)
      for (const [j, l] of legs.entries()) {
        const c0 = l.pid ? cpuMs(l.pid) : 0;
        const kids = l.pid && !HTTP ? descendants(l.pid) : [];
        const s0 = kids.reduce((s, p) => s + cpuMs(p), 0);
        const t0 = performance.now();
        await Promise.all(l.many.map((c, i) => calls(c, l.tool, each, undefined, i * each)));
        rates[j].push({
          rate: (k * each) / ((performance.now() - t0) / 1000),
          cpu: l.pid ? (cpuMs(l.pid) - c0) / (k * each) : 0,
          server: (kids.reduce((s, p) => s + cpuMs(p), 0) - s0) / (k * each),
        });
      }
    console.log(`\n2. ${k} clients × ${each} echo calls (mean of 2 rounds)`);
    const mean = (xs, f) => xs.reduce((s, x) => s + f(x), 0) / xs.length;
    const directRate = mean(rates[0], (x) => x.rate);
    for (const [j, l] of legs.entries()) {
      const r = mean(rates[j], (x) => x.rate);
      console.log(
        `   ${l.name.padEnd(36)} ${r.toFixed(0).padStart(5)} calls/s (${(r / directRate).toFixed(2)}× direct)` +
          (l.pid
            ? `   Airlock CPU ${f3(mean(rates[j], (x) => x.cpu))} ms/call` +
              (HTTP ? '' : `, its server ${f3(mean(rates[j], (x) => x.server))} ms`)
            : ''),
      );
    }
    for (const l of legs) if (l.pid) await Promise.all(l.many.map((c) => c.close()));
  } finally {
    for (const l of legs) await l.c.close().catch(() => {});
    for (const c of Object.values(children)) await c.stop();
    es?.stop();
  }
}

/**
 * Each Airlock's own time per sequential call, read inside it (bench-segments.mjs): its request
 * parsed → its answer written, and its CPU over that span (warm-up calls included, medians).
 * With --eras, the 2026-07-28 Airlock's ÷ the session one's: the era's cost to Airlock alone.
 */
async function printServed(legs) {
  console.log(
    "   Airlock's own time per call (--segments: request parsed → answer written, medians)",
  );
  const served = [];
  for (const l of legs.filter((x) => x.child)) {
    const s = (await l.child.segments())?.[new URL(l.url).port];
    if (!s?.n) continue;
    served.push({ l, s });
    console.log(
      `   ${l.name.padEnd(36)} ${f3(s.served)} ms, CPU ${f3(s.cpuServed)} ms   (${s.n} calls)`,
    );
  }
  const [a, b] = ['airlock', 'modern'].map((k) => served.find((x) => x.l.key === k)?.s);
  if (a && b)
    console.log(
      `   2026-07-28 ÷ session: ${(b.served / a.served).toFixed(2)}× time, ${(b.cpuServed / a.cpuServed).toFixed(2)}× CPU`,
    );
}

async function httpClient(url) {
  const { Client, StreamableHTTPClientTransport } = await sdk();
  const c = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { c, pid: undefined };
}

if (argv[0] === '--airlock-child') await airlockChild();
else await main();
