// The second floor of the passthrough bench (issue 20): the least work any MCP gateway that reads
// the messages must do for one tools/call — less than Airlock can do, by design. It checks a
// bearer token, parses the agent's JSON-RPC body, sends the call upstream on a session of its own
// (keep-alive node:http), reads the upstream's answer with minimal SSE framing, puts the agent's
// id back and answers with one write. No schema checks, no policy, no activity, no progress, no
// cancellation, no SDK: a yardstick, not a product.
//
// Run as a child of bench-passthrough.mjs (--relay-child URL): prints {"url", "token"} once
// listening, and answers "cpu" on stdin with its own process.cpuUsage().
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { answerLines } from './bench-lib.mjs';

const TOKEN = 'relay-token';
const VERSION = '2025-11-25';
/** bench-passthrough.mjs's WAIT_ECHO_MS, the same 2 ms. */
const WAIT_ECHO_MS = 2;

/**
 * A bare upstream session: initialize once, then `call(name, args)` is one keep-alive node:http
 * POST of a tools/call, read with minimal SSE framing, resolving with the JSON-RPC answer. Used by
 * the relay below, and by Airlock's `bare_echo` bench tool: one upstream hop with no MCP client.
 */
export async function bareUpstream(target) {
  const up = new URL(target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let session;
  let nextId = 1;
  const send = (message) => {
    const body = JSON.stringify(message);
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'content-length': Buffer.byteLength(body),
      'mcp-protocol-version': VERSION,
    };
    if (session) headers['mcp-session-id'] = session;
    return new Promise((resolve, reject) => {
      const req = http.request(up, { method: 'POST', headers, agent }, (res) => {
        session ??= res.headers['mcp-session-id'];
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          if (res.statusCode === 202) return resolve(undefined);
          if (!res.headers['content-type']?.startsWith('text/event-stream'))
            return resolve(JSON.parse(text));
          // Minimal SSE framing: the first `data:` line that answers this request's id (a stream
          // may open with an empty priming event, SEP-1699).
          for (const line of text.split('\n'))
            if (line.startsWith('data:') && line.length > 6) {
              const msg = JSON.parse(line.slice(5));
              if (msg.id === message.id) return resolve(msg);
            }
          reject(new Error('no answer in the event stream'));
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  };
  await send({
    jsonrpc: '2.0',
    id: nextId++,
    method: 'initialize',
    params: {
      protocolVersion: VERSION,
      capabilities: {},
      clientInfo: { name: 'bare', version: '1' },
    },
  });
  await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    /** Any other request on the session (the guarded relay's tools/list at start). */
    request: (method, params) => send({ jsonrpc: '2.0', id: nextId++, method, params }),
    call: (name, args) =>
      send({
        jsonrpc: '2.0',
        id: nextId++,
        method: 'tools/call',
        params: { name, arguments: args },
      }),
  };
}

/** A relay's answer to initialize: tools only, the one revision it speaks (shared by both relays). */
export const initializeAnswer = (id, name) => ({
  jsonrpc: '2.0',
  id,
  result: {
    protocolVersion: VERSION,
    capabilities: { tools: {} },
    serverInfo: { name, version: '1' },
  },
});

export async function relayChild(target) {
  const { url, token } = await startRelay(target);
  process.stdout.write(JSON.stringify({ url, token }) + '\n');
  // A clean exit on SIGTERM, so that a --cpu-prof profile gets written (bench-passthrough.mjs
  // --cpu-prof DIR --relay).
  process.once('SIGTERM', () => process.exit(0));
  answerLines();
}

/**
 * The relay on a free loopback port in this process, resolving once it listens: as its own
 * process (relayChild), or inside another one (bench-relay-floor.mjs puts it in Airlock's).
 */
export async function startRelay(target) {
  return relayServer(await bareUpstream(target), 'relay');
}

/**
 * The relay's agent-facing half on a free loopback port, in front of any upstream session with
 * `call(name, args)` resolving to the JSON-RPC answer: bareUpstream's (HTTP) here, or
 * bench-stdio-relay.mjs's (a local server over stdio).
 */
export async function relayServer(upstream, name) {
  const sessions = new Set();
  const server = http.createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return res.writeHead(401).end();
    if (req.method !== 'POST') return res.writeHead(405).end();
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const msg = JSON.parse(text);
      const answer = (m, headers = {}) => {
        const out = JSON.stringify(m);
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(out),
          ...headers,
        });
        res.end(out);
      };
      if (msg.method === 'initialize') {
        const sid = randomUUID();
        sessions.add(sid);
        return answer(initializeAnswer(msg.id, name), { 'mcp-session-id': sid });
      }
      if (!sessions.has(req.headers['mcp-session-id'])) return res.writeHead(404).end();
      if (msg.id === undefined) return res.writeHead(202).end();
      if (msg.method !== 'tools/call')
        return answer({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'no' } });
      // Its own "local tool": the same echo answered here, so that the cost of the upstream hop
      // alone shows as the difference, as Airlock's local_echo does for Airlock.
      if (msg.params?.name === 'local_echo')
        return answer({
          jsonrpc: '2.0',
          id: msg.id,
          result: { content: [{ type: 'text', text: `Echo: ${msg.params.arguments?.message}` }] },
        });
      // The same after a timer (bench-passthrough.mjs's wait_echo): a call resumed after a wait.
      if (msg.params?.name === 'wait_echo')
        return void setTimeout(
          () =>
            answer({
              jsonrpc: '2.0',
              id: msg.id,
              result: {
                content: [{ type: 'text', text: `Echo: ${msg.params.arguments?.message}` }],
              },
            }),
          WAIT_ECHO_MS,
        );
      upstream.call(msg.params.name, msg.params.arguments).then(
        (r) => answer({ ...r, id: msg.id }),
        (err) =>
          answer({ jsonrpc: '2.0', id: msg.id, error: { code: -32603, message: String(err) } }),
      );
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/mcp`, token: TOKEN, server };
}
