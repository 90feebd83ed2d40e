import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Transport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leanTransport } from './lean-transport.js';
import { UpstreamClient } from '../upstream/upstream-client.js';

/**
 * Review of h-up: the lean POST edits the header record it is given in place. A 401 answer goes
 * to the SDK's `_send`, which asks the provider to refresh and sends again: the retry must carry
 * the new token (one Authorization, one of each configured header), never the first record's.
 * Then a 307 to another path: the redirected POST also carries the new token.
 */
let srv: Server;
let url: URL;
const calls: { url: string; raw: string[] }[] = [];
let mode: '401' | '307' | 'twice' = '401';
let served = 0;

beforeAll(async () => {
  srv = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const m = JSON.parse(body || '{}') as { id?: number; method?: string };
      if (m.method === 'initialize')
        return void res
          .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' })
          .end(
            JSON.stringify({
              jsonrpc: '2.0',
              id: m.id,
              result: {
                protocolVersion: '2025-11-25',
                capabilities: { tools: {} },
                serverInfo: { name: 'x', version: '1' },
              },
            }),
          );
      if (m.id === undefined) return void res.writeHead(202).end();
      calls.push({ url: req.url ?? '', raw: req.rawHeaders });
      served++;
      if (mode === '401' && served === 1)
        return void res
          .writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' })
          .end('no');
      if (mode === '307' && req.url === '/mcp')
        return void res.writeHead(307, { location: '/moved' }).end();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [] } }));
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  url = new URL(`http://127.0.0.1:${(srv.address() as AddressInfo).port}/mcp`);
});
afterAll(() => new Promise<void>((r) => srv.close(() => r())));

const count = (raw: string[], name: string) =>
  raw.filter((v, i) => i % 2 === 0 && v.toLowerCase() === name).length;
const value = (raw: string[], name: string) =>
  raw.filter((_, i) => i % 2 === 1 && raw[i - 1]!.toLowerCase() === name);

describe.each([true, false])('lean POST, token told at once: %s', (sync) => {
  for (const m of ['401', '307', 'twice'] as const)
    it(`${m}: the request sent again carries the current token, once`, async () => {
      mode = m;
      served = 0;
      calls.length = 0;
      let token = 'old';
      const provider = {
        token: () => Promise.resolve(token),
        ...(sync ? { tokenNow: () => token } : {}),
        onUnauthorized: async () => {
          token = 'new';
        },
      };
      const t = leanTransport(
        url,
        { 'X-Api-Key': 'k1', 'x-trace': 't' },
        provider as never,
      ) as Transport;
      const client = new UpstreamClient(
        { name: 'airlock', version: 'test' },
        { versionNegotiation: { mode: 'legacy' } },
      );
      await client.connect(t);
      if (m === '307') token = 'new';
      const r = await client.callTool({ name: 'echo', arguments: {} });
      expect(r).toEqual({ content: [] });
      if (m === 'twice') {
        // The token renewed between two plain calls: the second lean POST has it, not the first's.
        token = 'new';
        await client.callTool({ name: 'echo', arguments: {} });
        expect(value(calls[0]!.raw, 'authorization')).toEqual(['Bearer old']);
      }
      await client.close();
      const last = calls.at(-1)!;
      expect(calls.length).toBe(2);
      expect(count(last.raw, 'authorization')).toBe(1);
      expect(value(last.raw, 'authorization')).toEqual(['Bearer new']);
      expect(count(last.raw, 'x-api-key')).toBe(1);
      expect(count(last.raw, 'host')).toBe(1);
      expect(count(last.raw, 'content-length')).toBe(1);
      if (m === '401') expect(value(calls[0]!.raw, 'authorization')).toEqual(['Bearer old']);
      if (m === '307') expect(last.url).toBe('/moved');
    });
});
