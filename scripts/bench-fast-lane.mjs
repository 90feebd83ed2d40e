// Issue 34, a measurement (never product code): how close would a relay-shaped hot path come to
// the JSON relay if it kept Airlock's own services? Run inside a running Airlock by
// bench-relay-floor.mjs --fast-lane. Each lane is an HTTP server on its own port in Airlock's
// process, shaped like bench-relay.mjs (one listener, the body read with 'data'/'end', one JSON
// write) and, unlike bench-guarded-relay.mjs's least forms, calling Airlock's real code:
//
//   inbound   main/gateway/guards.ts (hostAllowed, originAllowed, bearerToken, readBody,
//             parseJsonBody), AgentService.authenticate (the App's own), a 2025 session in a Map
//             bound to its agent, the answer as one JSON write
//   middle    a CallPipeline (main/calls/call-pipeline.ts) built from the App's own registry,
//             settings, agents, activity log and schema pool, with its own ProvenanceService: the
//             policy, the validation, the taint check, the result's shaping, the provenance index
//             and the Activity row are Airlock's
//   upstream  `lane`: the remote's own RemoteSource (RemoteCalls → lean-call → the SDK client over
//             lean-transport), as Airlock's own /mcp reaches it
//             `raw`: a second remote on the same server whose source's `call` is replaced by one
//             keep-alive node:http POST on a bare session (bench-relay.mjs's bareUpstream), the
//             answer marked untrusted as remote-calls.ts marks it
//
// bench-relay-floor.mjs also calls `raw__echo` through Airlock's own /mcp (the SDK server and
// session transport in front of the bare upstream), so the legs make a two-by-two: inbound
// {Airlock's /mcp, a relay-shaped lane} × upstream {the SDK client, a bare POST}.
//
// Left out, which a real hot path would have to keep: the SDK server's session machinery and the
// 2026-07-28 era, progress and the upstream's own requests and log lines mid-call, cancellation,
// per-agent budgets, the in-flight registry, approvals (never reached: the tool runs without
// asking). So these legs are an upper bound on what such a rewrite could gain, not a design.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { bareUpstream, initializeAnswer } from './bench-relay.mjs';

const dist = (path) => new URL(`../dist/main/${path}`, import.meta.url).href;

/**
 * Starts the two lanes inside `app` (an App whose remote `everything` is connected to `target`).
 * Resolves with { lane: {url, token, tool}, raw: {url, token, tool} } for an agent token `token`.
 */
export async function startFastLanes(app, target, token) {
  const [guards, { CallPipeline }, { ProvenanceService }, { KnownParties }, { markUntrusted }] =
    await Promise.all([
      import(dist('gateway/guards.js')),
      import(dist('calls/call-pipeline.js')),
      import(dist('provenance/provenance-service.js')),
      import(dist('provenance/known-parties.js')),
      import(dist('tools/untrusted.js')),
    ]);
  const view = await app.control.addRemote({ name: 'raw', url: target });
  if (view.state !== 'ready') throw new Error(`raw remote: ${view.detail}`);
  const bare = await bareUpstream(target);
  const rawEntry = app.registry.get('raw__echo');
  // The raw lane's upstream: one POST, no MCP client; marked as remote-calls.ts marks a result.
  rawEntry.source.call = async (tool, args) => {
    const r = await bare.call(tool, args);
    if (r.error) throw new Error(r.error.message);
    return markUntrusted(r.result, 'raw');
  };
  const pipeline = new CallPipeline({
    registry: app.registry,
    settings: app.settings,
    agents: app.agents,
    approvals: null, // an auto call never asks
    grants: null,
    activity: app.activity,
    validator: app.schemaPool,
    events: app.events,
    logger: app.logger,
    provenance: new ProvenanceService({ known: new KnownParties() }),
  });
  const maxBody = app.settings.get().limits.maxBodyBytes;
  const serve = async (tool) => {
    const sessions = new Map(); // id → agent
    const server = http.createServer((req, res) => {
      const refuse = (status) => res.writeHead(status).end();
      if (!guards.hostAllowed(req.headers.host)) return refuse(403);
      if (!guards.originAllowed(req.headers.origin)) return refuse(403);
      const bearer = guards.bearerToken(req);
      const agent = bearer && app.agents.authenticate(bearer);
      if (!agent) return refuse(401);
      if (req.method !== 'POST') return refuse(405);
      guards.readBody(req, maxBody).then(
        (raw) => {
          const parsed = guards.parseJsonBody(raw);
          if (!parsed.ok) return refuse(400);
          const msg = parsed.value;
          const answer = (out, headers = {}) => {
            const body = JSON.stringify(out);
            res.writeHead(200, {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              ...headers,
            });
            res.end(body);
          };
          if (msg.method === 'initialize') {
            const sid = randomUUID();
            sessions.set(sid, agent);
            return answer(initializeAnswer(msg.id, 'fast-lane'), { 'mcp-session-id': sid });
          }
          if (sessions.get(req.headers['mcp-session-id']) !== agent) return refuse(404);
          if (msg.id === undefined) return refuse(202);
          if (msg.method !== 'tools/call')
            return answer({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'no' } });
          const signal = new AbortController().signal;
          pipeline.call(agent, tool, msg.params?.arguments, { signal }).then(
            (result) => answer({ jsonrpc: '2.0', id: msg.id, result }),
            (err) =>
              answer({ jsonrpc: '2.0', id: msg.id, error: { code: -32603, message: String(err) } }),
          );
        },
        () => refuse(400),
      );
    });
    server.keepAliveTimeout = 60_000;
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${server.address().port}/mcp`, token, server };
  };
  return {
    lane: await serve('everything__echo'),
    raw: await serve('raw__echo'),
  };
}
