import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { agentClient, startRemoteApp, until } from '../../../test-support/remote-app.js';
import { MAX_SERVER_TOOLS } from './upstream.js';

/**
 * A hostile server lists more tools than any real one (issue 17: a server cannot exhaust the
 * machine). Before the bound, 1,000,000 tools in one 30 MB answer were all taken: 1.6 GB of
 * memory, a 57 MB settings.json (each tool pinned to `ask`), and every agent's `tools/list` held
 * the event loop — every agent, approval and page — for 12 s. Now the server is in error, naming
 * the limit, and offers nothing; another server is unaffected.
 */
const cleanup = cleanupAfterEach();

async function listing(n: number): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const m = JSON.parse(body) as { id?: number; method: string };
      if (m.id === undefined) return void res.writeHead(202).end();
      const results: Record<string, unknown> = {
        initialize: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'many', version: '1' },
        },
        'tools/list': {
          tools: Array.from({ length: n }, (_, i) => ({
            name: `t${i}`,
            inputSchema: { type: 'object' },
          })),
        },
      };
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: results[m.method] ?? {} }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('a server listing too many tools', () => {
  it('is in error naming the limit and offers nothing; a server at the limit is served', async () => {
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    await t.app.control.addRemote({ name: 'many', url: await listing(MAX_SERVER_TOOLS + 1) });
    await t.app.control.addRemote({ name: 'fine', url: await listing(MAX_SERVER_TOOLS) });
    const remote = async (name: string) =>
      (await t.app.control.listRemotes()).find((r) => r.name === name);
    const settled = async (name: string) =>
      !['loading', undefined].includes((await remote(name))?.state);
    await until(t.app, async () => (await settled('many')) && (await settled('fine')));
    expect((await remote('fine'))?.state).toBe('ready');
    expect((await remote('many'))?.state).toBe('error');
    expect((await remote('many'))?.detail).toContain(
      `lists ${MAX_SERVER_TOOLS + 1} tools; Airlock takes at most ${MAX_SERVER_TOOLS}`,
    );

    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());
    const names = (await c.listTools()).tools.map((x) => x.name);
    expect(names.filter((n) => n.startsWith('many__'))).toEqual([]);
    expect(names.filter((n) => n.startsWith('fine__'))).toHaveLength(MAX_SERVER_TOOLS);
    expect(readFileSync(join(t.dataDir, 'settings.json'), 'utf8')).not.toContain('many/t');
  });
});
