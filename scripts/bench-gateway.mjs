// Issue 2 and 3 measurements: gateway overhead vs a bare SDK server, cold
// start and idle RSS of `airlock serve`, approval-event latency, policy cost.
// Prints figures and ratios; asserts nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { resolvePolicy } from '../dist/main/approvals/policy.js';
import { subscribeEvents } from '../dist/common/http-control-client.js';
import { ms, row, startBenchApp, summary, timeEach } from './bench-lib.mjs';
import { nodeFlags } from '../bin/node-flags.js';

const N = Number(process.env.BENCH_N ?? 1000);
const ECHO = {
  name: 'echo',
  description: 'Echo',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  trustedReadOnly: true,
};
const echoSource = {
  id: 'bench',
  kind: 'test',
  label: 'Bench',
  prefix: '',
  ready: async () => {},
  status: () => ({ state: 'ready' }),
  tools: () => [
    ECHO,
    {
      name: 'send',
      description: 'Send',
      inputSchema: { type: 'object', properties: { i: { type: 'number' } } },
      annotations: { readOnlyHint: false },
    },
  ],
  onChange: () => () => {},
  call: async (_t, args) => ({ content: [{ type: 'text', text: String(args.text ?? '') }] }),
};

async function client(url, headers, mode) {
  const c = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode } });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return c;
}

async function bareServer() {
  const factory = () => {
    const s = new Server({ name: 'bare', version: '1' }, { capabilities: { tools: {} } });
    s.setRequestHandler('tools/list', async () => ({
      tools: [{ name: 'echo', inputSchema: ECHO.inputSchema }],
    }));
    s.setRequestHandler('tools/call', async (req) => ({
      content: [{ type: 'text', text: String(req.params.arguments?.text ?? '') }],
    }));
    return s;
  };
  const handler = toNodeHandler(createMcpHandler(factory));
  const http = createServer((req, res) => void handler(req, res));
  await new Promise((r) => http.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${http.address().port}/mcp`,
    close: () => new Promise((r) => (http.closeAllConnections(), http.close(r))),
  };
}

async function gatewayVsBare(app, token) {
  console.log(`\nGateway overhead: ${N} sequential tools/call of a trivial tool, same process`);
  const bare = await bareServer();
  for (const mode of ['legacy', 'auto']) {
    const b = await client(bare.url, {}, mode);
    const g = await client(app.started.mcpUrl, { Authorization: `Bearer ${token}` }, mode);
    for (let i = 0; i < 50; i++) {
      await b.callTool({ name: 'echo', arguments: { text: 'x' } });
      await g.callTool({ name: 'echo', arguments: { text: 'x' } });
    }
    const bs = summary(
      await timeEach(N, () => b.callTool({ name: 'echo', arguments: { text: 'x' } })),
    );
    const gs = summary(
      await timeEach(N, () => g.callTool({ name: 'echo', arguments: { text: 'x' } })),
    );
    const era = mode === 'legacy' ? '2025 era' : '2026-07-28 era';
    row(`${era}: bare SDK server p50 / p99`, `${ms(bs.p50)} / ${ms(bs.p99)}`);
    row(`${era}: through Airlock p50 / p99`, `${ms(gs.p50)} / ${ms(gs.p99)}`);
    row(`${era}: ratio p50 (gateway / bare)`, `${(gs.p50 / bs.p50).toFixed(2)}x`, '≤ 1.25x');
    await b.close();
    await g.close();
  }
  await bare.close();
}

async function approvalLatency(app, token) {
  console.log(
    '\nApproval: tools/call arrival → approval.requested at a subscribed UI (SSE over HTTP)',
  );
  const controlToken = new URL(app.started.controlUrl).hash.replace('#token=', '');
  let resolveEvent;
  const unsubscribe = subscribeEvents(
    app.started.url,
    controlToken,
    (e) => e.type === 'approval.requested' && resolveEvent?.(e.approval),
  );
  await new Promise((r) => setTimeout(r, 300));
  const g = await client(app.started.mcpUrl, { Authorization: `Bearer ${token}` }, 'legacy');
  const samples = [];
  for (let i = 0; i < 200; i++) {
    const seen = new Promise((r) => (resolveEvent = r));
    const t0 = performance.now();
    const call = g.callTool({ name: 'send', arguments: { i } });
    const approval = await seen;
    samples.push(performance.now() - t0);
    await app.control.decide(approval.id, { kind: 'deny' });
    await call;
  }
  const s = summary(samples);
  row('client send → UI event p50 / p99', `${ms(s.p50)} / ${ms(s.p99)}`, 'p50 ≤ 20 ms');
  unsubscribe();
  await g.close();

  console.log('\nPolicy decision for an auto call (resolvePolicy), 100,000 calls');
  const entry = app.registry.get('echo');
  const settings = app.settings.get();
  const agent = app.agents.get('bench');
  const per = [];
  for (let batch = 0; batch < 100; batch++) {
    const t0 = performance.now();
    for (let i = 0; i < 1000; i++) resolvePolicy(settings, entry, agent);
    per.push((performance.now() - t0) / 1000);
  }
  row('per decision p50', ms(summary(per).p50), '≤ 0.05 ms');
}

async function coldStart() {
  console.log('\n`airlock serve` cold start (process spawn → ready line) and idle RSS, 5 runs');
  const bin = new URL('../bin/airlock.js', import.meta.url).pathname;
  const starts = [];
  let rss = 0;
  for (let i = 0; i < 5; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'airlock-bench-'));
    const t0 = performance.now();
    // As Airlock's launchers start it (bin/node-flags.js).
    const proc = spawn(
      process.execPath,
      [...nodeFlags(), bin, 'serve', '--port', '0', '--data-dir', dir],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    await new Promise((r) => createInterface({ input: proc.stdout }).once('line', r));
    starts.push(performance.now() - t0);
    if (i === 4) {
      await new Promise((r) => setTimeout(r, 2000));
      rss =
        Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))?.[1] ?? 0) /
        1024;
    }
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
  }
  row(
    'cold start p50 / max',
    `${ms(summary(starts).p50)} / ${ms(Math.max(...starts))}`,
    '≤ 500 ms',
  );
  row('idle RSS after ready + 2 s', `${rss.toFixed(1)} MB`, '≤ 100 MB');
}

const { app, token } = await startBenchApp([echoSource]);
await gatewayVsBare(app, token);
await approvalLatency(app, token);
await app.stop();
await coldStart();
