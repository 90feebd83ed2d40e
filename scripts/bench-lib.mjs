import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

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
  const { mcpUrl } = await app.start();
  const { token } = await app.control.addAgent('bench');
  return { app, token, mcpUrl, dataDir };
}

/**
 * server-everything (streamable HTTP, or with `mode` 'sse' the 2024-11-05 HTTP+SSE transport at
 * /sse) in its own process on a free loopback port; its `--import` preload reports the address it
 * bound (and refuses to bind anything else).
 */
export async function startEverything(mode = 'streamableHttp') {
  const root = new URL('..', import.meta.url).pathname;
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
  const preload = join(root, 'main/remote/fixtures/loopback-only.mjs');
  const child = spawn(process.execPath, ['--import', preload, entry, mode], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const port = await new Promise((resolve, reject) => {
    let err = '';
    const onData = (d) => {
      err += d;
      const m = /AIRLOCK_TEST_LISTENING (\S+) (\d+)/.exec(err);
      if (!m) return;
      // Its `sse` mode logs a line to stderr on every POST: once the port is known, stop
      // keeping (and re-scanning) it in this process, which is the agent's, but keep draining the
      // pipe so the server never blocks on a full one.
      child.stderr.off('data', onData);
      child.stderr.resume();
      if (m[1] === '127.0.0.1') return resolve(Number(m[2]));
      child.kill('SIGKILL');
      reject(new Error(`server-everything bound ${m[1]}`));
    };
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything exited ${code}: ${err}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    pid: child.pid,
    stop: () => child.kill('SIGKILL'),
  };
}

// ---- the OS's view of a process tree (Linux /proc), for gateways run as real processes (issue 34)
const TICK_MS = 10; // USER_HZ is 100 on every Linux Node supports (getconf CLK_TCK)

function statOf(pid) {
  try {
    // The command name may hold spaces and parentheses: fields start after the last ") ".
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(') ') + 2).split(' ');
    // utime + stime, plus cutime + cstime: the time of children it has reaped, so a short-lived
    // child's work still counts after it is gone.
    const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    return { ppid: Number(f[1]), cpuMs: ticks * TICK_MS };
  } catch {
    return undefined; // gone in between
  }
}

/** `pid` and every live descendant of it, from /proc's parent links. */
export function treePids(pid) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const st = statOf(name);
    if (!st) continue;
    if (!children.has(st.ppid)) children.set(st.ppid, []);
    children.get(st.ppid).push(Number(name));
  }
  const out = [];
  const todo = [pid];
  while (todo.length) {
    const p = todo.pop();
    out.push(p);
    todo.push(...(children.get(p) ?? []));
  }
  return out;
}

/**
 * CPU (user + system, every thread, in ms) and resident memory (VmRSS summed, MiB) of `pid` and
 * its descendants, as the OS counts them (children reaped by a member counted through its
 * cutime/cstime; one that exits unreaped between readings would be lost — none does here).
 * `pids`: the tree found earlier (treePids), to read many times without walking /proc each time.
 */
export function treeUsage(pid, pids = treePids(pid)) {
  let cpuMs = 0;
  let rssKiB = 0;
  for (const p of pids) {
    cpuMs += statOf(p)?.cpuMs ?? 0;
    try {
      rssKiB += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      /* gone */
    }
  }
  return { cpuMs, rssMiB: rssKiB / 1024, procs: pids.length };
}

/**
 * The child's side of `lineChild`: answers each line on stdin with one JSON line on stdout —
 * "cpu" with its own `process.cpuUsage()` (user + system, every thread, µs), any other command
 * named in `more` with what that gives; other lines go unanswered.
 */
export function answerLines(more = {}) {
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line === 'cpu') {
      const u = process.cpuUsage();
      return process.stdout.write(JSON.stringify({ cpuUs: u.user + u.system }) + '\n');
    }
    if (Object.hasOwn(more, line)) process.stdout.write(JSON.stringify(more[line]()) + '\n');
  });
}

/**
 * A bench's child process that answers in JSON lines on stdout: `ready` is its first line (an
 * `error` in it, or an exit before it, rejects), `ask(cmd)` writes a line to its stdin and resolves
 * with the next line it prints, `exited` resolves with its exit code.
 */
export function lineChild(proc, name) {
  const waiting = [];
  createInterface({ input: proc.stdout }).on('line', (l) => waiting.shift()?.(JSON.parse(l)));
  const next = () => new Promise((r) => waiting.push(r));
  const exited = new Promise((r) => proc.once('exit', r));
  const ready = Promise.race([
    next().then((info) => {
      if (info.error) throw new Error(info.error);
      return info;
    }),
    exited.then((code) => {
      throw new Error(`${name} exited ${code}`);
    }),
  ]);
  const ask = (cmd) => {
    const p = next();
    proc.stdin.write(cmd + '\n');
    return p;
  };
  return { ready, ask, exited };
}

/**
 * The v2 client's fetch for the benches' agents (bench-peer-gateways.mjs, bench-passthrough.mjs,
 * bench-stdio.mjs), so that long runs pile no abort listeners onto the client's transport-wide
 * signal: that signal, which a 2025 session passes on every request (the same object each time),
 * gets a fresh `AbortSignal.any` per request. On 2026-07-28 the client already passes a signal of
 * the request's own (its per-request AbortController joined with the transport's by
 * `AbortSignal.any`), and that one goes to fetch as it is. Wrapping it as well put a second
 * `AbortSignal.any` on the 2026 leg alone, a cost of the bench and not of the agent or the
 * gateway (docs/performance.md, "The 2026-07-28 agent's call, wave 3 session 13": +0.25 to
 * +0.93 ms p50 through Airlock in six runs at load 4–12, the more the higher the load).
 */
export function perRequestFetch() {
  let last;
  return (u, init) => {
    const signal = init?.signal;
    const again = signal !== undefined && signal === last;
    last = signal;
    return fetch(u, again ? { ...init, signal: AbortSignal.any([signal]) } : init);
  };
}
