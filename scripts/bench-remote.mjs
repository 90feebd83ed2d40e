#!/usr/bin/env node
// Remote-server passthrough benchmark (issue 4, "Measure"). Plain Node ESM over dist/:
// run `npm run build:main` first. Prints figures and ratios; asserts nothing.
//
//   1. 1,000 sequential calls of server-everything's echo tool, direct vs through Airlock
//      (same run, same upstream): added p50 / p99.            targets: ≤ 0.5 ms / ≤ 2 ms
//   2. 8 concurrent clients: throughput through Airlock vs direct.   target: ≥ 0.8×
//   3. tools/list through Airlock with 40 upstreams × 50 tools: p50.  target: ≤ 20 ms
//
// server-everything runs as a child process pinned to 127.0.0.1; the 40 upstreams of (3)
// are in-process SDK servers on loopback ports.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEverything } from './bench-lib.mjs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Server } from '@modelcontextprotocol/server';

const root = fileURLToPath(new URL('..', import.meta.url));
const { App } = await import(join(root, 'dist/main/app/app.js'));
const { Logger } = await import(join(root, 'dist/main/platform/log.js'));
const { MemoryVault } = await import(join(root, 'dist/main/platform/vault/vault.js'));

const SEQUENTIAL = 1000;
const WARMUP = 200;
const CONCURRENT_CLIENTS = 8;
const CALLS_PER_CLIENT = 250;
const UPSTREAMS = 40;
const TOOLS_EACH = 50;
const LIST_ROUNDS = 200;

const pct = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (n) => `${n.toFixed(3)} ms`;

/**
 * Airlock in its own process, as in real use (in-process, it would share one event loop
 * with the benchmark's clients). The child adds the given remotes, then prints one JSON line.
 */
async function startAirlock(remotes) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--airlock-child'], {
    env: { ...process.env, AIRLOCK_BENCH_REMOTES: JSON.stringify(remotes) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const info = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      if (buf.includes('\n')) resolve(JSON.parse(buf.split('\n')[0]));
    });
    child.once('exit', (code) => reject(new Error(`airlock child exited ${code}`)));
  });
  if (info.error) throw new Error(info.error);
  return { ...info, stop: () => child.kill('SIGTERM') };
}

async function airlockChild() {
  const dataDir = mkdtempSync(join(tmpdir(), 'airlock-bench-'));
  const app = new App({
    dataDir,
    port: 0,
    vault: new MemoryVault(),
    skipLock: true,
    logger: new Logger({ stderr: false }),
  });
  const started = await app.start();
  const { token } = await app.control.addAgent('bench');
  const t0 = performance.now();
  const views = await Promise.all(
    JSON.parse(process.env.AIRLOCK_BENCH_REMOTES ?? '[]').map((r) => app.control.addRemote(r)),
  );
  const addMs = performance.now() - t0;
  const bad = views.find((v) => v.state !== 'ready');
  process.stdout.write(
    JSON.stringify(
      bad ? { error: `${bad.name}: ${bad.detail}` } : { mcpUrl: started.mcpUrl, token, addMs },
    ) + '\n',
  );
  process.once('SIGTERM', () => {
    void app.stop().finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

async function client(url, token) {
  const c = new Client({ name: 'bench', version: '1' });
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  // Same per-request signal as Airlock's own upstream client (main/remote/upstream/upstream.ts), so long runs
  // do not pile abort listeners onto the SDK's transport-wide signal.
  const perRequest = (u, init) =>
    fetch(u, init?.signal ? { ...init, signal: AbortSignal.any([init.signal]) } : init);
  await c.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers },
      fetch: perRequest,
    }),
  );
  return c;
}

async function timeCalls(c, name, n) {
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await c.callTool({
      name,
      arguments: name === 'airlock_status' ? {} : { message: `m${i}` },
    });
    out[i] = performance.now() - t0;
    if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  }
  return out.sort((a, b) => a - b);
}

async function throughput(clients, name) {
  const t0 = performance.now();
  await Promise.all(clients.map((c) => timeCalls(c, name, CALLS_PER_CLIENT)));
  return (clients.length * CALLS_PER_CLIENT) / ((performance.now() - t0) / 1000);
}

