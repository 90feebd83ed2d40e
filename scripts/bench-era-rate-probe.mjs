// Preload for scripts/bench-era-rate.mjs (a measurement, never loaded by Airlock itself): counts,
// inside `airlock serve`, what each call costs besides its own code. HTTP requests and their body
// bytes (node:http's `http.server.request.start` diagnostics channel), new TCP connections
// (`net.server.socket`), event-loop turns that started at least one request (a setImmediate armed
// by the first request of a turn: requests per turn is how far the loop's wake-ups amortise), and
// V8 garbage collections (perf_hooks `gc` entries; after each scavenge the new space's used size,
// which is what survived it plus what was allocated since). And exactly, from V8's own GC
// profiler (node:v8 GCProfiler, read in the GC's epilogue: wave 3 session 31): the new space's
// used size right after each scavenge (its survivors) and the old space's growth across it (what
// it promoted). SIGUSR2 writes the counts since the last signal to
// $AIRLOCK_ERA_PROBE_OUT/<pid>.json and starts again from zero.
import dc from 'node:diagnostics_channel';
import fs from 'node:fs';
import v8 from 'node:v8';
import { constants } from 'node:perf_hooks';

const out = process.env.AIRLOCK_ERA_PROBE_OUT;
// The CLI commands the bench runs to set Airlock up (agent add, remote add, tools …) inherit the
// preload through NODE_OPTIONS; only `serve` is measured.
if (out && process.argv.includes('serve')) {
  const zero = () => ({
    req: 0,
    bytes: 0,
    sock: 0,
    turns: 0,
    gc: 0,
    gcMs: 0,
    scav: 0,
    newUsed: 0,
    survived: 0,
    promoted: 0,
    oldBetween: 0,
  });
  let c = zero();
  let profiler = new v8.GCProfiler();
  profiler.start();
  const used = (at, name) => at.heapSpaceStatistics.find((s) => s.spaceName === name).spaceUsedSize;
  /** The scavenges' survivors and promotions since the profiler started, into `c`. */
  const exact = () => {
    let last;
    for (const g of profiler.stop().statistics) {
      // The old space's growth between two GCs: what the program allocated straight in old space
      // (V8's pretenuring, internalized strings), which a scavenge's growth does not include.
      if (last) c.oldBetween += used(g.beforeGC, 'old_space') - used(last.afterGC, 'old_space');
      last = g;
      if (g.gcType !== 'Scavenge') continue;
      c.survived += used(g.afterGC, 'new_space');
      c.promoted += used(g.afterGC, 'old_space') - used(g.beforeGC, 'old_space');
    }
    profiler = new v8.GCProfiler();
    profiler.start();
  };
  let marked = false;
  const unmark = () => {
    marked = false;
  };
  dc.subscribe('http.server.request.start', ({ request }) => {
    c.req++;
    c.bytes += Number(request.headers['content-length'] ?? 0);
    if (marked) return;
    marked = true;
    c.turns++;
    setImmediate(unmark);
  });
  dc.subscribe('net.server.socket', () => c.sock++);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      c.gc++;
      c.gcMs += e.duration;
      if (e.detail?.kind !== constants.NODE_PERFORMANCE_GC_MINOR) continue;
      c.scav++;
      c.newUsed += v8
        .getHeapSpaceStatistics()
        .find((s) => s.space_name === 'new_space').space_used_size;
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('SIGUSR2', () => {
    exact();
    fs.writeFileSync(`${out}/${process.pid}.json`, JSON.stringify(c));
    c = zero();
  });
}
