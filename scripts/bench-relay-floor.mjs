#!/usr/bin/env node
// Issue 34: how much of Airlock's distance to the JSON relay is Airlock's own path, and how much is
// the process the path runs in? The relay (bench-relay.mjs) is run three ways beside Airlock, one
// upstream (server-everything over Streamable HTTP), one run, round-robin in blocks of 10:
//
//   relay                 its own process, plain `node` (the peer bench's yardstick)
//   relay, Airlock's V8   its own process, with the flags Airlock's launchers give Node
//                         (bin/node-flags.js) and the young-generation cap and old-generation
//                         hold that `airlock serve` sets at start (main/platform/young-generation.ts)
//   relay in Airlock      the same relay code on its own port inside a running Airlock (the core,
//                         its remote connected, SQLite, the launchers' flags, the cap) that is
//                         itself serving the Airlock leg below between the relay's blocks
//   Airlock               that same process's /mcp, `everything__echo` passed through
//   relay in Airlock, no V8 settings  and a second Airlock like it, without the cap and the flag,
//   Airlock without its V8 settings   with its own relay beside it
//
// Each figure is printed with its ratio to the plain relay. Plain Node ESM over dist/ (npm run
// build:main first). Prints figures; asserts nothing (tests never depend on how fast a machine is).
//
//   node scripts/bench-relay-floor.mjs          400 sequential calls per leg, 2 rounds of 8 × 100
//   node scripts/bench-relay-floor.mjs --long   1,000 sequential, 2 rounds of 8 × 250
//   AIRLOCK_BENCH_ALLOC_PROFILE=DIR …           every child writes DIR/alloc-PID.heapprofile: where
//                                               it allocated over the run (V8's sampling heap
//                                               profiler, objects the GC collected included)
//   AIRLOCK_BENCH_CHILD_FLAGS='--cpu-prof …' …  extra Node flags for the Airlock children
//   AIRLOCK_BENCH_CHILD_LOG=PREFIX …            a child's stdout lines that are not the bench's own
//                                               JSON (--trace-gc's) go to PREFIX-ROLE-PID.log
//   node scripts/bench-relay-floor.mjs --variant ofs,cap   legs under other V8 settings (VARIANTS)
//   node scripts/bench-relay-floor.mjs --segments   also where each Airlock process's added latency
//                                               sits on a sequential call's path, its relay's
//                                               beside its own (bench-segments.mjs), and for
//                                               each leg's answers: how long `res.end()` took and
//                                               when the agent (this process) had the answer's
//                                               head, on the machine's monotonic clock
//   node scripts/bench-relay-floor.mjs --fast-lane  two more legs in the capped Airlock: relay-shaped
//                                               lanes on Airlock's own call pipeline, with its SDK
//                                               upstream and with a bare upstream POST
//                                               (bench-fast-lane.mjs says what each keeps)
import { spawn } from 'node:child_process';
import { createWriteStream, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nodeFlags } from '../bin/node-flags.js';
import { answerLines, lineChild, startBenchApp, startEverything } from './bench-lib.mjs';
import { recordSegments } from './bench-segments.mjs';
import dc from 'node:diagnostics_channel';
import { agent } from './bench-peer-gateways.mjs';
import { startRelay } from './bench-relay.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const self = fileURLToPath(import.meta.url);
const argv = process.argv.slice(2);
const LONG = argv.includes('--long');
const SEGMENTS = argv.includes('--segments');
const FAST_LANE = argv.includes('--fast-lane');
const SEQ = LONG ? 1000 : 400;
const PER_CLIENT = LONG ? 250 : 100;
const CLIENTS = 8;
const ROUNDS = 2;
const BLOCK = 10;

const say = (o) => process.stdout.write(JSON.stringify(o) + '\n');

/** What `airlock serve` sets before it starts (main/cli/serve.ts). */
async function airlockV8(options) {
  const { YoungGenerationCap } = await import(
    pathToFileURL(join(root, 'dist/main/platform/young-generation.js')).href
  );
  new YoungGenerationCap(options).start();
}

