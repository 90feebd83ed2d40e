#!/usr/bin/env node
// Where a plain remote call's time goes inside Airlock, layer by layer (issue 34). A measurement,
// never product code: no Airlock file carries a probe. This copies dist/, scripts/ and bin/ into a
// scratch folder, writes a stamp at each layer boundary of the copy (STAMPS, matched against the
// built JavaScript; a boundary that moved fails the run and names itself), and runs
// `bench-relay-floor.mjs --segments` there with a preload that records, for every call served
// while no other call was in flight, the microseconds from node:http's start of the request (its
// headers parsed) to each stamp — for Airlock's leg and for the JSON relay's leg in the same
// process, which has stamps of its own. Medians over the sequential calls, per Airlock process.
//
//   npm run build && node scripts/bench-layers.mjs    (npm run bench -- layers)
//   AIRLOCK_LAYERS_KEEP=1 node scripts/bench-layers.mjs   keeps the scratch folder, to read it
//
// node:http's own moments come from its diagnostics channels, as in bench-segments.mjs:
// `created` (http.client.request.created: the upstream ClientRequest built) and `written`
// (http.client.request.start: the request handed to the socket). A stamp costs ≈ 0.3 µs; the
// run's own in-process figures (the --segments table it prints) are the unstamped reference.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * [file, code it sits next to, stamp name, 'before' | 'after']: Airlock's path, then the relay's.
 *
 * The path as it runs since wave 3 session 29 (remapped then; session 17 first set them): the
 * bench's agent is a 2025-11-25 session, so a plain tools/call takes the 2025 lone path
 * (mcp-handlers/lone-call.ts, wave 3 session 16) and never reaches the SDK Server's dispatch
 * (`_onrequest`) or SessionTransport.post and its EventStream: session 17's "SessionTransport.post",
 * "event stream held", "SDK dispatch: tools handler", "SessionTransport.send" and "endWithAnswer"
 * are gone, their places taken by LegacySessions.handle → SessionTransport.postLone (its held
 * head a bare Timeout) → LoneCallServer.runLone → McpEndpoint.trackedCall (tools.ts's steps in
 * one frame) and, on the way back, runLone's `finish` → SessionTransport.respond → answerAsJson.
 * Upstream, RemoteCalls hands the call to lean-call.ts `callUpstream` (callUpstream, leanCallTool
 * and the send are one function now), which writes it straight to the socket (direct-call.ts
 * `directSend` → lean-fetch.ts `open`) and reads the answer from the socket's bytes
 * (direct-events.ts for an event stream, direct-call.ts `readJson` for JSON): session 17's
 * lean-send → lean-fetch `request`/`send` → LeanResponse → lean-transport reader is off the
 * everyday path. Both readers carry the same two stamps; only one runs per call.
 * A 'before' stamp is a statement of its own: never put one before a line that is an unbraced
 * `if`/`for` body or part of an expression.
 */
