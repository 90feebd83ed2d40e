import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip, constants as zlib } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { eventually } from '../../../test-support/eventually.js';
import { agentClient, startRemoteApp } from '../../../test-support/remote-app.js';
import {
  UPSTREAM_IN_FLIGHT_LIMIT,
  resetInFlightPeak,
  upstreamInFlight,
} from '../upstream/in-flight.js';
import { UPSTREAM_VALUE_LIMIT } from '../upstream/json-values.js';

/**
 * A hostile remote server must not exhaust Airlock's memory through what its answers parse into,
 * nor several through how much they send at once (upstream/json-values.ts, upstream/in-flight.ts).
 * Before: 64 MiB of `[{},{},…]` grew the heap by 1.37 GB in `JSON.parse`, and three such answers
 * at once ended `airlock serve` for every agent. Now an answer of more than 2 Mi values is refused
 * unparsed, naming the limit and the server; a 40 MB base64 image still passes; and the answers
 * being read at once share one 256 MiB budget, a message that would pass it failing at once.
 */
const cleanup = cleanupAfterEach();
const MiB = 1024 * 1024;

/** The gzip of `parts` written in turn (a large repetitive body is small on the wire). */
function gzipTo(res: ServerResponse, parts: (string | Buffer)[], end: boolean): void {
  const gz = createGzip({ level: 1, flush: zlib.Z_SYNC_FLUSH });
  gz.pipe(res, { end });
  void (async () => {
    for (const p of parts) if (!gz.write(p)) await new Promise((r) => gz.once('drain', r));
    if (end) gz.end();
    else gz.flush();
  })();
}

/** `unit` × n as one Buffer, built once per size. */
const repeat = (unit: string, bytes: number) =>
  Buffer.from(unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes));

/** The answer bodies, as head + filler + tail: the filler is what makes them large. */
const ANSWERS = {
  // 16 MiB of empty objects: 11 Mi values, ≈ 350 MB of heap once parsed.
  tiny: (id: number) => [
    `{"jsonrpc":"2.0","id":${id},"result":{"content":[`,
    repeat('{},', 16 * MiB),
    '{}]}}',
  ],
  // A 40 MB base64 image: one value, well-behaved however large.
  image: (id: number) => [
    `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"image","mimeType":"image/png","data":"`,
    repeat('QUJD', 40_000_000),
    '"}]}}',
  ],
};

interface Hostile {
  url: string;
  server: Server;
}

/**
 * A hand-written 2025-era upstream: `fine` answers plainly, `tiny` and `image` with ANSWERS, and
 * `big` with the head of a 60 MiB text answer, never finished.
 */
async function hostile(name: string, sse: boolean): Promise<Hostile> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const m = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
      if (m.id === undefined) return void res.writeHead(202).end();
      const type = sse ? 'text/event-stream' : 'application/json';
      const tool = m.method === 'tools/call' ? m.params?.name : undefined;
      if (tool === 'tiny' || tool === 'image' || tool === 'big') {
        res.writeHead(200, {
          'content-type': type,
          'content-encoding': 'gzip',
          'mcp-session-id': 's1',
        });
        const parts =
          tool === 'big'
            ? [
                `{"jsonrpc":"2.0","id":${m.id},"result":{"content":[{"type":"text","text":"`,
                repeat('A', 60 * MiB),
              ]
            : ANSWERS[tool](m.id);
        const framed = sse
          ? ['event: message\ndata: ', ...parts, tool === 'big' ? '' : '\n\n']
          : parts;
        return gzipTo(res, framed, tool !== 'big');
      }
      const results: Record<string, unknown> = {
        initialize: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name, version: '1' },
        },
        'tools/list': {
          tools: ['fine', 'tiny', 'image', 'big'].map((n) => ({
            name: n,
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
          })),
        },
        'tools/call': { content: [{ type: 'text', text: 'fine answer' }] },
      };
      const answer = JSON.stringify({ jsonrpc: '2.0', id: m.id, result: results[m.method] ?? {} });
      res.writeHead(200, { 'content-type': type, 'mcp-session-id': 's1' });
      res.end(sse ? `event: message\ndata: ${answer}\n\n` : answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` };
}

const text = (r: { content?: unknown }) =>
  ((r.content as { text?: string }[]) ?? []).map((b) => b.text ?? '').join('\n');

describe.each([
  ['a JSON answer', false],
  ['an event-stream answer', true],
])('a hostile server’s answer of tiny values (%s)', (_how, sse) => {
  it('is refused unparsed, naming the limit and the server; a 40 MB image passes; the next call works', async () => {
    const h = await hostile('hostile', sse);
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    await t.app.control.addRemote({ name: 'hostile', url: h.url });
    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());

    const r = await c.callTool({ name: 'hostile__tiny', arguments: {} });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain(
      'The remote server "hostile" answered, but Airlock did not read the answer: ',
    );
    expect(text(r)).toContain(
      `holding more than ${UPSTREAM_VALUE_LIMIT.toLocaleString('en')} JSON values; Airlock did not parse it`,
    );
    expect(text(r).length).toBeLessThan(2000);

    const after = await c.callTool({ name: 'hostile__fine', arguments: {} });
    expect(text(after)).toContain('fine answer');

    const image = await c.callTool({ name: 'hostile__image', arguments: {} });
    expect(image.isError).toBeFalsy();
    // After Airlock's own note that a third party's content follows.
    const block = (image.content as { type: string; data?: string }[]).find(
      (b) => b.type === 'image',
    );
    expect(block?.data?.length).toBe(40_000_000);
    expect(upstreamInFlight().now).toBe(0);
  });
});

describe.each([
  ['JSON answers', false],
  ['event-stream answers', true],
])('%s being read at once', (_how, sse) => {
  it('share one budget: of five 60 MiB answers in flight, one fails at once, naming the limit', async () => {
    const servers = await Promise.all([0, 1, 2, 3, 4].map((i) => hostile(`h${i}`, sse)));
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    for (const [i, h] of servers.entries())
      await t.app.control.addRemote({ name: `h${i}`, url: h.url });
    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());
    resetInFlightPeak();

    const settled: { i: number; text: string; isError: boolean }[] = [];
    const calls = servers.map((_, i) =>
      c.callTool({ name: `h${i}__big`, arguments: {} }).then((r) => {
        settled.push({ i, text: text(r), isError: r.isError === true });
      }),
    );
    // 5 × 60 MiB is past the 256 MiB budget, 4 × 60 MiB is not: exactly one is refused, and the
    // other four are read whole (then wait for an end their servers never send).
    await eventually(() => expect(settled).toHaveLength(1));
    await eventually(() => expect(upstreamInFlight().now).toBeGreaterThanOrEqual(4 * 60 * MiB));
    expect(upstreamInFlight().peak).toBeLessThanOrEqual(UPSTREAM_IN_FLIGHT_LIMIT);
    const [refused] = settled;
    expect(refused?.isError).toBe(true);
    expect(refused?.text).toContain(
      `The remote server "h${refused?.i}" answered, but Airlock did not read the answer: `,
    );
    expect(refused?.text).toContain('its limit of 256 MiB for answers being read at once');
    expect(settled).toHaveLength(1);

    // The servers go away: the four calls fail, and all they held is let go.
    for (const h of servers) h.server.closeAllConnections();
    await Promise.all(calls);
    expect(settled.filter((s) => s.isError)).toHaveLength(5);
    await eventually(() => expect(upstreamInFlight().now).toBe(0));
  });
});
