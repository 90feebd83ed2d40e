// When V8 compiles inside Airlock's measured calls, and which of the slowest calls it explains
// (issue 34, p99; docs/performance.md, "The tier-up's compile burst").
//
// Run the peer bench with each `airlock serve` tracing its compiles and its output stamped, and
// the sequential calls dumped with their starts (scripts/bench-peer-airlock.mjs,
// scripts/bench-peers.mjs):
//
//   AIRLOCK_BENCH_SERVE_FLAGS='--trace-opt --trace-deopt' AIRLOCK_BENCH_SERVE_OUT=/tmp/burst/serve \
//   AIRLOCK_BENCH_SEQ_DUMP=/tmp/burst/seq.json npm run bench -- --peers-only --long
//   node scripts/experiments/compile-burst-report.mjs /tmp/burst/seq.json /tmp/burst/serve
//
// Per Airlock leg it prints the TurboFan compiles V8 finished (`[completed compiling …]`, with
// their background and main-thread milliseconds) and the deoptimizations (`[bailout …]`) before
// the warm-up, during it, during the measured phase (from the first measured call's start to the
// last one's end, other legs' turns included) and after, and how many finished inside this leg's
// measured calls themselves; then the ten slowest measured calls (numbered from 0; the p99 is the
// bench's own percentile()) with the compiles that finished inside each. A call with three or
// more is counted as in a burst (a threshold chosen on the runs it was first used on). Lines are
// stamped when the bench read them, every line of one chunk alike, so a compile is placed within
// the call it finished in give or take the bench's own turn. Not counted: `[aborted optimizing …]`
// and `[marking dependent code …]` lines.
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { percentile } from '../bench-lib.mjs';

const [dumpFile, prefix] = process.argv.slice(2);
if (!dumpFile || !prefix) {
  console.error('usage: compile-burst-report.mjs SEQ_DUMP.json SERVE_OUT_PREFIX');
  process.exit(2);
}
const BURST = 3;
const legs = JSON.parse(readFileSync(dumpFile, 'utf8'));
const outputs = readdirSync(dirname(prefix)).filter((f) => f.startsWith(basename(prefix) + '-'));

for (const leg of legs) {
  if (leg.name !== 'Airlock' || !leg.starts) continue;
  const file = outputs.find((f) => f.endsWith(`-${leg.pid}.txt`));
  if (!file) continue;
  const events = readFileSync(join(dirname(prefix), file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const at = Number(line.slice(0, line.indexOf(' ')));
      const text = line.slice(line.indexOf(' ') + 1);
      const took = /\[completed compiling .* took ([\d.]+), ([\d.]+), ([\d.]+) ms/.exec(text);
      return {
        at,
        compile: took ? { background: +took[2], main: +took[1] + +took[3] } : undefined,
        deopt: text.startsWith('[bailout'),
      };
    });
  // The dump's latencies are the measured calls' (`t`), in the order of their starts.
  const measured = leg.starts.filter((s) => s.measured).map((s, i) => ({ ...s, ms: leg.t[i] }));
  const warm = leg.starts.filter((s) => !s.measured);
  const warmFrom = warm[0]?.at ?? measured[0].at;
  const measuredFrom = measured[0].at;
  const measuredTo = measured.at(-1).at + measured.at(-1).ms;
  const phase = (at) =>
    at < warmFrom
      ? 'before'
      : at < measuredFrom
        ? 'warm-up'
        : at <= measuredTo
          ? 'measured'
          : 'after';
  const byPhase = new Map();
  for (const e of events) {
    const p = byPhase.get(phase(e.at)) ?? { compiles: 0, background: 0, main: 0, deopts: 0 };
    if (e.compile) {
      p.compiles++;
      p.background += e.compile.background;
      p.main += e.compile.main;
    }
    if (e.deopt) p.deopts++;
    byPhase.set(phase(e.at), p);
  }
  const inCall = (c) =>
    events.filter((e) => e.compile && e.at >= c.at && e.at <= c.at + c.ms).length;
  const sorted = [...measured].sort((a, b) => b.ms - a.ms);
  const p99 = (calls) =>
    percentile(
      calls.map((c) => c.ms),
      99,
    );
  console.log(
    `${leg.kind} ${leg.era} (pid ${leg.pid}): ${warm.length} warm-up, ${measured.length} measured calls`,
  );
  for (const name of ['before', 'warm-up', 'measured phase', 'after']) {
    const p = byPhase.get(name);
    if (p)
      console.log(
        `  ${name.padEnd(14)} ${String(p.compiles).padStart(4)} compiles (${p.background.toFixed(0)} ms background, ${p.main.toFixed(1)} ms main thread), ${p.deopts} deopts`,
      );
  }
  console.log(
    `  inside the measured calls: ${measured.reduce((n, c) => n + inCall(c), 0)} compiles`,
  );
  const slowest = sorted
    .slice(0, 10)
    .map((c) => ({ ...c, n: inCall(c), index: measured.indexOf(c) }));
  const bursts = measured.filter((c) => inCall(c) >= BURST);
  console.log(
    `  ten slowest: ${slowest.map((c) => `#${c.index} ${c.ms.toFixed(1)} ms${c.n ? ` (${c.n})` : ''}`).join(', ')}`,
  );
  console.log(
    `  in a burst (≥ ${BURST} compiles finished inside): ${slowest.filter((c) => c.n >= BURST).length} of the ten slowest, ${bursts.length} of ${measured.length} calls; p99 ${p99(measured).toFixed(2)} ms, without the burst calls ${p99(measured.filter((c) => !bursts.includes(c))).toFixed(2)} ms`,
  );
}
