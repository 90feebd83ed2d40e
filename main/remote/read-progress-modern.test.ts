import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { connectClient } from '../../test-support/harness.js';
import { startRemoteApp } from '../../test-support/remote-app.js';
import { relayLabel } from '../tools/relay-label.js';

/**
 * Review of progress on reads (read-progress.test.ts, whose upstream is a 2025-era server): the
 * same from a 2026-07-28 upstream (stateless, per-request streams), where the server's progress
 * comes on the read's own response stream. Two reads at once, each with its own progress, get
 * only theirs, all before their answers; their words are labelled as the server's.
 */
const cleanup = cleanupAfterEach();

/** A 2026-07-28 server whose reads report three steps named after the URI they read. */
async function modernReporting(): Promise<string> {
  const handler = createMcpHandler(
    () => {
      const server = new Server(
        { name: 'modern', version: '1' },
        { capabilities: { resources: {} } },
      );
      server.setRequestHandler('resources/list', async () => ({
        resources: [
          { uri: 'mem://a', name: 'a' },
          { uri: 'mem://b', name: 'b' },
        ],
      }));
      server.setRequestHandler('resources/read', async (req, ctx) => {
        const token = req.params._meta?.progressToken;
        if (token !== undefined)
          for (const progress of [1, 2, 3])
            await ctx.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken: token, progress, message: `${req.params.uri} ${progress}` },
            });
        return { contents: [{ uri: req.params.uri, text: req.params.uri }] };
      });
      return server;
    },
    { legacy: 'stateless' },
  );
  const node = toNodeHandler(handler);
  const http: HttpServer = createServer((req, res) => void node(req, res));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  cleanup.push(async () => {
    http.closeAllConnections();
    await new Promise((r) => http.close(r));
  });
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

describe('progress on reads from a 2026-07-28 upstream', () => {
  it.each(['legacy', 'auto'] as const)(
    'two reads at once each get their own, before their answers (%s agent)',
    async (mode) => {
      const url = await modernReporting();
      const t = await startRemoteApp();
      cleanup.push(() => t.stop());
      const view = await t.app.control.addRemote({ name: 'svc', url });
      expect(view).toMatchObject({ state: 'ready', protocolVersion: '2026-07-28' });
      const c = await connectClient(t.started.mcpUrl, t.token, mode);
      cleanup.push(() => c.close());

      const seen: Record<string, unknown[]> = { a: [], b: [] };
      const read = (k: 'a' | 'b') =>
        c
          .readResource(
            { uri: `airlock://svc/mem://${k}` },
            { onprogress: (p) => void seen[k]!.push(p) },
          )
          .then((r) => ({ text: (r.contents[0] as { text: string }).text, before: [...seen[k]!] }));
      const [a, b] = await Promise.all([read('a'), read('b')]);
      for (const [k, r] of [
        ['a', a],
        ['b', b],
      ] as const) {
        expect(r.text).toBe(`mem://${k}`);
        expect(r.before).toEqual(
          [1, 2, 3].map((progress) => ({
            progress,
            message: `${relayLabel('svc')} mem://${k} ${progress}`,
          })),
        );
      }
    },
    60_000,
  );
});
