// `npm run bench`: the passthrough figures of issue 20 (scripts/bench-passthrough.mjs, short run:
// about a minute on a shared 2-core machine) with the raw-proxy floor and every target marked
// MET / MISSED; the Gmail search round trips with added latency (bench-gmail.mjs, issue 18); the
// taint check's detection and false-flag rates, cost and memory (bench-taint.mjs, issue 22); the
// share of the schema budget a cold worker's first check uses (bench-schema.mjs, issue 29); Airlock
// beside the gateways people would pick instead — mcp-hub, supergateway, mcp-proxy, installed into
// ~/.cache/airlock-bench-peers, never as dependencies — for an HTTP and a stdio upstream and both
// agent eras (bench-peers.mjs, issue 34); the JSON relay run in its own process and inside a
// running Airlock beside Airlock itself, which separates Airlock's path from its process
// (bench-relay-floor.mjs); what `airlock serve`'s memory settings cost in CPU
// (bench-memory-tradeoff.mjs). Needs a build (npm run build:main). Asserts nothing.
//
//   npm run bench                    passthrough bench, short run
//   npm run bench -- --long          the sizes (1,000 sequential, 20,000 calls for the heap)
//   npm run bench -- --cpu-prof DIR  passthrough calls only, with a CPU profile of Airlock in DIR
//   npm run bench -- --all           every scripts/bench-*.mjs in turn (gateway, Gmail, remote, UI)
//   npm run bench -- gmail           the bench-*.mjs scripts whose name contains "gmail"
//   npm run bench -- sandbox         what the local servers' sandbox adds to a server's start (issue 35)
//   npm run bench -- --peers-only    only the peer gateways bench (issue 34; with --long: its full sizes)
//   npm run bench -- relay-floor --segments   the relay floor, and where Airlock's added latency
//                                    sits on a call's path beside the relay's (bench-segments.mjs)
//   npm run bench -- relay-floor --fast-lane  also two relay-shaped lanes inside Airlock on its own
//                                    call pipeline, one with its SDK upstream and one with a bare
//                                    upstream POST (bench-fast-lane.mjs; a measurement, issue 34)
//   npm run bench -- layers          the relay floor with a stamp at each layer boundary of a
//                                    scratch copy of dist/: a plain call's time, step by step,
//                                    beside the JSON relay's (bench-layers.mjs, issue 34)
//   npm run bench -- functions       how many functions one plain call runs in each gateway's
//                                    process (V8's precise coverage: a count, not a time, so it
//                                    does not move with the machine's load; bench-functions.mjs)
// Not run from here (measurements, run directly): bench-era-stdio.mjs takes the peer bench's stdio
// era ratio apart (client floors, each era's profile; docs/performance.md, issue 34).
// bench-era-rate-probe.mjs is bench-era-rate.mjs's preload inside the gateway, never a bench.
//
// On Linux without a usable Secret Service, runs under scripts/with-keyring.sh (a throwaway
// gnome-keyring) so the cold-start figure of `airlock serve` can be measured.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const flags = args.filter(
  (a, i) =>
    a.startsWith('--') || ['--cpu-prof', '--heap-snapshots', '--functions'].includes(args[i - 1]),
);
const only = args.find((a) => !flags.includes(a));
const all = readdirSync(dir)
  .filter(
    (f) =>
      /^bench-.*\.mjs$/.test(f) &&
      ![
        'bench-lib.mjs',
        'bench-cpuprofile.mjs',
        'bench-era-rate-probe.mjs',
        'bench-era-stdio.mjs',
        'bench-fast-lane.mjs',
        'bench-peer-airlock.mjs',
        'bench-peer-gateways.mjs',
        'bench-peers-report.mjs',
        'bench-segments.mjs',
      ].includes(f),
  )
  .sort();
const scripts = flags.includes('--peers-only')
  ? ['bench-peers.mjs']
  : flags.includes('--all')
    ? all
    : only
      ? all.filter((f) => f.includes(only))
      : [
          'bench-passthrough.mjs',
          'bench-gmail.mjs',
          'bench-taint.mjs',
          'bench-schema.mjs',
          'bench-peers.mjs',
          'bench-relay-floor.mjs',
          'bench-memory-tradeoff.mjs',
        ];
const passFlags = flags.filter((f) => f !== '--all' && f !== '--peers-only');

const keyring =
  process.platform === 'linux' &&
  !process.env.AIRLOCK_KEYRING_TEST &&
  spawnSync('sh', ['-c', 'command -v dbus-run-session']).status === 0;

let failed = 0;
for (const script of scripts) {
  console.log(`\n=== ${script} ===`);
  const cmd = [process.execPath, fileURLToPath(new URL(script, import.meta.url)), ...passFlags];
  const r = keyring
    ? spawnSync('bash', [fileURLToPath(new URL('with-keyring.sh', import.meta.url)), ...cmd], {
        stdio: 'inherit',
      })
    : spawnSync(cmd[0], cmd.slice(1), { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