/** An in-process upstream with `tools` tools, 2025-era sessions, on a loopback port. */
async function fakeUpstream(index, tools) {
  const defs = Array.from({ length: tools }, (_, i) => ({
    name: `tool_${i}_of_server_${index}`,
    description: `Tool ${i} of upstream ${index}: does a thing with its arguments.`,
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a'],
    },
    annotations: { readOnlyHint: i % 2 === 0 },
  }));
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    const sid = req.headers['mcp-session-id'];
    if (sid) {
      const t = sessions.get(sid);
      if (!t) return res.writeHead(404).end();
      return t.handleRequest(req, res, body);
    }
    if (body?.method !== 'initialize') return res.writeHead(400).end();
    const server = new Server(
      { name: `up${index}`, version: '1' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler('tools/list', async () => ({ tools: defs }));
    server.setRequestHandler('tools/call', async () => ({
      content: [{ type: 'text', text: 'ok' }],
    }));
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, transport),
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise((r) => http.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${http.address().port}/mcp`,
    stop: () => {
      http.closeAllConnections();
      http.close();
    },
  };
}

async function main() {
  console.log(`Remote passthrough bench — node ${process.version}, ${new Date().toISOString()}\n`);
  const es = await startEverything();
  const air = await startAirlock([{ name: 'everything', url: es.url }]);
  try {
    const direct = await client(es.url);
    const via = await client(air.mcpUrl, air.token);

    // 1. Sequential latency, interleaved in blocks so both see the same machine state.
    await timeCalls(direct, 'echo', WARMUP);
    await timeCalls(via, 'everything__echo', WARMUP);
    const d = [];
    const a = [];
    for (let block = 0; block < 10; block++) {
      d.push(...(await timeCalls(direct, 'echo', SEQUENTIAL / 10)));
      a.push(...(await timeCalls(via, 'everything__echo', SEQUENTIAL / 10)));
    }
    d.sort((x, y) => x - y);
    a.sort((x, y) => x - y);
    console.log(`1. ${SEQUENTIAL} sequential echo calls`);
    console.log(`   direct          p50 ${ms(pct(d, 50))}   p99 ${ms(pct(d, 99))}`);
    console.log(`   through Airlock p50 ${ms(pct(a, 50))}   p99 ${ms(pct(a, 99))}`);
    console.log(
      `   added           p50 ${ms(pct(a, 50) - pct(d, 50))} (target ≤ 0.5 ms)   p99 ${ms(pct(a, 99) - pct(d, 99))} (target ≤ 2 ms)`,
    );
    // For reading the above: Airlock's own built-in tool, no upstream at all (gateway + pipeline only).
    const own = await timeCalls(via, 'airlock_status', SEQUENTIAL / 2);
    console.log(
      `   (Airlock's built-in airlock_status, no upstream: p50 ${ms(pct(own, 50))}   p99 ${ms(pct(own, 99))})\n`,
    );
    await direct.close();
    await via.close();

    // 2. Throughput with concurrent clients.
    const directClients = await Promise.all(
      Array.from({ length: CONCURRENT_CLIENTS }, () => client(es.url)),
    );
    const viaClients = await Promise.all(
      Array.from({ length: CONCURRENT_CLIENTS }, () => client(air.mcpUrl, air.token)),
    );
    await throughput(directClients, 'echo');
    await throughput(viaClients, 'everything__echo');
    const dt = await throughput(directClients, 'echo');
    const at = await throughput(viaClients, 'everything__echo');
    console.log(`2. ${CONCURRENT_CLIENTS} concurrent clients × ${CALLS_PER_CLIENT} echo calls`);
    console.log(`   direct          ${dt.toFixed(0)} calls/s`);
    console.log(`   through Airlock ${at.toFixed(0)} calls/s`);
    console.log(`   ratio           ${(at / dt).toFixed(2)}× (target ≥ 0.8×)\n`);
    await Promise.all([...directClients, ...viaClients].map((c) => c.close()));
  } finally {
    air.stop();
    es.stop();
  }

  // 3. tools/list with many upstreams.
  const ups = await Promise.all(
    Array.from({ length: UPSTREAMS }, (_, i) => fakeUpstream(i, TOOLS_EACH)),
  );
  const big = await startAirlock(ups.map((u, i) => ({ name: `up${i}`, url: u.url })));
  try {
    const c = await client(big.mcpUrl, big.token);
    const first = await c.listTools();
    const times = [];
    for (let i = 0; i < LIST_ROUNDS; i++) {
      const s = performance.now();
      await c.listTools();
      times.push(performance.now() - s);
    }
    times.sort((x, y) => x - y);
    console.log(
      `3. tools/list through Airlock, ${UPSTREAMS} upstreams × ${TOOLS_EACH} tools (${first.tools.length} tools listed; adding all took ${big.addMs.toFixed(0)} ms)`,
    );
    console.log(`   p50 ${ms(pct(times, 50))} (target ≤ 20 ms)   p99 ${ms(pct(times, 99))}`);
    await c.close();
  } finally {
    big.stop();
    for (const u of ups) u.stop();
  }
}

(process.argv[2] === '--airlock-child' ? airlockChild() : main()).then(
  () => process.argv[2] === '--airlock-child' || process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
