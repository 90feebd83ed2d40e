import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ownAddress } from '../../../test-support/own-addresses.js';
import { callUpstream } from '../upstream/lean-call.js';
import { connectUpstream } from '../upstream/upstream.js';
import type { Resolver } from './address-guard.js';

/**
 * Review of h-up (direct-call.ts): a direct call opens its socket through the connection's
 * address check as lean-send's POST does (address-guard.ts). A server named by a host name on the
 * user's network, which closes its connection after each answer (so each call needs a new socket),
 * then has its name answer 127.0.0.1 (DNS rebinding): the call is refused the same way on both
 * paths and the service on this computer at that port never sees the request or its secret.
 */
const LAN = ownAddress('private');
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(() => r(null)))));
});

async function listen(s: Server, host: string, port = 0): Promise<number> {
  servers.push(s);
  return new Promise<number>((r) =>
    s.listen(port, host, () => r((s.address() as AddressInfo).port)),
  );
}

function upstream(): Server {
  return createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const m = JSON.parse(raw || '{}') as { id?: number; method?: string };
      const head = { 'content-type': 'application/json', connection: 'close' };
      if (m.id === undefined) return void res.writeHead(202, { connection: 'close' }).end();
      const result =
        m.method === 'initialize'
          ? {
              protocolVersion: '2025-11-25',
              capabilities: { tools: {} },
              serverInfo: { name: 'x', version: '1' },
            }
          : m.method === 'tools/call'
            ? { content: [{ type: 'text', text: 'lan' }] }
            : undefined;
      res
        .writeHead(200, head)
        .end(
          JSON.stringify(
            result
              ? { jsonrpc: '2.0', id: m.id, result }
              : { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no' } },
          ),
        );
    });
  });
}

describe.skipIf(!LAN)('DNS rebinding between two direct calls', () => {
  it('the second call’s new socket is judged: refused alike, the local service never asked', async () => {
    const port = await listen(upstream(), LAN!.address);
    const asked: string[] = [];
    await listen(
      createServer((req, res) => {
        asked.push(`${req.method} ${req.url} ${String(req.headers['x-api-key'])}`);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      }),
      '127.0.0.1',
      port,
    );
    const run = async (direct: boolean) => {
      let to = LAN!;
      const resolve: Resolver = () => Promise.resolve([to]);
      const up = await connectUpstream({
        url: new URL(`http://mcp.lan.test:${port}/mcp`),
        headers: { 'X-API-Key': 'secret-key-1234' },
        timeoutMs: 10_000,
        clientVersion: 'test',
        directCalls: direct,
        resolve,
      });
      const call = () =>
        callUpstream(up.client, { name: 't', arguments: {} }, true, {
          signal: new AbortController().signal,
          timeout: 60_000,
          maxTotalTimeout: 60_000,
          resetTimeoutOnProgress: true,
        }).then(
          (r) => JSON.stringify(r),
          (e: Error) => `${e.message} <- ${String((e.cause as Error | undefined)?.message ?? '')}`,
        );
      try {
        const first = await call();
        to = { address: '127.0.0.1', family: 4 };
        const second = await call();
        return [first, second];
      } finally {
        await up.close();
      }
    };
    const lean = await run(false);
    const direct = await run(true);
    expect(lean[0]).toContain('lan');
    expect(lean[1]).toContain('resolves to 127.0.0.1');
    expect(direct).toEqual(lean);
    expect(asked).toEqual([]);
  });
});
