import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { agentClient, startRemoteApp } from '../../../test-support/remote-app.js';
import { UPSTREAM_MESSAGE_LIMIT } from './lean-fetch.js';

/**
 * A hostile remote server answers a call with a small gzip body that decodes to more than one
 * upstream message may hold (lean-fetch.ts, UPSTREAM_MESSAGE_LIMIT). Before the bound, Airlock
 * decoded and kept all of it: a 700 KB answer decoded past V8's longest string, and the
 * `RangeError` thrown in the stream listener ended the process — every agent's gateway. Now the
 * call fails with a tool error naming the limit, and the same server, the gateway and other
 * calls go on.
 */
const cleanup = cleanupAfterEach();

/** `head` + 'A' × (limit + 1 MiB) + `tail`, gzipped (≈ 65 KB on the wire). */
async function bomb(head: string, tail: string): Promise<Buffer> {
  const gz = createGzip({ level: 1 });
  const parts: Buffer[] = [];
  gz.on('data', (c: Buffer) => parts.push(c));
  const ended = new Promise((r) => gz.on('end', r));
  gz.write(head);
  const block = Buffer.alloc(1024 * 1024, 0x41);
  for (let i = 0; i <= UPSTREAM_MESSAGE_LIMIT / block.length; i++)
    if (!gz.write(block)) await new Promise((r) => gz.once('drain', r));
  gz.end(tail);
  await ended;
  return Buffer.concat(parts);
}

/** What `resumable` sends before the bomb: an event id (the stream may be resumed), `retry: 0`. */
const PRIMER = 'id: 1\nretry: 0\ndata: \n\n';

/** A gzip event stream: `primer` (or nothing), then a bomb event answering `id`. */
function sseBomb(res: ServerResponse, id: number, primer: string): void {
  const head = `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`;
  void bomb(`${primer}event: message\ndata: ${head}`, '"}]}}\n\n').then((z) => {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'content-encoding': 'gzip',
      'mcp-session-id': 's1',
    });
    res.end(z);
  });
}

/**
 * A hand-written 2025-era upstream: `fine` answers, `bomb` answers with a gzip bomb. With
 * `resumable`, the bomb's stream has an event id, and a GET resuming it (Last-Event-ID) replays
 * the bomb; `resumed` counts those GETs.
 */
function hostile(sse: boolean, resumable?: { resumed: number }) {
  return (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method === 'GET' && resumable && req.headers['last-event-id'] !== undefined) {
        resumable.resumed++;
        return sseBomb(res, 2, '');
      }
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const m = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
      if (m.id === undefined) return void res.writeHead(202).end();
      const type = sse ? 'text/event-stream' : 'application/json';
      if (m.method === 'tools/call' && m.params?.name === 'bomb' && resumable)
        return sseBomb(res, m.id, PRIMER);
      if (m.method === 'tools/call' && m.params?.name === 'bomb') {
        const head = `{"jsonrpc":"2.0","id":${m.id},"result":{"content":[{"type":"text","text":"`;
        const tail = '"}]}}';
        void bomb(sse ? `event: message\ndata: ${head}` : head, sse ? `${tail}\n\n` : tail).then(
          (z) => {
            res.writeHead(200, {
              'content-type': type,
              'content-encoding': 'gzip',
              'mcp-session-id': 's1',
            });
            res.end(z);
          },
        );
        return;
      }
      const results: Record<string, unknown> = {
        initialize: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'hostile', version: '1' },
        },
        'tools/list': {
          tools: ['fine', 'bomb'].map((name) => ({
            name,
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
  };
}

describe.each([
  ['a JSON answer', false],
  ['an event-stream answer', true],
])('an upstream message over the limit (%s)', (_how, sse) => {
  it('fails the call with the reason; the server, the gateway and other calls go on', async () => {
    const server = createServer(hostile(sse));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    await t.app.control.addRemote({ name: 'hostile', url });
    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());

    const r = await c.callTool({ name: 'hostile__bomb', arguments: {} });
    const text = (r.content as { text?: string }[]).map((b) => b.text ?? '').join('\n');
    expect(r.isError).toBe(true);
    expect(text).toContain('larger than 64 MiB');
    expect(text.length).toBeLessThan(2000);

    const after = await c.callTool({ name: 'hostile__fine', arguments: {} });
    expect(JSON.stringify(after.content)).toContain('fine answer');
    const health = await fetch(`${t.started.url}/healthz`);
    expect(health.status).toBe(200);
  });
});

describe('an event stream that can be resumed, cut for a message over the limit', () => {
  it('is not resumed: the server would replay the message, and Airlock inflate it again', async () => {
    const resumable = { resumed: 0 };
    const server = createServer(hostile(true, resumable));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    await t.app.control.addRemote({ name: 'hostile', url });
    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());

    const r = await c.callTool({ name: 'hostile__bomb', arguments: {} });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toContain('larger than 64 MiB');
    // A resumption would be sent at once (`retry: 0`), before the agent's next call arrives.
    const after = await c.callTool({ name: 'hostile__fine', arguments: {} });
    expect(JSON.stringify(after.content)).toContain('fine answer');
    expect(resumable.resumed).toBe(0);
  });
});
