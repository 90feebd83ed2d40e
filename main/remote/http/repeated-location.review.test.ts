import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPClientTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leanTransport } from './lean-transport.js';

/**
 * Review of h-rd: node:http keeps only the first of a repeated Location (its `matchKnownFields`
 * drops the rest, as it drops a repeated Content-Type), where fetch joins them with ", ". The SDK
 * transport's same-origin redirect handling reads `headers.get('location')`, so on a 307 with two
 * Location lines the stock client follows `new URL('/a, /b', url)` — the path `/a,%20/b` — and
 * Airlock's lean client must go there too, never to `/a` alone.
 */
let srv: Server;
let url: URL;
let locations: string[] = [];
const seen: string[] = [];

beforeAll(async () => {
  srv = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const m = JSON.parse(body || '{}') as { id?: number };
      seen.push(req.url ?? '');
      if (req.url === '/mcp')
        return void res
          .writeHead(
            307,
            locations.flatMap((l) => ['Location', l]),
          )
          .end();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { at: req.url } }));
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  url = new URL(`http://127.0.0.1:${(srv.address() as AddressInfo).port}/mcp`);
});
afterAll(() => new Promise<void>((r) => srv.close(() => r())));

const CALL: JSONRPCMessage = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x' } };

async function run(t: StreamableHTTPClientTransport): Promise<{ paths: string[]; got: unknown[] }> {
  seen.length = 0;
  const got: unknown[] = [];
  t.onmessage = (m) => void got.push(m);
  await t.start();
  await t.send(CALL).catch((e: unknown) => void got.push(`refused: ${(e as Error).message}`));
  await t.close();
  return { paths: [...seen], got };
}

const path = fc.constantFrom('/a', '/b', '/a?x=1', 'b', '/c d');
const lines = fc.array(path, { minLength: 1, maxLength: 3 });

async function same(ls: string[]): Promise<void> {
  locations = ls;
  const want = await run(new StreamableHTTPClientTransport(url));
  const lean = await run(leanTransport(url, {}, undefined, undefined, false)!);
  expect(lean).toEqual(want);
}

describe('a redirect with Location repeated is followed where the stock SDK client follows it', () => {
  it('two Location lines: the joined value, as fetch joins it', async () => {
    await same(['/a', '/b']);
    expect(seen).toEqual(['/mcp', '/a,%20/b']);
  });

  it('generated Location lines', async () => {
    await fc.assert(fc.asyncProperty(lines, same), { seed: 4242, numRuns: 25 });
  });

  it('held-out seed', async () => {
    await fc.assert(fc.asyncProperty(lines, same), { seed: 97, numRuns: 15 });
  });
});