const STAMPS = [
  ['dist/main/gateway/http-server.js', '    route(req, res) {\n', 'route', 'after'],
  ['dist/main/gateway/http-server.js', '    async mcp(req, res) {\n', 'mcp', 'after'],
  [
    'dist/main/gateway/http-server.js',
    '        const credential = token ? this.o.credentialOf?.(token) : undefined;\n',
    'token digest',
    'after',
  ],
  [
    'dist/main/gateway/http-server.js',
    '                raw = await readBody(req, this.o.maxBodyBytes());\n',
    'body: read starts',
    'before',
  ],
  [
    'dist/main/gateway/http-server.js',
    '            const body = parseJsonBody(raw);\n',
    'body: read',
    'before',
  ],
  [
    'dist/main/gateway/http-server.js',
    '        const waits = this.o.mcp.handle({\n',
    'parsed, to the endpoint',
    'before',
  ],
  // McpEndpoint.handle: the AuthInfo, classify (the SDK's classifyInboundRequest), to the sessions.
  [
    'dist/main/gateway/legacy-sessions.js',
    '    handle(x, authInfo) {\n',
    'LegacySessions.handle',
    'after',
  ],
  [
    'dist/main/gateway/session-transport.js',
    '    postLone(req, res, id) {\n',
    'lone call: SessionTransport.postLone',
    'after',
  ],
  [
    'dist/main/gateway/session-transport.js',
    '        this.held.set(id, setTimeout(this.headDue, FIRST_EVENT_WAIT_MS, id));\n',
    'lone call: head held (a Timeout)',
    'after',
  ],
  [
    'dist/main/gateway/mcp-handlers/lone-call.js',
    '    runLone(call, transport) {\n',
    'lone call: runLone',
    'after',
  ],
  [
    'dist/main/gateway/mcp-endpoint.js',
    '    async trackedCall(agent, relay, name, args, signal, noWait) {\n',
    'handler steps: trackedCall',
    'after',
  ],
  [
    'dist/main/calls/call-pipeline.js',
    '    async call(agent, name, args, opts) {\n',
    'pipeline',
    'after',
  ],
  [
    'dist/main/calls/call-pipeline.js',
    '            result = withPublicLinks(await entry.source.call(entry.def.name, args, ctx), entry.source);\n',
    'pipeline: checked, source called',
    'before',
  ],
  [
    'dist/main/remote/remote-calls.js',
    '                const result = asTask\n',
    'RemoteCalls: sending',
    'before',
  ],
  [
    'dist/main/remote/upstream/lean-call.js',
    'export function callUpstream(client, params, plain, options, sdk = true) {\n',
    'lean call: callUpstream',
    'after',
  ],
  [
    'dist/main/remote/http/direct-call.js',
    'export function directSend(transport, headers, message, failed) {\n',
    'lean call: directSend',
    'after',
  ],
  [
    'dist/main/remote/http/lean-fetch.js',
    'function open(url, headers, body, signal, answered, failed, lookup) {\n',
    'lean-fetch open',
    'after',
  ],
  ['dist/main/remote/http/lean-fetch.js', '            state = 1;\n', 'upstream: head', 'after'],
  [
    'dist/main/remote/http/direct-events.js',
    '            inScope(() => t.onmessage?.(message));\n',
    'upstream: answer parsed',
    'before',
  ],
  [
    'dist/main/remote/http/direct-call.js',
    '            for (const m of messages)\n',
    'upstream: answer parsed',
    'before',
  ],
  [
    'dist/main/remote/http/direct-events.js',
    "    res.on('end', () => {\n",
    'upstream: body ended',
    'after',
  ],
  [
    'dist/main/remote/http/direct-call.js',
    "    res.on('end', () => {\n",
    'upstream: body ended',
    'after',
  ],
  [
    'dist/main/remote/upstream/upstream-client.js',
    '    settled(response) {\n',
    'SDK client: response',
    'after',
  ],
  [
    'dist/main/remote/remote-calls.js',
    '                        await inRelayScope(scope, callUpstream, up.client, params, outputSchema === undefined, options);\n',
    'RemoteCalls: answered',
    'after',
  ],
  [
    'dist/main/calls/call-pipeline.js',
    '            result = withPublicLinks(await entry.source.call(entry.def.name, args, ctx), entry.source);\n',
    'pipeline: source returned',
    'after',
  ],
  [
    'dist/main/gateway/mcp-handlers/lone-call.js',
    '        const finish = (result) => {\n',
    'lone call: finish',
    'after',
  ],
  [
    'dist/main/gateway/session-transport.js',
    '    respond(message) {\n',
    'SessionTransport.respond',
    'after',
  ],
  [
    'dist/main/gateway/event-stream.js',
    'export function answerAsJson(res, sid, answer) {\n',
    'answerAsJson',
    'after',
  ],
  [
    'dist/main/gateway/event-stream.js',
    "        : { 'content-type': 'application/json', 'content-length': length })\n        .end(body);\n",
    'res.end returned',
    'after',
  ],
  // The JSON relay (bench-relay.mjs) in the same process: the same moments where it has them.
  [
    'scripts/bench-relay.mjs',
    '  const server = http.createServer((req, res) => {\n',
    'route',
    'after',
  ],
  ['scripts/bench-relay.mjs', "    req.on('end', () => {\n", 'body: read', 'after'],
  [
    'scripts/bench-relay.mjs',
    '      upstream.call(msg.params.name, msg.params.arguments).then(\n',
    'relay: calls upstream',
    'before',
  ],
  ['scripts/bench-relay.mjs', "        res.on('end', () => {\n", 'upstream: body ended', 'after'],
  ['scripts/bench-relay.mjs', '        res.end(out);\n', 'res.end returned', 'after'],
];

