// Throwaway (issue 34, wave 3 session 31): the upstream leg's HTTP client alone. Sequential POSTs
// from this process to a node:http server in a child process that answers one SSE event, in
// blocks of 10 alternating between node:http's `request` (keep-alive Agent), undici's
// `Client.dispatch` with a handler object, and undici's `Client.request`; p50/p90 round trip and
// this process's CPU per call (client side only). docs/performance.md, "The upstream leg on
// undici's dispatcher: measured, not kept (wave 3 session 31)".
//
//   node scripts/experiments/upstream-client-micro.mjs [calls=3000]
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import http from 'node:http';

if (process.argv[2] === '--server') {
  const body =
    'event: message\ndata: {"result":{"content":[{"type":"text","text":"Echo: hello"}]},"jsonrpc":"2.0","id":1}\n\n';
  const s = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'abc' });
      res.end(body);
    });
  });
  s.keepAliveTimeout = 60_000;
  s.listen(0, '127.0.0.1', () => process.send(s.address().port));
} else {
  // undici is in the tree as a dev tool's dependency (the MCP conformance suite's), not Airlock's own.
  const { Client } = createRequire(import.meta.url)('undici');
  const child = fork(new URL(import.meta.url).pathname, ['--server']);
  const port = await new Promise((r) => child.once('message', r));
  const payload = JSON.stringify({
    method: 'tools/call',
    params: { name: 'echo', arguments: { message: 'hello' } },
    jsonrpc: '2.0',
    id: 1,
  });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-session-id': 'abc',
    'mcp-protocol-version': '2025-11-25',
    'content-length': String(Buffer.byteLength(payload)),
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const viaHttp = () =>
    new Promise((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/mcp', agent, headers },
        (res) => {
          let s = '';
          res.setEncoding('utf8');
          res.on('data', (c) => (s += c));
          res.on('end', () => resolve(s));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const uc = new Client(`http://127.0.0.1:${port}`, { pipelining: 1 });
  const viaDispatch = () =>
    new Promise((resolve, reject) => {
      let s = '';
      uc.dispatch(
        { path: '/mcp', method: 'POST', headers, body: payload },
        {
          onConnect() {},
          onHeaders: () => true,
          onData: (c) => ((s += c.toString('utf8')), true),
          onComplete: () => resolve(s),
          onError: reject,
        },
      );
    });
  const viaRequest = async () =>
    (await uc.request({ path: '/mcp', method: 'POST', headers, body: payload })).body.text();
  const legs = {
    'node:http request': viaHttp,
    'undici dispatch': viaDispatch,
    'undici request': viaRequest,
  };
  const N = Number(process.argv[2] ?? 3000);
  const out = Object.fromEntries(Object.keys(legs).map((k) => [k, { t: [], cpu: 0 }]));
  for (let w = 0; w < 500; w++) for (const k in legs) await legs[k]();
  for (let b = 0; b < N / 10; b++)
    for (const k in legs) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < 10; i++) {
        const t0 = process.hrtime.bigint();
        await legs[k]();
        out[k].t.push(Number(process.hrtime.bigint() - t0) / 1e3);
      }
      const c = process.cpuUsage(c0);
      out[k].cpu += c.user + c.system;
    }
  for (const k in legs) {
    const t = out[k].t.sort((a, b) => a - b);
    const at = (q) => t[Math.floor(t.length * q)].toFixed(1);
    console.log(
      `${k.padEnd(18)} p50 ${at(0.5)} µs  p90 ${at(0.9)} µs  CPU ${(out[k].cpu / t.length).toFixed(1)} µs a call`,
    );
  }
  child.kill();
  await uc.close();
  agent.destroy();
}
