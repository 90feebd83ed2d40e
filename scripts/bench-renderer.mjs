// Issue 8 "Measure": (1) the production renderer bundle, gzipped JS (target
// ≤ 250 KB); (2) from an approval event to the approval view painted in
// Chromium (target ≤ 300 ms), p50 over RUNS approvals. Needs `npm run build`.
// Prints figures; asserts nothing.
//
// (2) runs the core in-process (MemoryVault, a one-tool source) serving the
// built renderer, and headless system Chromium on the control URL's
// approvals page. Start: the core emits `approval.requested` (a subscriber
// stamps performance.timeOrigin + now()). End: the page's MutationObserver
// sees the card, then waits one animation frame and one task (the frame has
// been painted) and stamps the same epoch clock. Both ends read the same
// machine clock at sub-millisecond resolution.
/* global window, document, MutationObserver, requestAnimationFrame -- used inside page.evaluate (browser code) */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { chromium } from '@playwright/test';
import { row, startBenchApp, summary } from './bench-lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

function bundle() {
  console.log('\nRenderer bundle (dist/renderer/assets)');
  const dir = join(root, 'dist', 'renderer', 'assets');
  let files;
  try {
    files = readdirSync(dir);
  } catch {
    console.log('  dist/renderer is missing: run `npm run build` first.');
    process.exit(1);
  }
  const size = (ext) => {
    let raw = 0;
    let gz = 0;
    for (const f of files.filter((n) => n.endsWith(ext))) {
      const bytes = readFileSync(join(dir, f));
      raw += bytes.length;
      gz += gzipSync(bytes, { level: 9 }).length;
    }
    return { raw, gz };
  };
  const js = size('.js');
  const css = size('.css');
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  row('JS raw / gzipped', `${kb(js.raw)} / ${kb(js.gz)}`, 'gzipped ≤ 250 KB');
  row('CSS raw / gzipped', `${kb(css.raw)} / ${kb(css.gz)}`);
}

const epoch = () => performance.timeOrigin + performance.now();

async function approvalPaint() {
  console.log(`\nApproval event → approval view painted in Chromium, ${RUNS} runs`);
  const source = {
    id: 'bench',
    kind: 'test',
    label: 'Bench',
    prefix: '',
    ready: async () => {},
    status: () => ({ state: 'ready' }),
    tools: () => [
      {
        name: 'send_note',
        title: 'Send a note',
        description: 'Sends a note to someone.',
        inputSchema: {
          type: 'object',
          properties: { to: { type: 'string' }, body: { type: 'string' } },
          required: ['to', 'body'],
        },
        annotations: { readOnlyHint: false, destructiveHint: false },
      },
    ],
    onChange: () => () => {},
    describeEffect: (_tool, args) => `Send "${args.body}" to ${args.to}`,
    call: async () => ({ content: [{ type: 'text', text: 'sent' }] }),
  };
  const { app, token } = await startBenchApp([source], 'airlock-bench-ui-');
  const emitted = new Map();
  const off = app.events.subscribe((e) => {
    if (e.type === 'approval.requested') emitted.set(e.approval.id, epoch());
  });

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  await page.goto(app.started.controlUrl);
  await page.getByTestId('run-state').getByText('Running').waitFor();
  await page.getByTestId('approvals-empty').waitFor();
  // Stamp the moment each card has been painted: observer → next frame → next task.
  await page.evaluate(() => {
    const painted = (window.__painted = {});
    const seen = new Set();
    const channel = new MessageChannel();
    const queue = [];
    channel.port1.onmessage = () => {
      const id = queue.shift();
      if (id) painted[id] = performance.timeOrigin + performance.now();
    };
    new MutationObserver(() => {
      for (const el of document.querySelectorAll(
        '[data-testid="approval-card"][data-approval-id]',
      )) {
        const id = el.getAttribute('data-approval-id');
        if (seen.has(id)) continue;
        seen.add(id);
        requestAnimationFrame(() => {
          queue.push(id);
          channel.port2.postMessage(null);
        });
      }
    }).observe(document.body, { childList: true, subtree: true });
  });

  const client = new Client(
    { name: 'bench', version: '1' },
    { versionNegotiation: { mode: 'legacy' } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(app.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  const samples = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const call = client.callTool({
      name: 'send_note',
      arguments: { to: 'bob@example.com', body: `note ${i}` },
    });
    const handle = await page.waitForFunction(() => {
      const ids = Object.keys(window.__painted);
      return ids.length ? ids : null;
    });
    const [id] = await handle.jsonValue();
    const paintedAt = await page.evaluate((k) => {
      const t = window.__painted[k];
      delete window.__painted[k];
      return t;
    }, id);
    // The first runs warm the page (JIT, fonts, layout caches); they are not counted.
    if (i >= 3) samples.push(paintedAt - emitted.get(id));
    await app.control.decide(id, { kind: 'deny' });
    await call;
    await page
      .locator(`[data-approval-id="${id}"][data-testid="approval-card"]`)
      .waitFor({ state: 'detached' });
  }
  const s = summary(samples);
  row(
    'approval.requested → card painted p50 / p99',
    `${s.p50.toFixed(1)} ms / ${s.p99.toFixed(1)} ms`,
    'p50 ≤ 300 ms',
  );
  row('min / max', `${Math.min(...samples).toFixed(1)} ms / ${Math.max(...samples).toFixed(1)} ms`);
  off();
  await client.close();
  await browser.close();
  await app.stop();
}

bundle();
await approvalPaint();