/**
 * --variant NAME[,NAME…]: more legs, each variant's relay in its own process and an Airlock (with
 * its relay) under other V8 settings than Airlock's: `yg` the YoungGenerationCap options (false:
 * none), `flags` extra Node start-up flags, `set` V8 flags set at start (v8.setFlagsFromString),
 * `observer` a PerformanceObserver on 'gc' entries that does nothing (the cap's own, alone).
 * Run with AIRLOCK_BENCH_CHILD_LOG and AIRLOCK_BENCH_CHILD_FLAGS=--trace-gc to count each process's GCs.
 */
const VARIANTS = {
  // The setting until wave 3 session 13: --optimize-for-size for the whole run.
  ofs: { yg: { oldGeneration: 'optimize-for-size' } },
  cap: { yg: { oldGeneration: 'none' } },
  observer: { yg: false, observer: true },
  // The cap as a start-up flag (2 × 4 MiB semi-spaces) in place of the growth factor.
  semi4: { yg: { capMiB: 4096 }, flags: ['--max-semi-space-size=4'] },
  // Read once, when the heap is set up: set at run time it changes nothing (V8's Heap::SetUp).
  noreducer: { yg: undefined, set: '--no-memory-reducer' },
  // TurboFan's compiles on the main thread, not a V8 worker's (its zones then come from the main
  // malloc arena, not the worker's kept one): measured for RSS, wave 3 session 30, not kept.
  ncr: { yg: undefined, flags: ['--no-concurrent-recompilation'] },
};
const variantArg = argv.indexOf('--variant');
const VARIANT_NAMES = variantArg >= 0 ? argv[variantArg + 1].split(',') : [];

async function variantV8(name) {
  const v = VARIANTS[name];
  if (v.yg !== false) await airlockV8(v.yg);
  if (v.set) (await import('node:v8')).default.setFlagsFromString(v.set);
  if (v.observer) {
    const { PerformanceObserver } = await import('node:perf_hooks');
    new PerformanceObserver(() => {}).observe({ entryTypes: ['gc'] });
  }
}

/**
 * A child's answer to "cpu" on stdin: its own process.cpuUsage() (every thread); and to
 * "segments", what `segments()` gives (an Airlock child run with --segments).
 */
