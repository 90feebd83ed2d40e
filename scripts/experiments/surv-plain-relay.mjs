// Throwaway (issue 34, docs/performance.md "What keeps a finished call's objects alive at a
// scavenge"): how much a plain node:http relay, with none of Airlock's code, promotes to old
// space per call under the same load shape as bench-era-rate.mjs (8 keep-alive clients, closed
// loop, POSTs of a small JSON-RPC body; the relay POSTs each on to an upstream over a keep-alive
// Agent and answers with what came back). Read exactly as the bench's probe reads it: V8's
// GCProfiler, per scavenge, the old space's growth across it.
//
//   node scripts/experiments/surv-plain-relay.mjs [--clients 8] [--calls 8000] [--direct] [--map] [--slow N] [--listener] [--rotate N [--empty delete|reverse|blank|drop|clear]]
import { fork } from 'node:child_process';
import http from 'node:http';
import v8 from 'node:v8';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1];
};
const role = process.env.SURV_ROLE;
const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { message: 'm1' } },
});

if (role === 'upstream') {
  http
    .createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const { id } = JSON.parse(Buffer.concat(chunks));
        const out = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'Echo: m1' }] } })}\n\n`;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(out);
      });
    })
    .listen(0, '127.0.0.1', function () {
      process.send(this.address().port);
    });
} else if (role === 'gateway') {
  const up = Number(process.env.SURV_UP);
  const agent = new http.Agent({ keepAlive: true });
  let promoted = 0;
  let scav = 0;
  let survived = 0;
  // --map: the relay keeps each call in flight in one long-lived Map (as a gateway keeps its
  // calls by id), set at the start and deleted at the end.
  let inFlight = process.env.SURV_MAP === '1' ? new Map() : null;
  // --rotate N: every N calls the live entries move to a new Map (its table young) and are deleted
  // from the old one one by one (a deleted entry's key and value become holes), so no abandoned
  // old-space table keeps calls.
  const rotate = Number(process.env.SURV_ROTATE);
  const empty = process.env.SURV_EMPTY;
  // A long-lived Map's table is old once the Map has outlived two scavenges (as Airlock's maps
  // have, made at start); V8's OrderedHashTable::Rehash then allocates every later table in old
  // space too. Churn enough young garbage here for that to happen before the load.
  inFlight?.set('start', null);
  for (let i = 0, _junk; i < 2e6; i++) _junk = { i };
  inFlight?.delete('start');
  let seq = 0;
  // --listener: each call adds an 'abort' listener (a closure over its req/res) to one long-lived
  // AbortSignal and removes it when done, as a call joins a connection's signal. Node's
  // event_target.js Listener#remove unlinks a listener but keeps its own next/previous.
  const longLived = process.env.SURV_LISTENER === '1' ? new AbortController().signal : null;
  let profiler = new v8.GCProfiler();
  const used = (at, name) => at.heapSpaceStatistics.find((s) => s.spaceName === name).spaceUsedSize;
  http
    .createServer((req, res) => {
      if (req.url === '/start') {
        profiler = new v8.GCProfiler();
        profiler.start();
        return res.end('ok');
      }
      if (req.url === '/stop') {
        for (const g of profiler.stop().statistics) {
          if (g.gcType !== 'Scavenge') continue;
          scav++;
          survived += used(g.afterGC, 'new_space');
          promoted += used(g.afterGC, 'old_space') - used(g.beforeGC, 'old_space');
        }
        return res.end(JSON.stringify({ promoted, scav, survived }));
      }
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const msg = JSON.parse(Buffer.concat(chunks));
        const key = seq++;
        if (inFlight && rotate && key % rotate === 0) {
          const old = inFlight;
          inFlight = new Map(old);
          // --empty: how the left Map is emptied (review of h-surv): `delete` one by one (the
          // default), `reverse` (the same, last first), `blank` (every value set to null first, so
          // a shrink's rehash on delete copies only Smi keys), `drop` (left as it is), `clear`.
          if (empty === 'blank') for (const k of old.keys()) old.set(k, null);
          if (empty === 'clear') old.clear();
          else if (empty === 'reverse') for (const k of [...old.keys()].reverse()) old.delete(k);
          else if (empty !== 'drop') for (const k of [...old.keys()]) old.delete(k);
        }
        inFlight?.set(key, { req, res, msg });
        res.on('finish', () => inFlight?.delete(key));
        if (longLived) {
          const onAbort = () => res.destroy();
          longLived.addEventListener('abort', onAbort, { once: true });
          res.on('finish', () => longLived.removeEventListener('abort', onAbort));
        }
        if (!up) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content: [] } }));
        }
        const body = JSON.stringify(msg);
        // --slow N: every Nth call waits 150 ms before its upstream POST, so its objects outlive
        // two scavenges and are promoted (seeds: old objects that then die).
        const slow = Number(process.env.SURV_SLOW);
        if (slow && key % slow === 0) return setTimeout(relay, 150, body);
        relay(body);
      });
      function relay(body) {
        const q = http.request(
          {
            host: '127.0.0.1',
            port: up,
            method: 'POST',
            path: '/mcp',
            agent,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            },
          },
          (r) => {
            const parts = [];
            r.setEncoding('utf8');
            r.on('data', (c) => parts.push(c));
            r.on('end', () => {
              const text = parts.join('');
              const answer = JSON.parse(text.slice(text.indexOf('data: ') + 6));
              res.writeHead(200, { 'content-type': 'application/json' });
              res.end(JSON.stringify(answer));
            });
          },
        );
        q.end(body);
      }
    })
    .listen(0, '127.0.0.1', function () {
      process.send(this.address().port);
    });
} else if (role === 'clients') {
  const port = Number(process.env.SURV_GW);
  const agent = new http.Agent({ keepAlive: true });
  const call = (path = '/mcp', body = BODY) =>
    new Promise((resolve, reject) => {
      const q = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path,
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (r) => {
          const parts = [];
          r.on('data', (c) => parts.push(c));
          r.on('end', () => resolve(Buffer.concat(parts).toString()));
        },
      );
      q.on('error', reject);
      q.end(body);
    });
  const clients = Number(process.env.SURV_CLIENTS);
  const calls = Number(process.env.SURV_CALLS);
  const run = async (n) => {
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next++ < n) await call();
      }),
    );
    return performance.now() - t0;
  };
  await run(2000); // warm-up
  await call('/start', '');
  const ms = await run(calls);
  const s = JSON.parse(await call('/stop', ''));
  process.send({ ...s, ms });
  process.exit(0);
} else {
  const clients = Number(arg('clients', 8));
  const calls = Number(arg('calls', 8000));
  const start = (r, env) =>
    new Promise((resolve) => {
      const c = fork(new URL(import.meta.url).pathname, [], {
        env: { ...process.env, SURV_ROLE: r, ...env },
      });
      c.once('message', (m) => resolve([c, m]));
    });
  const [u, upPort] = await start('upstream', {});
  const [g, gwPort] = await start('gateway', {
    SURV_UP: process.argv.includes('--direct') ? '0' : String(upPort),
    SURV_MAP: process.argv.includes('--map') ? '1' : '0',
    SURV_SLOW: arg('slow', '0'),
    SURV_ROTATE: arg('rotate', '0'),
    SURV_EMPTY: arg('empty', 'delete'),
    SURV_LISTENER: process.argv.includes('--listener') ? '1' : '0',
  });
  const [, s] = await start('clients', {
    SURV_GW: String(gwPort),
    SURV_CLIENTS: String(clients),
    SURV_CALLS: String(calls),
  });
  console.log(
    JSON.stringify({
      mode: process.argv.includes('--direct') ? 'direct' : 'relay',
      map: process.argv.includes('--map'),
      slow: Number(arg('slow', 0)),
      rotate: Number(arg('rotate', 0)),
      empty: arg('empty', 'delete'),
      listener: process.argv.includes('--listener'),
      clients,
      'calls/s': Math.round(calls / (s.ms / 1000)),
      'scavenges/1k': +((s.scav / calls) * 1000).toFixed(1),
      'survivors KiB': Math.round(s.survived / s.scav / 1024),
      'promoted KiB/call': +(s.promoted / calls / 1024).toFixed(2),
    }),
  );
  u.kill();
  g.kill();
}
