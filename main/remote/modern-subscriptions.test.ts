import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { agentClient, startRemoteApp } from '../../test-support/remote-app.js';

/**
 * A 2026-07-28 upstream has no resources/subscribe: it sends `notifications/resources/updated`
 * only on a `subscriptions/listen` stream that names the URI. An agent's subscription to such a
 * server's resource (2025 `resources/subscribe`, or a 2026-07-28 agent's own listen) used to be
 * answered and never served: Airlock now watches the URIs its agents watch on one listen stream
 * to that server, and each update reaches only the sessions subscribed to it.
 */
const cleanup = cleanupAfterEach();
const URI = 'mem://watched';
const PUBLIC = `airlock://m/${URI}`;

async function modernUpstream(): Promise<string> {
  const handler = createMcpHandler(
    () => {
      const server = new Server(
        { name: 'm', version: '1' },
        { capabilities: { tools: {}, resources: { subscribe: true } } },
      );
      server.setRequestHandler('tools/list', async () => ({
        tools: [
          { name: 'poke', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        ],
      }));
      server.setRequestHandler('tools/call', async () => {
        handler.notify.resourceUpdated(URI);
        return { content: [{ type: 'text', text: 'poked' }] };
      });
      server.setRequestHandler('resources/list', async () => ({
        resources: [{ uri: URI, name: 'watched' }],
      }));
      server.setRequestHandler('resources/read', async (req) => ({
        contents: [{ uri: req.params.uri, text: 'x' }],
      }));
      return server;
    },
    { legacy: 'stateless' },
  );
  const node = toNodeHandler(handler);
  const http = createServer((req, res) => {
    void (async () => {
      let body: unknown;
      if (req.method === 'POST') {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
      }
      await node(req, res, body);
    })();
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  cleanup.push(async () => {
    http.closeAllConnections();
    await new Promise((r) => http.close(r));
  });
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

function updates(c: Client): { seen: string[]; next: () => Promise<string> } {
  const seen: string[] = [];
  const waiters: ((uri: string) => void)[] = [];
  c.setNotificationHandler('notifications/resources/updated', (n) => {
    seen.push(n.params.uri);
    waiters.splice(0).forEach((w) => w(n.params.uri));
  });
  return { seen, next: () => new Promise((r) => waiters.push(r)) };
}

describe('resource subscriptions on a 2026-07-28 upstream', () => {
  it('reach the subscribed 2025 session and 2026-07-28 listen stream, and no one else', async () => {
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    const view = await t.app.control.addRemote({ name: 'm', url: await modernUpstream() });
    expect(view.protocolVersion).toBe('2026-07-28');
    const other = (await t.app.control.addAgent('other')).token;

    const classic = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => classic.close());
    const modern = new Client(
      { name: 'm', version: '1' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await modern.connect(
      new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${other}` } },
      }),
    );
    cleanup.push(() => modern.close());
    const bystander = await agentClient(t.started.mcpUrl, other);
    cleanup.push(() => bystander.close());

    const a = updates(classic);
    const b = updates(modern);
    const none = updates(bystander);
    await classic.subscribeResource({ uri: PUBLIC });
    const sub = await modern.listen({ resourceSubscriptions: [PUBLIC] });
    expect(sub.honoredFilter.resourceSubscriptions).toEqual([PUBLIC]);
    cleanup.push(() => sub.close());

    const both = Promise.all([a.next(), b.next()]);
    await classic.callTool({ name: 'm__poke', arguments: {} });
    expect(await both).toEqual([PUBLIC, PUBLIC]);
    // The bystander session (same agent as the listen stream, never subscribed) hears nothing;
    // a round trip on its own connection first, so an update sent to it would have arrived.
    await bystander.listTools();
    expect(none.seen).toEqual([]);
  });
});
