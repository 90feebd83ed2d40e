// Airlock in the peer bench (issue 34): the real `airlock serve` set up through its own CLI, and
// the passthrough bench's in-process App (only to explain the old CPU figure). Used by
// bench-peers.mjs; not a bench by itself.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { rmSync, writeFileSync } from 'node:fs';
import { launch, root, started, stdioServer, tmp, until } from './bench-peer-gateways.mjs';
// As Airlock's launchers start it (scripts/up.sh, the `airlock` launcher, npm start).
import { nodeFlags } from '../bin/node-flags.js';

const node = process.execPath;

/**
 * Experiments only (scripts/experiments/compile-burst-report.mjs): AIRLOCK_BENCH_SERVE_FLAGS adds
 * Node/V8 flags to each `airlock serve` (`--trace-opt --trace-deopt`, which V8 prints on stdout,
 * before the ready line too, so with either variable set the ready line is serve's first line
 * that is a JSON object), and AIRLOCK_BENCH_SERVE_OUT=PREFIX writes the other lines serve prints
 * on stdout to PREFIX-KIND-PID.txt when serve exits, each stamped on arrival with this process's
 * clock (performance.timeOrigin + performance.now(), the clock of AIRLOCK_BENCH_SEQ_DUMP's
 * starts). Kept in memory until then, so no file write runs during a measured call; JSON lines
 * (the ready line holds the control token) are not written.
 */
const serveFlags = (process.env.AIRLOCK_BENCH_SERVE_FLAGS ?? '').split(/\s+/).filter(Boolean);
const serveOut = process.env.AIRLOCK_BENCH_SERVE_OUT;
function readyFromOutput(p, kind) {
  if (!serveOut && serveFlags.length === 0) return undefined;
  p.firstLine.catch(() => {}); // not awaited here: the exit below reports
  if (serveOut) {
    const stamped = [];
    let rest = '';
    p.proc.stdout.on('data', (d) => {
      const at = (performance.timeOrigin + performance.now()).toFixed(2);
      const lines = (rest + d).split('\n');
      rest = lines.pop();
      for (const l of lines) if (!l.startsWith('{')) stamped.push(`${at} ${l}\n`);
    });
    // 'close': after serve's stdout has ended, so no late chunk is left out.
    p.proc.once('close', () =>
      writeFileSync(`${serveOut}-${kind}-${p.proc.pid}.txt`, stamped.join(''), { mode: 0o600 }),
    );
  }
  // Not closed once found: closing a readline interface pauses its input, and serve would block
  // on a full pipe.
  return new Promise((resolve, reject) => {
    createInterface({ input: p.proc.stdout }).on('line', (l) => l.startsWith('{') && resolve(l));
    p.proc.once('exit', (code) =>
      reject(new Error(`airlock serve exited ${code} before ready: ${p.tail()}`)),
    );
  });
}

/** Which vault `airlock serve` uses here: the OS keychain where there is one, as users get it. */
export const airlockVault = () =>
  process.env.AIRLOCK_KEYRING_TEST || process.platform !== 'linux'
    ? { mode: 'OS keychain', env: {} }
    : {
        mode: 'file vault (no Secret Service here; run through npm run bench for the keychain)',
        env: { AIRLOCK_VAULT: 'file', AIRLOCK_VAULT_PASSPHRASE: 'airlock-bench-peers' },
      };

/**
 * The real `airlock serve` (bin/airlock.js, dist/), a fresh data dir, an agent token from
 * `airlock agent add`, the upstream from `airlock remote add` (stdio: launched and sandboxed by
 * Airlock as for any user), and its echo set to run without asking — confirmed the way
 * Airlock's own page confirms a policy change.
 */