const PRELOAD = `
import dc from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
const now = () => Number(process.hrtime.bigint()) / 1000;
let cur = null; let active = 0; const calls = { airlock: [], relay: [] };
const tracked = new WeakSet();
globalThis.__airlockLayerStamp = (name) => {
  if (cur) cur.m.push([name, now() - cur.t0]);
};
// From node:http's own start of each POST (its headers parsed, as in bench-segments.mjs) to its
// response's finish. One call at a time only, so that its stamps are its own; a GET (an event
// stream held open) is not a call.
dc.subscribe('http.server.request.start', ({ request }) => {
  if (request.method !== 'POST') return;
  tracked.add(request);
  active++;
  if (active === 1) cur = { t0: now(), m: [], clean: true };
  else if (cur) cur.clean = false;
});
dc.subscribe('http.client.request.created', () => globalThis.__airlockLayerStamp('created'));
dc.subscribe('http.client.request.start', () => globalThis.__airlockLayerStamp('written'));
// Kept: a call that went through Airlock's pipeline or the relay's upstream call and reached the
// answer's write (not initialize, tools/list or a notification).
dc.subscribe('http.server.response.finish', ({ request }) => {
  if (!tracked.has(request)) return;
  tracked.delete(request);
  active--;
  if (cur && active === 0) {
    const names = new Set(cur.m.map(([n]) => n));
    const leg = names.has('pipeline') ? 'airlock' : names.has('relay: calls upstream') ? 'relay' : null;
    if (cur.clean && leg && names.has('res.end returned')) calls[leg].push(cur.m);
    cur = null;
  }
});
const table = (calls) => {
  const by = new Map();
  for (const c of calls) {
    const seen = new Map(); let prev = 0;
    for (const [n, t] of c) {
      const k = seen.has(n) ? n + ' #' + (seen.get(n) + 1) : n;
      seen.set(n, (seen.get(n) ?? 0) + 1);
      if (!by.has(k)) by.set(k, { at: [], step: [] });
      by.get(k).at.push(t); by.get(k).step.push(t - prev); prev = t;
    }
  }
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const rows = [...by].filter(([, v]) => v.at.length * 2 > calls.length)
    .map(([k, v]) => ({ k, at: med(v.at), step: med(v.step) })).sort((a, b) => a.at - b.at);
  return { calls: calls.length, rows };
};
process.on('exit', () => {
  if (!calls.airlock.length) return;
  writeFileSync(process.env.AIRLOCK_LAYERS_OUT + '/layers-' + process.pid + '.json', JSON.stringify({ airlock: table(calls.airlock), relay: table(calls.relay) }));
});
`;

const work = mkdtempSync(join(tmpdir(), 'airlock-layers-'));
try {
  for (const d of ['dist', 'scripts', 'bin'])
    cpSync(join(root, d), join(work, d), { recursive: true });
  cpSync(join(root, 'package.json'), join(work, 'package.json'));
  // The benches' fixtures (main/remote/fixtures) are read from the sources, as they are.
  for (const d of ['node_modules', 'main']) symlinkSync(join(root, d), join(work, d));
  for (const [file, anchor, name, where] of STAMPS) {
    const path = join(work, file);
    const text = readFileSync(path, 'utf8');
    const at = text.indexOf(anchor);
    if (at < 0 || text.indexOf(anchor, at + 1) >= 0)
      throw new Error(
        `bench-layers: the code for "${name}" is ${at < 0 ? 'no longer' : 'more than once'} in ${file}; update STAMPS to where that boundary is now`,
      );
    const stamp = `globalThis.__airlockLayerStamp?.(${JSON.stringify(name)});\n`;
    const cut = where === 'after' ? at + anchor.length : at;
    writeFileSync(path, text.slice(0, cut) + stamp + text.slice(cut));
  }
  const preload = join(work, 'layers-preload.mjs');
  writeFileSync(preload, PRELOAD);
  const run = spawnSync(
    process.execPath,
    [join(work, 'scripts/bench-relay-floor.mjs'), '--segments', ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        AIRLOCK_BENCH_CHILD_FLAGS: `--import=${preload}`,
        AIRLOCK_LAYERS_OUT: work,
      },
    },
  );
  if (run.status !== 0)
    throw new Error(`bench-relay-floor.mjs ended with ${run.status ?? run.signal}`);
  const outs = readdirSync(work).filter((f) => f.startsWith('layers-') && f.endsWith('.json'));
  console.log(
    "\nLayer by layer, stamped (µs from node:http's start of the request, its headers parsed; medians over the sequential calls; 'step' is the median time since the boundary before)",
  );
  for (const f of outs) {
    const legs = JSON.parse(readFileSync(join(work, f), 'utf8'));
    for (const [leg, { calls, rows }] of Object.entries(legs)) {
      const who = leg === 'airlock' ? 'Airlock' : 'the JSON relay inside it';
      console.log(`\n  Airlock process ${f.slice(7, -5)}, ${who}: ${calls} calls`);
      console.log(`  ${'boundary'.padEnd(36)}${'at'.padStart(9)}${'step'.padStart(9)}`);
      for (const r of rows)
        console.log(
          `  ${r.k.padEnd(36)}${r.at.toFixed(1).padStart(9)}${r.step.toFixed(1).padStart(9)}`,
        );
    }
  }
} finally {
  if (!process.env.AIRLOCK_LAYERS_KEEP) rmSync(work, { recursive: true, force: true });
}
