// Child process for young-generation.test.ts: how large does V8's new space grow under an
// allocation load with survivors, (none) as Node leaves it, (cap) with YoungGenerationCap started,
// (serve) inside a started `airlock serve`? Prints one JSON line: the largest new-space size seen.
// The load yields to the event loop often (setImmediate, no timers), as a gateway's calls do, so
// the observer that moves the cap runs between GCs.
import v8 from 'node:v8';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dist = new URL('../../dist/', import.meta.url);
const mode = process.argv[2];
const newSpace = () =>
  v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
const turn = () => new Promise((resolve) => setImmediate(resolve));

async function load() {
  let max = newSpace();
  let kept = [];
  for (let chunk = 0; chunk < 600; chunk++) {
    for (let i = 0; i < 10_000; i++) {
      const o = { n: i, text: `call ${chunk}:${i}`, args: [i, chunk] };
      if (i % 10 === 0) kept.push(o);
    }
    if (kept.length > 20_000) kept = [];
    await turn();
    await turn();
    max = Math.max(max, newSpace());
  }
  return max;
}

/**
 * A load whose garbage dies old: batches of objects kept across several turns (so they survive
 * two scavenges and are promoted), then dropped, beside a steady 8 MiB or so that stays live — as
 * a gateway's in-flight calls under 8 clients are. Returns the largest old-space size seen.
 */
async function oldLoad() {
  // Full GCs counted too: the largest size seen depends on when concurrent marking ends (it moved
  // 51–83 MiB between runs of the same setting); how many full GCs the limit calls for far less.
  const { PerformanceObserver, constants } = await import('node:perf_hooks');
  let majors = 0;
  const gcs = new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
  });
  gcs.observe({ entryTypes: ['gc'] });
  const oldSpace = () =>
    v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_size;
  const live = Array.from({ length: 60_000 }, (_, i) => ({ i, text: `live ${i}` }));
  let max = oldSpace();
  const held = [];
  for (let chunk = 0; chunk < 400; chunk++) {
    const batch = [];
    for (let i = 0; i < 5_000; i++) batch.push({ n: i, text: `call ${chunk}:${i}`, args: [i] });
    held.push(batch);
    if (held.length > 8) held.shift();
    await turn();
    max = Math.max(max, oldSpace());
  }
  await turn(); // the last GCs' entries
  gcs.disconnect();
  return { max, majors, live: live.length };
}

const write = process.stdout.write.bind(process.stdout);
let result;
/** A worker's load (the `worker` modes): allocate as calls do, then post its new space's largest size. */
const WORKER_LOAD = `const { parentPort } = require('node:worker_threads');
  const v8 = require('node:v8');
  const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
  function allocate() {
    let max = newSpace();
    let kept = [];
    for (let chunk = 0; chunk < 600; chunk++) {
      for (let i = 0; i < 10000; i++) {
        const o = { n: i, text: 'call ' + chunk + ':' + i, args: [i, chunk] };
        if (i % 10 === 0) kept.push(o);
      }
      if (kept.length > 20000) kept = [];
      max = Math.max(max, newSpace());
    }
    parentPort.postMessage(max);
  }`;

if (mode === 'none') result = { max: await load() };
else if (mode === 'old-none') result = await oldLoad();
else if (mode === 'old' || mode === 'old-cap') {
  const { YoungGenerationCap } = await import(new URL('main/platform/young-generation.js', dist));
  // old-cap: the young-generation cap alone, so the old generation's hold is the only difference.
  const cap = new YoungGenerationCap(mode === 'old-cap' ? { oldGeneration: 'none' } : {});
  cap.start();
  result = await oldLoad();
  cap.stop();
} else if (mode === 'cap') {
  const { YoungGenerationCap } = await import(new URL('main/platform/young-generation.js', dist));
  const cap = new YoungGenerationCap();
  cap.start();
  result = { max: await load() };
  cap.stop();
} else if (mode === 'burst') {
  // One stretch of allocation with survivors that never yields (a big synchronous job), then the
  // usual load: the observer only runs between turns of the event loop.
  const { YoungGenerationCap } = await import(new URL('main/platform/young-generation.js', dist));
  const cap = new YoungGenerationCap();
  cap.start();
  let kept = [];
  for (let i = 0; i < 3_000_000; i++) {
    kept.push({ n: i, text: `burst ${i}` });
    if (kept.length > 20_000) kept = [];
  }
  const burst = newSpace();
  await load();
  result = { burst, max: newSpace(), kept: kept.length > 0 };
  cap.stop();
} else if (mode === 'worker') {
  // A worker thread (as the schema worker pool starts at serve's start-up) that allocates once the
  // main thread's new space has reached the cap: V8 flags are per process, not per isolate.
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(
    `${WORKER_LOAD}
     parentPort.once('message', allocate);
     parentPort.postMessage('ready');`,
    { eval: true },
  );
  await new Promise((resolve) => worker.once('message', resolve));
  const { YoungGenerationCap } = await import(new URL('main/platform/young-generation.js', dist));
  // The growth factor alone: with --optimize-for-size V8 also shrinks the main thread's new space
  // at times, which sets the factor back to 2 for a while — the worker then grows or not by timing.
  const cap = new YoungGenerationCap({ oldGeneration: 'none' });
  cap.start();
  const main = await load();
  const done = new Promise((resolve) => worker.once('message', resolve));
  worker.postMessage('go');
  result = { main, max: await done };
  cap.stop();
  await worker.terminate();
} else if (mode === 'worker-after-burst') {
  // A worker started after one burst has come and gone (the cap set --optimize-for-size and
  // cleared it): V8::SetFlagsFromString enforces flag implications, and --optimize-for-size implies
  // --max-semi-space-size=1, which --no-optimize-for-size does not take back. A new isolate (a
  // schema pool worker the pool starts later, or one it replaces after a budget ran out) reads it
  // when its heap is set up. Fake sizes drive the cap; the flags are V8's own.
  const { YoungGenerationCap } = await import(new URL('main/platform/young-generation.js', dist));
  let size = 32 * 1024 * 1024;
  const cap = new YoungGenerationCap({ newSpaceBytes: () => size });
  cap.start(); // above the cap: --optimize-for-size
  size = 2 * 1024 * 1024;
  cap.adjust(); // back: --no-optimize-for-size
  cap.stop();
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(
    `${WORKER_LOAD}
     allocate();`,
    { eval: true },
  );
  result = { max: await new Promise((resolve) => worker.once('message', resolve)) };
  await worker.terminate();
} else if (mode === 'serve') {
  const dataDir = mkdtempSync(join(tmpdir(), 'airlock-young-'));
  let ready;
  const isReady = new Promise((resolve) => (ready = resolve));
  // serve's ready line is the only thing it writes to stdout: taken here, not printed.
  process.stdout.write = (chunk) => (String(chunk).includes('"ready"') && ready(), true);
  const { main } = await import(new URL('main/cli.js', dist));
  const served = main(['serve', '--port', '0', '--data-dir', dataDir, '--vault', 'file']);
  await Promise.race([
    isReady,
    served.then((code) => Promise.reject(new Error(`serve exited ${code}`))),
  ]);
  result = { max: await load() };
  process.kill(process.pid, 'SIGTERM');
  result.exit = await served;
  rmSync(dataDir, { recursive: true, force: true });
}
write(JSON.stringify(result) + '\n');