export async function airlock(kind, upstreamUrl, { serveEntry } = {}) {
  const dir = tmp('airlock');
  const dataDir = join(dir, 'data');
  const bin = join(root, 'bin/airlock.js');
  const { env } = airlockVault();
  // `serveEntry`: argv that runs `main()` of dist/main/bundle/cli.js in place of bin/airlock.js (a bench's
  // own entry with CliInjections, bench-memory-tradeoff.mjs); the CLI commands stay bin/airlock.js.
  const entry = serveEntry ?? [bin];
  const p = launch(
    node,
    [...nodeFlags(), ...serveFlags, ...entry, 'serve', '--port', '0', '--data-dir', dataDir],
    {
      env,
      dir,
      lines: true,
    },
  );
  const readyLine = readyFromOutput(p, kind);
  const ready = JSON.parse(await (readyLine ?? p.firstLine));
  const cli = (args) =>
    new Promise((resolve, reject) => {
      // --data-dir before any `--`: what follows `--` is the local server's own argv.
      const end = args.indexOf('--') < 0 ? args.length : args.indexOf('--');
      const argv = [...args.slice(0, end), '--data-dir', dataDir, ...args.slice(end)];
      const c = spawn(node, [bin, ...argv], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      c.stdout.on('data', (d) => (out += d));
      c.stderr.on('data', (d) => (err += d));
      c.once('exit', (code) =>
        code === 0
          ? resolve(out)
          : reject(new Error(`airlock ${args[0]} ${args[1]}: ${err.trim()}`)),
      );
    });
  const { token } = JSON.parse(await cli(['agent', 'add', 'bench', '--json']));
  const where = kind === 'http' ? [upstreamUrl] : ['--', stdioServer.command, ...stdioServer.args];
  const added = JSON.parse(await cli(['remote', 'add', 'everything', '--json', ...where]));
  const gw = { name: 'Airlock', kind, pid: p.proc.pid, url: ready.mcpUrl, token };
  if (kind === 'stdio') {
    const s = added.stdio?.sandbox;
    gw.note = `local server: ${s?.status ?? 'unknown'}${s?.enforcement ? ` (${s.enforcement}, network ${s.network})` : ''}`;
  }
  gw.tool = await until('Airlock upstream', p, async () => {
    const t = JSON.parse(await cli(['tools', 'list', '--json'])).find(
      (x) => /echo$/.test(x.name) && x.name !== 'local_echo',
    );
    if (!t) throw new Error('no echo tool yet');
    return t;
  }).then(async (t) => {
    if (t.approval !== 'auto') await runWithoutAsking(cli, ready, t.name);
    return t.name;
  });
  // Local servers' own folders live outside the data dir, under a profile folder named for this
  // (throwaway) data dir (docs/remote.md, "Permissions"), made at start: ours alone, removed with
  // it. Found by Airlock's own function, so the bench removes exactly the folder Airlock made.
  const { defaultHomesRoot } = await import(
    join(root, 'dist/main/remote/stdio/sandbox/host-facts.js')
  );
  const profile = defaultHomesRoot(dataDir);
  const home = added.stdio?.sandbox?.home;
  if (home && dirname(home) !== profile)
    throw new Error(`Airlock put the server's folder in ${home}, not under ${profile}`);
  return {
    ...gw,
    stop: async () => {
      await p.stop();
      rmSync(dir, { recursive: true, force: true });
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** `airlock tools set T --approval auto`, then Confirm on the change as Airlock's page does. */
async function runWithoutAsking(cli, ready, tool) {
  const setting = cli(['tools', 'set', tool, '--approval', 'auto']);
  const controlToken = new URL(ready.controlUrl).hash.replace('#token=', '');
  const page = new URL(ready.url);
  const rpc = (method, params) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ method, params });
      const req = http.request(
        new URL('/api/rpc', page),
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${controlToken}`,
            'content-type': 'application/json',
            origin: page.origin,
            'sec-fetch-site': 'same-origin',
          },
        },
        (res) => {
          let t = '';
          res.on('data', (d) => (t += d));
          res.on('end', () => resolve(JSON.parse(t)));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  for (;;) {
    const { result } = await rpc('listPolicyChanges', []);
    const change = result?.find((c) => c.summary.includes(tool));
    if (change) {
      await rpc('decidePolicyChange', [change.id, true]);
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await setting;
}

/**
 * The old bench's Airlock (bench-passthrough.mjs --airlock-child): the core as an in-process App
 * in a child with a memory vault, answering "cpu" with its own process.cpuUsage(). Only for
 * explaining why that bench's CPU figure was lower than a whole-process reading.
 */
export async function appChild(upstreamUrl) {
  const p = spawn(
    node,
    [
      '--expose-gc',
      '--no-flush-bytecode',
      join(root, 'scripts/bench-passthrough.mjs'),
      '--airlock-child',
    ],
    {
      env: {
        ...process.env,
        AIRLOCK_BENCH_REMOTES: JSON.stringify([{ name: 'everything', url: upstreamUrl }]),
      },
      stdio: ['pipe', 'pipe', 'inherit'],
      detached: true,
    },
  );
  started.add(p);
  const waiting = [];
  createInterface({ input: p.stdout }).on('line', (l) => waiting.shift()?.(JSON.parse(l)));
  const next = () => new Promise((r) => waiting.push(r));
  const info = await next();
  if (info.error) throw new Error(info.error);
  return {
    name: 'old bench: in-process App',
    kind: 'http',
    pid: p.pid,
    url: info.mcpUrl,
    token: info.token,
    tool: 'everything__echo',
    /** Its own process.cpuUsage(), user + system, in ms. */
    selfCpuMs: async () => {
      const r = next();
      p.stdin.write('cpu\n');
      return (await r).cpuUs / 1000;
    },
    stop: async () => {
      p.stdin.write('stop\n');
      await new Promise((r) => (p.exitCode !== null ? r() : p.once('exit', r)));
      started.delete(p);
    },
  };
}
