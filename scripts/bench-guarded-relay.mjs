#!/usr/bin/env node
// A floor for Airlock's guarantees (issue 34): the JSON relay of bench-relay.mjs plus the least
// per-call work Airlock's guarantees need on a plain auto-approved call, each step done as cheaply
// as Node allows, no SDK. What the JSON relay (≤ 1.5× target) leaves out, this does; what it
// still leaves out is said below. A yardstick, not a product: each step names the Airlock file it
// stands for (steps 1, 2, 6, 8–11 in bench-guarded-steps.mjs).
//
//   1. Host and Origin checks (main/gateway/guards.ts: hostAllowed, originAllowed).
//   2. Bearer token → SHA-256 digest → the agent, by a Map lookup of the digest, per request
//      (main/agents/agent-service.ts: authenticate; main/gateway/guards.ts: bearerToken).
//   3. The body read under a size limit (guards.ts: readBody), one JSON.parse.
//   4. A 2025 session in a Map, bound to its agent and credential
//      (main/gateway/legacy-sessions.ts).
//   5. The tool and its policy, one Map lookup each (main/tools/registry.ts,
//      main/approvals/policy.ts: resolvePolicy); an unknown or disabled tool is refused alike.
//   6. The arguments' digest for the activity row: canonical JSON, SHA-256
//      (main/approvals/canonical.ts: argsDigest).
//   7. The arguments checked by an ajv 2020 validator compiled once from the upstream tool's
//      inputSchema, Airlock's options (main/tools/schema-validator.ts; inline, as
//      schema-worker-pool.ts does for a cheap call).
//   8. The taint check: every string argument looked up in the agent's content index
//      (main/provenance/provenance-service.ts: check; taint-check.ts), after indexing what is
//      still queued.
//   9. The upstream result's text capped (main/tools/result-shaping.ts: capText) and marked
//      untrusted: a note block first and `_meta["airlock/untrusted"]` (main/tools/untrusted.ts:
//      markUntrusted, applied in main/remote/remote-calls.ts).
//  10. The result's text blocks indexed for provenance off the answer path (process.nextTick, as
//      provenance-service.ts: observe): each block's SHA-256 into a two-generation bounded Map
//      (main/provenance/content-index.ts's shape, none of its value extraction or phrase hashing).
//  11. One activity row per call, queued, written by a prepared INSERT in one transaction at most
//      50 ms later, into SQLite (better-sqlite3, WAL, synchronous NORMAL, the activity table and
//      its indexes: main/store/activity.ts, main/store/db.ts).
//  12. The answer as one JSON write (main/gateway/session-route.ts's one-object answer).
//  13. Each call in flight kept in its session by id, so a notifications/cancelled finds it.
//
// Not here, though Airlock does them: relaying progress notifications and the cancel to the
// upstream (the bench's echo sends neither), per-agent budgets, approvals and grants (never
// reached on an auto call), secret redaction of results (a no-op without upstream secrets, as in
// the bench), events to the desktop app and web page, 2026-07-28 requests (this relay speaks
// 2025-11-25 only), list changes, tasks, the MCP SDK's session and protocol machinery.
//
// Run as a child (node scripts/bench-guarded-relay.mjs URL, by bench-peer-gateways.mjs's
// floorChild): prints {"url", "token"} once listening, answers "cpu" on stdin with its own
// process.cpuUsage(), and ends with its stdin.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import {
  agents,
  argsDigest,
  BEARER,
  digest,
  hostAllowed,
  observe,
  openActivity,
  originAllowed,
  SERVER,
  shaped,
  tainted,
  TOKEN,
} from './bench-guarded-steps.mjs';
import { answerLines } from './bench-lib.mjs';
import { bareUpstream, initializeAnswer } from './bench-relay.mjs';

const require = createRequire(import.meta.url);
const BODY_LIMIT = 4 * 1024 * 1024;

