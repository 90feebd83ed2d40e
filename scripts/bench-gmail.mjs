#!/usr/bin/env node
// Gmail search benchmark (issues 6 and 18.5, "Measure"). Prints figures; asserts nothing.
//
//   gmail_search for 50 messages (then 100, as two pages of 50) against the fake Gmail API
//   with 50 ms latency added to every HTTP request: wall time, HTTP requests, calls and round
//   trips of latency, for Airlock (the list, then one batch request for the messages) and for a
//   sequential baseline (the list, then one messages.get at a time, as a client without batching
//   or concurrency would), in the same run. Round trips are counted by the fake: the longest chain
//   of HTTP requests each sent after the previous one was answered.
//   Targets (50 messages): ≥ 10× faster than sequential, ≤ 3 HTTP round trips.
//
// The fake is TypeScript, loaded as it is by Vite's module runner; the Gmail source is the
// built one (npm run build).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const ROUNDS = 3;
const root = fileURLToPath(new URL('..', import.meta.url));
const load = async (path) =>
  (
    await runnerImport(fileURLToPath(new URL(path, `file://${root}/`)), {
      root,
      configFile: false,
      logLevel: 'error',
    })
  ).module;

const me = { email: 'alice@example.com', token: 'bench-token' };

// The fake runs in its own process, as Gmail runs on its own servers: its CPU time is not the client's.
if (process.argv[2] === '--fake') {
  const { GmailFake } = await load('e2e/fake-google/gmail-fake.ts');
  const { bulkMessages } = await load('e2e/fixtures/mail/messages.ts');
  const fake = await new GmailFake([me], { latencyMs: LATENCY_MS }).start();
  for (const seed of bulkMessages(100, me.email)) fake.add(me.email, seed);
  process.on('message', (m) => {
    if (m === 'reset') fake.resetCounters();
    if (m === 'stats')
      process.send({
        requests: fake.httpRequests(),
        calls: fake.count((r) => r.batchSize === undefined),
        roundTrips: fake.roundTrips(),
      });
  });
  process.send({ root: fake.root });
  await new Promise(() => {});
}

const child = fork(fileURLToPath(import.meta.url), ['--fake'], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const ask = (msg) =>
  new Promise((resolve) => {
    child.once('message', resolve);
    if (msg) child.send(msg);
  });
const { root: fakeRoot } = await ask();
const fake = {
  resetCounters: () => child.send('reset'),
  stats: () => ask('stats'),
  stop: () => child.kill(),
};

const { StaticGoogleAccess, account } = await load('e2e/fake-google/gmail-access.ts');
// The source itself comes from the build: its libraries load lazily (main/google/lazy.ts), which a
// finished module-runner import cannot do.
const { GmailSource } = await import(
  new URL('dist/main/google/gmail/source.js', `file://${root}/`).href
);
const access = new StaticGoogleAccess(fakeRoot, [account(me.email, me.token)]);
const ctx = { agent: 'bench', signal: new AbortController().signal };

const QUERY = 'subject:"weekly update"';
const FIELDS =
  'id,threadId,labelIds,snippet,internalDate,payload(partId,mimeType,filename,headers,body/size,parts(partId,mimeType,filename,headers,body/size))';

/** Airlock's gmail_search, page by page. */
async function airlockSearch(source, pages) {
  let token;
  let found = 0;
  for (let p = 0; p < pages; p++) {
    const r = await source.call(
      'gmail_search',
      { query: QUERY, max_results: 50, ...(token ? { page_token: token } : {}) },
      ctx,
    );
    const text = r.content.map((c) => c.text).join('\n');
    if (r.isError) throw new Error(text);
    found += Number(/: (\d+) messages?/.exec(text)?.[1] ?? 0);
    token = /page_token="([^"]+)"/.exec(text)?.[1];
  }
  return found;
}

/** The baseline: the same list, then each message's metadata with one GET at a time. */
async function sequentialSearch(pages) {
  const get = async (path) => {
    const res = await fetch(new URL(path, fakeRoot), {
      headers: { authorization: `Bearer ${me.token}` },
    });
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
    return res.json();
  };
  let token;
  let found = 0;
  for (let p = 0; p < pages; p++) {
    const q = new URLSearchParams({
      q: QUERY,
      maxResults: '50',
      ...(token ? { pageToken: token } : {}),
    });
    const list = await get(`gmail/v1/users/me/messages?${q}`);
    for (const m of list.messages ?? []) {
      await get(
        `gmail/v1/users/me/messages/${m.id}?${new URLSearchParams({ format: 'full', fields: FIELDS })}`,
      );
      found++;
    }
    token = list.nextPageToken;
  }
  return found;
}

async function searchOnce(run) {
  fake.resetCounters();
  const t0 = performance.now();
  const found = await run();
  const ms = performance.now() - t0;
  return { ms, ...(await fake.stats()), found };
}

async function measure(run) {
  const runs = [];
  for (let i = 0; i < ROUNDS; i++) runs.push(await searchOnce(run));
  runs.sort((a, b) => a.ms - b.ms);
  return runs[Math.floor(runs.length / 2)];
}

const pad = (s, n) => String(s).padStart(n);
console.log(
  `Gmail search bench — node ${process.version}, ${LATENCY_MS} ms added to every fake Gmail request, median of ${ROUNDS}`,
);
console.log("wall÷latency: wall time in round trips of latency (our CPU and the fake's included);");
console.log(
  'chain: the longest run of requests each sent after the previous one was answered (the fake counts it).\n',
);
console.log(
  `  ${'case'.padEnd(44)} ${pad('wall', 9)} ${pad('requests', 9)} ${pad('calls', 6)} ${pad('wall÷latency', 13)} ${pad('chain', 6)}`,
);
try {
  for (const pages of [1, 2]) {
    const n = pages * 50;
    const source = new GmailSource(access);
    // The first search loads the Gmail libraries and may look up label names (then known).
    const cold = await searchOnce(() => airlockSearch(source, pages));
    const airlock = await measure(() => airlockSearch(source, pages));
    const baseline = await measure(() => sequentialSearch(pages));
    for (const [label, r] of [
      [`${n} messages, Airlock, first search (cold)`, cold],
      [`${n} messages, Airlock (list + batch)`, airlock],
      [`${n} messages, one at a time (baseline)`, baseline],
    ]) {
      if (r.found !== n) throw new Error(`${label}: found ${r.found}, expected ${n}`);
      console.log(
        `  ${label.padEnd(44)} ${pad(r.ms.toFixed(0) + ' ms', 9)} ${pad(r.requests, 9)} ${pad(r.calls, 6)} ${pad((r.ms / LATENCY_MS).toFixed(1), 13)} ${pad(r.roundTrips, 6)}`,
      );
    }
    const target = n === 50 ? '   (targets: ≥ 10×, ≤ 3 round trips)' : '';
    console.log(
      `  → ${(baseline.ms / airlock.ms).toFixed(1)}× faster than one at a time; ${(airlock.ms / LATENCY_MS).toFixed(1)} round trips of wall time, chain of ${airlock.roundTrips}${target}\n`,
    );
  }
} finally {
  fake.stop();
}
