#!/usr/bin/env node
// What the local servers' sandbox adds to a server's start (issue 35; target ≤ 50 ms at p50).
// Prints figures; asserts nothing. Linux with bubblewrap; needs a build (npm run build:main).
//
//   For each round, in turn: the server started directly (without and with the proxy variables
//   a host list sets), and in the sandbox with network "none", "any" (seccomp filter) and a
//   host list — Perl binding the forwarder's port, relaying, and exec'ing the server at once;
//   and, as on a system without Perl, the forwarder's Node first, then the server (forwarder.ts).
//   Timed from "about to start" — the sandbox's own preparation (finding the program, resolving
//   and checking paths, building the bubblewrap command line) included — to the server's answer
//   to MCP `initialize` on its stdout. Two servers: server-everything (stdio) and a minimal SDK
//   server (test-support/hostile-stdio-server.mjs). Separate processes, round-robin, so load on
//   this shared machine falls on every mode alike.
//
//   node scripts/bench-sandbox.mjs [--rounds N]
import { mkdtempSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile, row } from './bench-lib.mjs';

const dist = (p) => new URL(`../dist/main/${p}`, import.meta.url).href;
const { SandboxLauncher } = await import(dist('remote/stdio/sandbox/launcher.js'));
const { sandboxHost } = await import(dist('remote/stdio/sandbox/host-facts.js'));
const { endGroup, spawnGroup } = await import(dist('remote/stdio/process-group.js'));
const { childEnv } = await import(dist('remote/stdio/env.js'));
const { Logger } = await import(dist('platform/log.js'));
const { proxyEnv } = await import(dist('remote/stdio/sandbox/server-proxies.js'));

const argv = process.argv.slice(2);
const ROUNDS = Number(argv[argv.indexOf('--rounds') + 1]) || 15;
if (process.platform !== 'linux') {
  console.log('  (skipped: the bubblewrap sandbox is Linux only)');
  process.exit(0);
}

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const nodeModules = realpathSync(
  require.resolve('@modelcontextprotocol/server').replace(/(\/node_modules)\/.*$/, '$1'),
);
const SERVERS = {
  // Answers `initialize` at once: what is left is the sandbox's own cost (prepare + bubblewrap).
  'sh answering initialize (the sandbox alone)': [
    '/bin/sh',
    '-c',
    'read line; echo \'{"jsonrpc":"2.0","id":1,"result":{}}\'; read rest',
  ],
  'server-everything': [
    process.execPath,
    require.resolve('@modelcontextprotocol/server-everything/dist/index.js'),
    'stdio',
  ],
  'minimal SDK server': [process.execPath, join(root, 'test-support', 'hostile-stdio-server.mjs')],
};
const dataDir = mkdtempSync(join(tmpdir(), 'airlock-bench-sandbox-'));
const host = sandboxHost(
  { dataDir },
  { homesRoot: mkdtempSync(join(tmpdir(), 'airlock-bench-homes-')) },
);
if (!host.bwrap) {
  console.log('  (skipped: bubblewrap is not installed)');
  process.exit(0);
}
const launcher = new SandboxLauncher(host, new Logger({ stderr: false }));
const withoutPerl = new SandboxLauncher(
  { ...host, perl: undefined },
  new Logger({ stderr: false }),
);
if (!host.perl) console.log('  (no /usr/bin/perl here: both host-list rows start Node first)');
const cwd = mkdtempSync(join(tmpdir(), 'airlock-bench-cwd-'));
// A host list gives the server HTTP(S)_PROXY and NODE_USE_ENV_PROXY=1, with which Node loads its
// proxy agent at start (~100+ ms here): the server's own cost of honouring the proxy. The
// host-list rows are judged against a direct start with the same variables; both shown.
const PROXY_VARS = 'direct, proxy variables set';
const MODES = {
  direct: null,
  [PROXY_VARS]: { direct: true, env: proxyEnv(3128) },
  'sandbox, network none': { network: 'none', hosts: [] },
  'sandbox, network any': { network: 'any', hosts: [] },
  'sandbox, host list': { network: 'hosts', hosts: ['registry.npmjs.org'] },
  'sandbox, host list, no Perl': {
    network: 'hosts',
    hosts: ['registry.npmjs.org'],
    launcher: withoutPerl,
  },
};
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  },
});

/** Milliseconds from "about to start" to the answer to `initialize`. */
async function startOnce(name, [command, ...args], mode) {
  const { launcher: by = launcher, direct, env, ...perm } = mode ?? {};
  const launch = { command, args, cwd, env: { ...childEnv({}), ...env } };
  const t0 = performance.now();
  const prepared =
    mode && !direct
      ? await by.prepare(name, launch, {
          read: [nodeModules],
          write: [cwd],
          allowUnsandboxed: false,
          ...perm,
        })
      : { launch };
  const child = spawnGroup(prepared.launch, prepared.extraStdio);
  const answered = new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      if (buf.includes('"id":1')) resolve(performance.now() - t0);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
    child.stderr.resume();
  });
  child.stdin.write(INIT + '\n');
  const took = await answered;
  await endGroup(child, 500);
  return took;
}

console.log(`  ${ROUNDS} rounds, round-robin; p50 / p90 of spawn → initialize answered`);
for (const [server, args] of Object.entries(SERVERS)) {
  const samples = Object.fromEntries(Object.keys(MODES).map((m) => [m, []]));
  await startOnce(server, args, null); // warm the file cache
  const rounds = server.startsWith('sh ') ? ROUNDS * 3 : ROUNDS;
  for (let i = 0; i < rounds; i++)
    for (const [m, mode] of Object.entries(MODES))
      samples[m].push(await startOnce(server.replace(/\W+/g, '-'), args, mode));
  console.log(`\n  ${server}`);
  const base = percentile(samples.direct, 50);
  const withVars = percentile(samples[PROXY_VARS], 50);
  for (const [m, s] of Object.entries(samples)) {
    const p50 = percentile(s, 50);
    const hosts = m.includes('host list');
    const added = p50 - (hosts ? withVars : base);
    const extra =
      m === 'direct'
        ? ''
        : `, +${(p50 - base).toFixed(1)} ms${hosts ? ` (+${added.toFixed(1)} over ${PROXY_VARS})` : ''}`;
    const verdict = m.startsWith('sandbox') ? (added <= 50 ? 'MET' : 'MISSED') : undefined;
    row(
      m,
      `${p50.toFixed(1)} / ${percentile(s, 90).toFixed(1)} ms${extra}`,
      verdict && `sandbox ≤ +50 ms: ${verdict}`,
    );
  }
}
await launcher.closeAll();
await withoutPerl.closeAll();
