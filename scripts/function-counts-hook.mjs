// The preload of bench-functions.mjs (`node --import`), never loaded by Airlock itself: in a
// process started with BENCH_FUNCTIONS_OUT set, the first SIGUSR2 starts V8's precise coverage
// with call counts and resets it (then writes OUT.ready), the second takes the counts since then
// (the Chrome DevTools Protocol's Profiler.startPreciseCoverage { callCount: true, detailed:
// false }: one count per function, exact, not sampled; Profiler.takePreciseCoverage resets the
// counters) and writes them to OUT. Only in the process whose argv holds `serve` or a bench
// floor's role: the CLI's one-shot commands started with the same environment stay untouched.
import inspector from 'node:inspector';
import { writeFileSync } from 'node:fs';

const out = process.env.BENCH_FUNCTIONS_OUT;
if (
  out &&
  process.argv.some(
    (a) => a === 'serve' || a.startsWith('--relay-child') || /bench-guarded-relay/.test(a),
  )
) {
  const session = new inspector.Session();
  session.connect();
  let started = false;
  process.on('SIGUSR2', () => {
    if (!started) {
      started = true;
      session.post('Profiler.enable', () =>
        session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false }, () =>
          session.post('Profiler.takePreciseCoverage', () => writeFileSync(`${out}.ready`, '')),
        ),
      );
    } else {
      session.post('Profiler.takePreciseCoverage', (err, r) => {
        writeFileSync(out, err ? JSON.stringify({ error: String(err) }) : JSON.stringify(r.result));
        writeFileSync(`${out}.done`, '');
      });
    }
  });
}
