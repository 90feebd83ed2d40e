#!/usr/bin/env node
// Issue 34, wave 3 session 19: allocation per 2025 call by site. Throwaway measurement, kept for
// the next session. This process is Airlock (the in-process App, with `airlock serve`'s young-
// generation cap and the launchers' flags: run it as `node $(node bin/node-flags.js) …`) and a
// remote HTTP server-everything; the agent (the stock SDK 1.x Client, a 2025 session) runs in a
// child process, so nothing it allocates counts here. N echo calls (default 2,000) run after a
// warm-up, under V8's sampling heap profiler with collected objects kept; every sample's bytes go
// to the innermost frame on its stack that is Airlock's (dist/main/…) or the MCP SDK's server or
// core package, else to "(no Airlock/SDK frame)". Scavenges and mark-compacts are counted over the
// same calls (PerformanceObserver 'gc').
//
// `--era 2026` (wave 3 session 32): the agent is the v2 client on a 2026-07-28 connection instead.
//
//   node $(node bin/node-flags.js) scripts/experiments/alloc-2025-call.mjs [N] [--era 2025|2026] [--top 30] [--json FILE] [--gc-only]
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';

const root = fileURLToPath(new URL('../..', import.meta.url));
const self = fileURLToPath(import.meta.url);
const argv = process.argv.slice(2);

if (argv[0] === '--agent') {
  // The agent: connects, warms up, then on "go" runs N sequential calls and says "done".
  // The peer bench's agents: SDK 1.x on a 2025 session, or the v2 client on 2026-07-28.
  const { agent } = await import(pathToFileURL(join(root, 'scripts/bench-peer-gateways.mjs')).href);
  const [url, token, n, era] = [argv[1], argv[2], Number(argv[3]), argv[4] ?? '2025'];
  const c = await agent(era, { url, token });
  if (c.na) throw new Error(c.na);
  const call = async (i) => {
    const r = await c.callTool({ name: 'everything__echo', arguments: { message: `m${i}` } });
    if (r.isError) throw new Error(JSON.stringify(r.content));
  };
  for (let i = 0; i < 300; i++) await call(i);
  process.stdout.write('warm\n');
  process.stdin.once('data', async () => {
    for (let i = 0; i < n; i++) await call(i);
    process.stdout.write('done\n');
    await c.close();
    process.exit(0);
  });
} else {
  console.error('airlock pid', process.pid);
  const N = Number(argv.find((a) => /^\d+$/.test(a)) ?? 2000);
  const topArg = argv.indexOf('--top');
  const TOP = topArg >= 0 ? Number(argv[topArg + 1]) : 30;
  const jsonArg = argv.indexOf('--json');
  const eraArg = argv.indexOf('--era');
  const ERA = eraArg >= 0 ? argv[eraArg + 1] : '2025';
  if (ERA !== '2025' && ERA !== '2026') throw new Error('--era 2025 or 2026');
  const { YoungGenerationCap } = await import(
    pathToFileURL(join(root, 'dist/main/platform/young-generation.js')).href
  );
  new YoungGenerationCap().start();
  const { startBenchApp, startEverything } = await import(
    pathToFileURL(join(root, 'scripts/bench-lib.mjs')).href
  );
  const es = await startEverything();
  const { app, token, mcpUrl, dataDir } = await startBenchApp([], 'airlock-alloc-');
  const view = await app.control.addRemote({ name: 'everything', url: es.url });
  if (view.state !== 'ready') throw new Error(`remote: ${view.detail}`);
  const child = spawn(
    process.execPath,
    ['--no-warnings', self, '--agent', mcpUrl, token, String(N), ERA],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const line = (want) =>
    new Promise((resolve, reject) => {
      let buf = '';
      const on = (d) => {
        buf += d;
        if (buf.includes(want)) {
          child.stdout.off('data', on);
          resolve();
        }
      };
      child.stdout.on('data', on);
      child.once('exit', (code) => reject(new Error(`agent exited ${code}`)));
    });
  await line('warm');
  const gcs = { minor: 0, major: 0, minorMs: 0 };
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) {
        gcs.minor++;
        gcs.minorMs += e.duration;
      } else gcs.major++;
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  // --gc-only: no profiler (its own allocation and any objects it keeps move the GC counts).
  const GC_ONLY = argv.includes('--gc-only');
  const session = new Session();
  session.connect();
  if (!GC_ONLY)
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const done = line('done');
  child.stdin.write('go\n');
  await done;
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const { profile } = GC_ONLY
    ? { profile: { head: { callFrame: { url: '' }, selfSize: 0, children: [] } } }
    : await session.post('HeapProfiler.stopSampling');
  await new Promise((r) => setTimeout(r, 50)); // the observer's last entries
  obs.disconnect();

  // Innermost Airlock/SDK frame for every node.
  const dist = pathToFileURL(join(root, 'dist/main/')).href;
  const site = (cf) => {
    const u = cf.url;
    if (u.startsWith(dist)) return `${u.slice(dist.length)} ${cf.functionName || '(anon)'}`;
    const m = /@modelcontextprotocol\/(server|core|client|node)\/dist\/(.*)$/.exec(u);
    if (m)
      return `sdk-${m[1]}/${m[2].replace(/-[A-Za-z0-9_]{6,}\.mjs$/, '.mjs')} ${cf.functionName || '(anon)'}`;
    return undefined;
  };
  const byFrame = new Map();
  const byFile = new Map();
  let total = 0;
  const walk = (node, inner) => {
    const s = site(node.callFrame) ?? inner;
    const self = node.selfSize;
    if (self) {
      total += self;
      const k = s ?? '(no Airlock/SDK frame)';
      byFrame.set(k, (byFrame.get(k) ?? 0) + self);
      const f = k.split(' ')[0];
      byFile.set(f, (byFile.get(f) ?? 0) + self);
    }
    for (const c of node.children) walk(c, s);
  };
  walk(profile.head, undefined);
  const kib = (b) => (b / N / 1024).toFixed(2);
  console.log(
    `${ERA} agent, ${N} calls; ${kib(total)} KiB/call in all; scavenges ${gcs.minor} (${((gcs.minor * 1000) / N).toFixed(1)} per 1,000 calls, ${gcs.minorMs.toFixed(0)} ms), mark-compacts ${gcs.major}; ` +
      `CPU ${((cpu.user + cpu.system) / 1000 / N).toFixed(3)} ms/call (profiler ${GC_ONLY ? 'off' : 'on'}), wall ${(wall / N).toFixed(3)} ms/call; load ${(await import('node:os')).loadavg()[0].toFixed(2)}`,
  );
  console.log('\nby file (KiB/call):');
  for (const [k, v] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`  ${kib(v).padStart(7)}  ${k}`);
  console.log('\nby function (KiB/call):');
  for (const [k, v] of [...byFrame].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`  ${kib(v).padStart(7)}  ${k}`);
  if (jsonArg >= 0) writeFileSync(argv[jsonArg + 1], JSON.stringify(profile));
  await app.stop();
  es.stop();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