export async function guardedRelay(target) {
  const upstream = await bareUpstream(target);
  // 5, 7. The registry: the upstream's tools under Airlock's public names, each validator
  // compiled once (schema-validator.ts keeps compiled validators by schema).
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js');
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const listed = await upstream.request('tools/list', {});
  // Draft-07 `$schema` URIs are not loaded in the 2020 instance: dropped, as Airlock does.
  const compile = ({ $schema: _ignored, ...schema }) => ajv.compile(schema);
  const tools = new Map(
    listed.result.tools.map((t) => [
      `${SERVER}__${t.name}`,
      { upstream: t.name, validate: compile(t.inputSchema ?? { type: 'object' }) },
    ]),
  );
  const policies = new Map([...tools.keys()].map((n) => [n, { enabled: true, approval: 'auto' }]));
  const activity = openActivity();
  const sessions = new Map(); // id → { agent, credential }

  const server = http.createServer((req, res) => {
    const refuse = (status) => res.writeHead(status).end();
    if (!hostAllowed(req.headers.host)) return refuse(403);
    if (!originAllowed(req.headers.origin)) return refuse(403);
    const m = BEARER.exec(req.headers.authorization ?? '');
    const credential = m && digest(m[1]);
    const agent = credential && agents.get(credential);
    if (!agent) return refuse(401);
    if (req.method !== 'POST') return refuse(405);
    if (Number(req.headers['content-length']) > BODY_LIMIT) return refuse(413);
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size <= BODY_LIMIT) chunks.push(c);
      else req.destroy();
    });
    req.on('end', () => {
      let msg;
      try {
        msg = JSON.parse(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
      } catch {
        return refuse(400);
      }
      // A JSON-RPC message or nothing (Airlock refuses the rest before any dispatch): `null` or a
      // number here threw on `msg.method` and ended the process.
      if (!msg || typeof msg !== 'object' || msg.jsonrpc !== '2.0') return refuse(400);
      const answer = (out, headers = {}) => {
        const body = JSON.stringify(out);
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        });
        res.end(body);
      };
      const error = (code, message) =>
        answer({ jsonrpc: '2.0', id: msg.id, error: { code, message } });
      const result = (r) => answer({ jsonrpc: '2.0', id: msg.id, result: r });
      if (msg.method === 'initialize') {
        const sid = randomUUID();
        sessions.set(sid, { agent, credential, inflight: new Map() });
        return answer(initializeAnswer(msg.id, 'guarded-relay'), { 'mcp-session-id': sid });
      }
      const session = sessions.get(req.headers['mcp-session-id']);
      if (!session || session.agent !== agent || session.credential !== credential)
        return refuse(404);
      if (msg.id === undefined) {
        // 13. Cancellation: the call in flight found by its id and its answer dropped
        // (MCP 2025-11-25 basic/utilities/cancellation; the SDK's Protocol keeps one
        // AbortController per request, Airlock's pipeline passes its signal to the source).
        const call = session.inflight.get(msg.params?.requestId);
        if (msg.method === 'notifications/cancelled' && call) call.cancelled = true;
        return refuse(202);
      }
      if (msg.method !== 'tools/call') return error(-32601, 'Method not found');
      const started = performance.now();
      const name = msg.params?.name;
      const tool = tools.get(name);
      const policy = policies.get(name);
      if (!tool || !policy?.enabled) return error(-32602, `Unknown tool: ${name}`);
      const args = msg.params.arguments ?? {};
      const row = { agent, tool: name, started, digest: argsDigest(args) };
      const fail = (text, decision) => {
        activity.add({ ...row, decision, outcome: 'error', detail: text });
        return result({ content: [{ type: 'text', text }], isError: true });
      };
      if (typeof args !== 'object' || Array.isArray(args))
        return fail('Arguments must be a JSON object.', 'rejected');
      if (!tool.validate(args))
        return fail(
          `Invalid arguments for ${name}: ${ajv.errorsText(tool.validate.errors)}`,
          'rejected',
        );
      const taint = tainted(agent, args);
      if (taint || policy.approval !== 'auto')
        return fail(`Waiting for approval (not in this yardstick): ${taint}`, 'pending');
      const call = { cancelled: false };
      session.inflight.set(msg.id, call);
      upstream.call(tool.upstream, args).then(
        (r) => {
          session.inflight.delete(msg.id);
          if (call.cancelled) return void res.writeHead(204).end(); // the agent asked: no answer
          if (r.error) return fail(`${name} failed: ${r.error.message}`, 'auto');
          const out = shaped(r.result);
          activity.add({ ...row, decision: 'auto', outcome: out.isError ? 'error' : 'ok' });
          observe(agent, name, r.result.content ?? []);
          result(out);
        },
        (err) => (session.inflight.delete(msg.id), fail(`${name} failed: ${err.message}`, 'auto')),
      );
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const url = `http://127.0.0.1:${server.address().port}/mcp`;
    process.stdout.write(JSON.stringify({ url, token: TOKEN, tool: `${SERVER}__echo` }) + '\n');
  });
  answerLines({ rows: () => activity.db.prepare('SELECT count(*) AS n FROM activity').get() });
  return server;
}

// A child ends with the benchmark, even one that died on an error (its stdin closes).
// Without an upstream URL (`npm run bench -- --all` runs every bench-*.mjs) it says what it is.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (!process.argv[2]) {
    console.log('  (not a bench by itself: the peer bench runs it, bench-peers.mjs)');
    process.exit(0);
  }
  process.stdin.on('end', () => process.exit(0)).resume();
  await guardedRelay(process.argv[2]);
}