async function answerCpu(cleanup = async () => {}, segments = () => ({})) {
  // AIRLOCK_BENCH_ALLOC_PROFILE=DIR: V8's sampling heap profiler over the whole run, objects the GC
  // collected included — where the process allocates, not what it holds (written at SIGTERM).
  const dir = process.env.AIRLOCK_BENCH_ALLOC_PROFILE;
  let session;
  if (dir) {
    const { Session } = await import('node:inspector/promises');
    session = new Session();
    session.connect();
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 16384,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  process.once('SIGTERM', async () => {
    if (session) {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      const { writeFileSync } = await import('node:fs');
      writeFileSync(join(dir, `alloc-${process.pid}.heapprofile`), JSON.stringify(profile));
    }
    await cleanup().catch(() => {});
    process.exit(0);
  });
  answerLines({
    segments: () => ({ segments: segments() }),
    // The child's peak RSS so far (MiB): what its V8 settings hold under the run's load.
    mem: () => ({ maxRssMiB: process.resourceUsage().maxRSS / 1024 }),
  });
}

async function relayChild(target, v8) {
  if (typeof v8 === 'string') await variantV8(v8);
  else if (v8) await airlockV8();
  const relay = await startRelay(target);
  say({ relay: { url: relay.url, token: relay.token } });
  await answerCpu();
}

async function inAirlockChild(target, v8) {
  if (typeof v8 === 'string') await variantV8(v8);
  else if (v8) await airlockV8();
  const segments = argv.includes('--segments') ? recordSegments() : undefined;
  const { app, token, mcpUrl, dataDir } = await startBenchApp([], 'airlock-relay-floor-');
  const view = await app.control.addRemote({ name: 'everything', url: target });
  if (view.state !== 'ready') return say({ error: `remote: ${view.detail}` });
  const relay = await startRelay(target);
  // --fast-lane: two relay-shaped lanes on Airlock's own services (bench-fast-lane.mjs).
  const lanes = FAST_LANE
    ? await (await import('./bench-fast-lane.mjs')).startFastLanes(app, target, token)
    : undefined;
  say({
    relay: { url: relay.url, token: relay.token },
    airlock: { url: mcpUrl, token },
    ...(lanes ? { lane: lanes.lane, raw: lanes.raw } : {}),
  });
  await answerCpu(
    async () => {
      relay.server.closeAllConnections();
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    () => segments?.report() ?? {},
  );
}

// ------------------------------------------------------------------ the benchmark
function child(args, flags) {
  // AIRLOCK_BENCH_CHILD_FLAGS: extra Node flags for the Airlock children (--heap-prof, --cpu-prof…).
  const extra =
    args[0].includes('-airlock') && process.env.AIRLOCK_BENCH_CHILD_FLAGS
      ? process.env.AIRLOCK_BENCH_CHILD_FLAGS.split(' ')
      : [];
  const proc = spawn(process.execPath, [...flags, ...extra, self, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  // A child's own lines that are no answer (V8's --trace-gc prints to stdout) go to
  // AIRLOCK_BENCH_CHILD_LOG-<role>-<pid>.log when that is set, so the line protocol reads only JSON.
  let out = proc;
  if (process.env.AIRLOCK_BENCH_CHILD_LOG) {
    const log = createWriteStream(
      `${process.env.AIRLOCK_BENCH_CHILD_LOG}-${args[0].replace(/^--/, '')}-${args[2] ?? ''}${proc.pid}.log`,
    );
    const json = new PassThrough();
    createInterface({ input: proc.stdout }).on('line', (l) =>
      (l.startsWith('{') ? json : log).write(l + '\n'),
    );
    out = { stdout: json, stdin: proc.stdin, once: (e, f) => proc.once(e, f) };
  }
  const { ready, ask, exited } = lineChild(out, args[0]);
  return {
    ready,
    cpuMs: async () => (await ask('cpu')).cpuUs / 1000,
    segments: async () => (await ask('segments')).segments,
    maxRssMiB: async () => (await ask('mem')).maxRssMiB,
    stop: async () => {
      // A clean exit (answerCpu's SIGTERM handler), so a profiler's file gets written.
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** The v2 client on a 2025 session, as bench-passthrough.mjs's agents (bench-peer-gateways.mjs). */
async function v2Agent(url, token) {
  const c = await agent('v2-2025', { url, token });
  if (c.na) throw new Error(`${url}: ${c.na}`);
  return c;
}

async function call(c, tool, i) {
  const r = await c.callTool({ name: tool, arguments: { message: `m${i}` } });
  if (r.isError) throw new Error(`${tool} failed: ${JSON.stringify(r.content)}`);
}

const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function main() {
  const flags = nodeFlags();
  console.log(
    `Relay floor bench (issue 34) — node ${process.version}, ${new Date().toISOString()}, ` +
      `${LONG ? 'long' : 'short'} run; Airlock's launcher flags: ${flags.join(' ') || '(none)'}\n`,
  );
  const es = await startEverything();
  const kids = {
    relay: child(['--relay', es.url], []),
    relayV8: child(['--relay-v8', es.url], flags),
    inAirlock: child(
      [
        '--in-airlock',
        es.url,
        ...(SEGMENTS ? ['--segments'] : []),
        ...(FAST_LANE ? ['--fast-lane'] : []),
      ],
      flags,
    ),
    uncapped: child(['--in-airlock-uncapped', es.url, ...(SEGMENTS ? ['--segments'] : [])], flags),
  };
  for (const name of VARIANT_NAMES) {
    const vf = [...flags, ...(VARIANTS[name].flags ?? [])];
    kids[`relay-${name}`] = child(['--relay-variant', es.url, name], vf);
    kids[`airlock-${name}`] = child(['--variant-airlock', es.url, name], vf);
  }
  try {
    // All at once: a child that fails to start ends the run (and `finally` stops the others).
    const ready = await Promise.all(Object.values(kids).map((k) => k.ready));
    const info = Object.fromEntries(Object.keys(kids).map((k, i) => [k, ready[i]]));
    const legs = [
      { name: 'direct (no gateway)', url: es.url, tool: 'echo' },
      { name: 'relay', kid: kids.relay, ...info.relay.relay, tool: 'echo' },
      {
        name: "relay, Airlock's V8 settings",
        kid: kids.relayV8,
        ...info.relayV8.relay,
        tool: 'echo',
      },
      { name: 'relay in Airlock', kid: kids.inAirlock, ...info.inAirlock.relay, tool: 'echo' },
      {
        name: 'Airlock (same process)',
        kid: kids.inAirlock,
        ...info.inAirlock.airlock,
        tool: 'everything__echo',
      },
      {
        name: 'relay in Airlock, no V8 settings',
        kid: kids.uncapped,
        ...info.uncapped.relay,
        tool: 'echo',
      },
      {
        name: 'Airlock without its V8 settings',
        kid: kids.uncapped,
        ...info.uncapped.airlock,
        tool: 'everything__echo',
      },
    ];
    if (FAST_LANE) {
      const { lane, raw } = info.inAirlock;
      legs.push(
        {
          name: 'lane: Airlock /mcp, raw upstream',
          kid: kids.inAirlock,
          ...info.inAirlock.airlock,
          tool: 'raw__echo',
        },
        { name: 'lane: pipeline, SDK upstream', kid: kids.inAirlock, ...lane, tool: 'echo' },
        { name: 'lane: pipeline, raw upstream', kid: kids.inAirlock, ...raw, tool: 'echo' },
      );
    }
    for (const name of VARIANT_NAMES) {
      const [r, a] = [info[`relay-${name}`].relay, info[`airlock-${name}`]];
      const [rk, ak] = [kids[`relay-${name}`], kids[`airlock-${name}`]];
      legs.push(
        { name: `relay, ${name}`, kid: rk, ...r, tool: 'echo' },
        { name: `relay in Airlock, ${name}`, kid: ak, ...a.relay, tool: 'echo' },
        { name: `Airlock, ${name}`, kid: ak, ...a.airlock, tool: 'everything__echo' },
      );
    }
    for (const leg of legs) {
      leg.c = await v2Agent(leg.url, leg.token);
      leg.seq = [];
      leg.seqCpu = 0;
      leg.fleet = [];
      leg.fleetCpu = 0;
      for (let i = 0; i < 20; i++) await call(leg.c, leg.tool, i); // warm-up
    }

    // Sequential, round-robin in blocks; the first place rotates so no leg always follows another.
    for (let b = 0; b < SEQ / BLOCK; b++) {
      for (let k = 0; k < legs.length; k++) {
        const leg = legs[(b + k) % legs.length];
        const before = await leg.kid?.cpuMs();
        for (let i = 0; i < BLOCK; i++) {
          const t0 = performance.now();
          await call(leg.c, leg.tool, i);
          leg.seq.push(performance.now() - t0);
        }
        if (leg.kid) leg.seqCpu += (await leg.kid.cpuMs()) - before;
      }
    }
    // Read before the fleets run: the sequential calls' paths (their warm-up calls too), one POST open.
    const segments = SEGMENTS
      ? { inAirlock: await kids.inAirlock.segments(), uncapped: await kids.uncapped.segments() }
      : undefined;
    // 8 clients per leg, each leg's fleet in turn, the order reversed every other round.
    for (const leg of legs) {
      leg.clients = [];
      for (let i = 0; i < CLIENTS; i++) leg.clients.push(await v2Agent(leg.url, leg.token));
    }
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? legs : [...legs].reverse();
      for (const leg of order) {
        const before = await leg.kid?.cpuMs();
        const t0 = performance.now();
        await Promise.all(
          leg.clients.map(async (c) => {
            for (let i = 0; i < PER_CLIENT; i++) await call(c, leg.tool, i);
          }),
        );
        leg.fleet.push((CLIENTS * PER_CLIENT * 1000) / (performance.now() - t0));
        if (leg.kid) leg.fleetCpu += (await leg.kid.cpuMs()) - before;
      }
    }
    // What the Airlock process spends with nothing to do (its timers), over 3 s.
    const idle0 = await kids.inAirlock.cpuMs();
    await new Promise((r) => setTimeout(r, 3000));
    const idleMsPerS = ((await kids.inAirlock.cpuMs()) - idle0) / 3;

    const direct = pct(legs[0].seq, 50);
    const fig = (leg) => ({
      added: pct(leg.seq, 50) - direct,
      p99: pct(leg.seq, 99),
      seqCpu: leg.seqCpu / leg.seq.length,
      rate: leg.fleet.reduce((a, b) => a + b, 0) / leg.fleet.length,
      fleetCpu: leg.fleetCpu / (ROUNDS * CLIENTS * PER_CLIENT),
    });
    const base = fig(legs[1]);
    const x = (v, b) => `(${(v / b).toFixed(2)}×)`;
    console.log(
      `${SEQ} sequential calls per leg, ${ROUNDS} rounds of ${CLIENTS} clients × ${PER_CLIENT}; ` +
        `(×) = ÷ the relay in its own plain process\n`,
    );
    console.log(
      '  leg                                  added p50 ms        p99 ms   CPU ms/call seq    calls/s 8 cl  CPU ms/call 8 cl',
    );
    console.log(`  ${legs[0].name.padEnd(34)} ${`abs ${direct.toFixed(3)}`.padStart(16)}`);
    for (const leg of legs.slice(1)) {
      const f = fig(leg);
      console.log(
        `  ${leg.name.padEnd(34)} ${`${f.added.toFixed(3)} ${x(f.added, base.added)}`.padStart(16)}` +
          `${f.p99.toFixed(2).padStart(14)}` +
          `${`${f.seqCpu.toFixed(3)} ${x(f.seqCpu, base.seqCpu)}`.padStart(18)}` +
          `${`${f.rate.toFixed(0)} ${x(f.rate, base.rate)}`.padStart(16)}` +
          `${`${f.fleetCpu.toFixed(3)} ${x(f.fleetCpu, base.fleetCpu)}`.padStart(18)}`,
      );
    }
    const rss = [];
    for (const [name, k] of Object.entries(kids))
      rss.push(`${name} ${(await k.maxRssMiB()).toFixed(0)}`);
    console.log(`\n  peak RSS MiB: ${rss.join(', ')}`);
    const inA = fig(legs[3]);
    const air = fig(legs[4]);
    console.log(
      `\n  the Airlock process idle: ${idleMsPerS.toFixed(2)} ms CPU per second (in its relay's figures)`,
    );
    console.log(
      `  Airlock ÷ the relay inside it: added p50 ${(air.added / inA.added).toFixed(2)}×, ` +
        `CPU/call seq ${(air.seqCpu / inA.seqCpu).toFixed(2)}×, calls/s 8 cl ${(air.rate / inA.rate).toFixed(2)}×, ` +
        `CPU/call 8 cl ${(air.fleetCpu / inA.fleetCpu).toFixed(2)}×`,
    );
    if (FAST_LANE) {
      for (const leg of legs.filter((l) => l.name.startsWith('lane: '))) {
        const f = fig(leg);
        console.log(
          `  ${leg.name} ÷ the relay inside Airlock: added p50 ${(f.added / inA.added).toFixed(2)}×, ` +
            `CPU/call seq ${(f.seqCpu / inA.seqCpu).toFixed(2)}×, calls/s 8 cl ${(f.rate / inA.rate).toFixed(2)}×, ` +
            `CPU/call 8 cl ${(f.fleetCpu / inA.fleetCpu).toFixed(2)}×`,
        );
      }
    }
    if (segments) printSegments(legs, segments);
    for (const leg of legs) for (const c of [leg.c, ...leg.clients]) await c.close();
  } finally {
    await Promise.all(Object.values(kids).map((k) => k.stop()));
    es.stop();
  }
}

/**
 * When each answer's headers reached the agents of this process (undici's own diagnostics
 * channel, published as the response head is parsed), per server port, on the machine's
 * monotonic clock: placed in the gateway's `res.end()` windows (bench-segments.mjs endWindows).
 */
const receipts = new Map();
if (SEGMENTS)
  dc.subscribe('undici:request:headers', ({ request }) => {
    const port = new URL(request.origin).port;
    let list = receipts.get(port);
    if (!list) receipts.set(port, (list = []));
    list.push(Number(process.hrtime.bigint() / 1000n));
  });

/** For each `res.end()` window [in, out] (µs), the first receipt at or after `in` on that port. */
function placeReceipts(windows, port) {
  const got = receipts.get(port) ?? [];
  const rows = [];
  let j = 0;
  for (const [a, b] of windows) {
    while (j < got.length && got[j] < a) j++;
    if (j === got.length) break;
    rows.push({ inEnd: b - a, toReceipt: got[j] - a, before: got[j] <= b });
  }
  const med = (xs) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)] ?? NaN;
  return {
    n: rows.length,
    inEnd: med(rows.map((r) => r.inEnd)) / 1000,
    toReceipt: med(rows.map((r) => r.toReceipt)) / 1000,
    // Where the end took long (over 0.2 ms): did the agent have its answer before it returned?
    longEnds: rows.filter((r) => r.inEnd > 200).length,
    longEndsReceivedInside: rows.filter((r) => r.inEnd > 200 && r.before).length,
    toReceiptLong: med(rows.filter((r) => r.inEnd > 200).map((r) => r.toReceipt)) / 1000,
    inEndLong: med(rows.filter((r) => r.inEnd > 200).map((r) => r.inEnd)) / 1000,
  };
}

/** Where the added latency sits (bench-segments.mjs): each Airlock process's relay and its own leg. */
function printSegments(legs, segments) {
  const cols = [
    ['toUpstream', 'to upstream'],
    ['toAnswer', 'to answer'],
    ['inProcess', 'in process'],
    ['cpuOnPath', 'CPU on path'],
    ['upstream', 'upstream'],
    ['madeToWritten', 'made→written'],
    ['toFirstData', 'up→1st data'],
    ['firstDataToEnd', '1st data→end'],
  ];
  console.log(
    '\n  Where the added latency sits (--segments; medians over the sequential calls, ms; ' +
      'bench-segments.mjs says what each column spans)',
  );
  console.log(`  ${'leg'.padEnd(34)}${cols.map(([, h]) => h.padStart(13)).join('')}      n`);
  // A lane on Airlock's own port (its /mcp in front of the bare upstream) shares that port's
  // recorder with Airlock's leg: its segments cannot be told apart, so only the lanes' own ports.
  const lanes = legs.filter((l) => l.name.startsWith('lane: ') && l.url !== legs[4].url);
  for (const [kid, relayLeg, airlockLeg] of [
    ['inAirlock', legs[3], legs[4]],
    ['uncapped', legs[5], legs[6]],
    ...lanes.map((lane) => ['inAirlock', legs[3], lane]),
  ]) {
    const of = (leg) => {
      const s = segments[kid][new URL(leg.url).port];
      return s?.nHttp ? { ...s, n: s.nHttp } : undefined;
    };
    const [r, a] = [of(relayLeg), of(airlockLeg)];
    for (const [leg, s] of [
      [relayLeg, r],
      [airlockLeg, a],
    ])
      console.log(
        `  ${leg.name.padEnd(34)}` +
          (s
            ? `${cols.map(([k]) => s[k].toFixed(3).padStart(13)).join('')}${String(s.n).padStart(7)}`
            : '  (no sequential call recorded)'),
      );
    for (const leg of [relayLeg, airlockLeg]) {
      const port = new URL(leg.url).port;
      const w = segments[kid][port]?.endWindows;
      if (!w) continue;
      const p = placeReceipts(w, port);
      console.log(
        `    ${leg.name}: res.end() median ${p.inEnd.toFixed(3)} ms, its start → the agent has the ` +
          `head ${p.toReceipt.toFixed(3)} ms (n ${p.n}); ends over 0.2 ms: ${p.longEnds}, ` +
          `received before end() returned ${p.longEndsReceivedInside}, median end ${p.inEndLong.toFixed(3)} / receipt ${p.toReceiptLong.toFixed(3)} ms`,
      );
    }
    if (r && a)
      console.log(
        `  ${'  Airlock ÷ its relay'.padEnd(34)}${cols
          .map(([k]) => `${(a[k] / r[k]).toFixed(2)}×`.padStart(13))
          .join('')}`,
      );
  }
}

const role = argv[0];
if (role === '--relay') await relayChild(argv[1], false);
else if (role === '--relay-v8') await relayChild(argv[1], true);
else if (role === '--in-airlock') await inAirlockChild(argv[1], true);
else if (role === '--in-airlock-uncapped') await inAirlockChild(argv[1], false);
else if (role === '--relay-variant') await relayChild(argv[1], argv[2]);
else if (role === '--variant-airlock') await inAirlockChild(argv[1], argv[2]);
else await main();
