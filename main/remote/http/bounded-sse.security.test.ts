import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepMessages } from '../../../test-support/deep-upstream.js';
import { connectUpstream, type Upstream } from '../upstream/upstream.js';

/**
 * The legacy HTTP+SSE leg bounds a server's messages as the lean leg and stdio do
 * (bounded-sse.ts): its SDK transport parsed them with no bound, so a result nested 10,000 deep
 * reached the approval store and the agent's answer whole. A legacy server (GET /sse for the
 * stream, POST /messages for requests, answers on the stream), speaking deep-upstream.ts's table.
 */
function legacyServer() {
  let stream: ServerResponse | undefined;
  return createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: endpoint\ndata: /messages\n\n');
      stream = res;
      return;
    }
    if (!req.url?.startsWith('/messages')) return void res.writeHead(404).end();
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.writeHead(202).end();
      const m = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
      if (m.id === undefined) return;
      const result =
        m.method === 'initialize'
          ? {
              protocolVersion: '2025-06-18',
              capabilities: { tools: {} },
              serverInfo: { name: 'legacy', version: '1' },
            }
          : {};
      const lines =
        m.method === 'tools/call'
          ? deepMessages(m.params?.name ?? '', m.id, 10_000)
          : [JSON.stringify({ jsonrpc: '2.0', id: m.id, result })];
      for (const d of lines) stream?.write(`event: message\ndata: ${d}\n\n`);
    });
  });
}

describe('a legacy HTTP+SSE server whose answers nest 10,000 deep', () => {
  const server = legacyServer();
  let up: Upstream;
  const errors: Error[] = [];
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    up = await connectUpstream({
      url: new URL(`http://127.0.0.1:${port}/sse`),
      headers: {},
      only: 'sse',
      timeoutMs: 60_000,
      clientVersion: '1',
      onError: (e) => errors.push(e),
    });
  });
  afterAll(async () => {
    await up.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it.each(['meta', 'content_meta', 'structured'])(
    'the call (%s) fails at once with the depth refusal, not the deep result',
    async (name) => {
      expect(up.transport).toBe('sse');
      await expect(up.client.callTool({ name, arguments: {} })).rejects.toThrow(
        /nested deeper than 128 levels; Airlock did not parse it/,
      );
    },
  );

  it('a deep notification is reported and skipped; the answer after it goes through', async () => {
    const r = await up.client.callTool({ name: 'notify', arguments: {} });
    expect(r.content).toEqual([{ type: 'text', text: 'fine' }]);
    expect(errors.map((e) => e.message)).toContainEqual(
      expect.stringMatching(/nested deeper than 128 levels/),
    );
  });
});
