import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leanFetch } from './lean-fetch.js';

/**
 * Review of h-up: `post` (a record edited in place, a flat header list to node:http) sends the
 * same head as the fetch path given the same headers, over odd configured headers.
 */
let srv: Server;
let srv6: Server | undefined;
const heads: string[] = [];
function listen(host: string): Promise<Server> {
  const s = createServer((sock) => {
    let buf = '';
    sock.on('data', (d) => {
      buf += d.toString('latin1');
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      heads.push(buf.slice(0, end));
      buf = '';
      sock.end('HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    });
    sock.on('error', () => {});
  });
  return new Promise((r, j) => {
    s.once('error', j);
    s.listen(0, host, () => r(s));
  });
}
beforeAll(async () => {
  srv = await listen('127.0.0.1');
  srv6 = await listen('::1').catch(() => undefined);
});
afterAll(() => {
  srv.close();
  srv6?.close();
});

const base = () => ({
  authorization: 'Bearer oauth-token',
  'mcp-session-id': 's1',
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
});

async function both(extra: Record<string, string>, href: string) {
  const f = leanFetch(extra);
  const url = new URL(href);
  const out: (string | { error: string })[] = [];
  for (const how of ['fetch', 'post'] as const) {
    heads.length = 0;
    try {
      const r =
        how === 'post'
          ? await f.post(url, base(), '{"a":1}', undefined)
          : await f(url, { method: 'POST', headers: base(), body: '{"a":1}' });
      await r.text();
      out.push(heads[0]!);
    } catch (e) {
      out.push({
        error: `${(e as Error).name} ${(e as { code?: string }).code} ${(e as Error).message}`,
      });
    }
  }
  return out;
}

describe('lean-fetch post ≡ fetch path (review)', () => {
  const port = () => (srv.address() as AddressInfo).port;
  it('user Authorization over the OAuth one, mixed-case names, a secret header', async () => {
    const [a, b] = await both(
      {
        Authorization: 'Bearer user',
        'X-API-Key': 'sekrit',
        'x-api-key': 'sekrit2',
        'User-Agent': 'mine',
      },
      `http://127.0.0.1:${port()}/mcp`,
    );
    expect(b).toEqual(a);
    expect(String(b).match(/authorization/gi)).toHaveLength(1);
    expect(String(b).match(/x-api-key/gi)).toHaveLength(1);
  });
  it('CR/LF in a configured value is refused alike, and nothing is sent', async () => {
    const [a, b] = await both({ 'X-Evil': 'a\r\nInjected: 1' }, `http://127.0.0.1:${port()}/mcp`);
    expect(b).toEqual(a);
    expect(typeof b).toBe('object');
    expect(heads).toEqual([]);
  });
  it('a configured Host, and a Content-Disposition', async () => {
    for (const extra of [
      { Host: 'other.example:81' },
      { 'content-disposition': 'inline' },
    ] as Record<string, string>[]) {
      const [a, b] = await both(extra, `http://127.0.0.1:${port()}/mcp`);
      expect(b).toEqual(a);
    }
  });
  it('user info in the URL', async () => {
    const [a, b] = await both({}, `http://u:p@127.0.0.1:${port()}/mcp`);
    expect(b).toEqual(a);
    // The request's own Authorization stands, on both paths (node:http adds Basic only without one).
    expect(b).not.toContain('Basic');
  });
  it('IPv6 upstream on a non-default port', async () => {
    if (!srv6) return;
    const [a, b] = await both({}, `http://[::1]:${(srv6.address() as AddressInfo).port}/mcp`);
    expect(b).toEqual(a);
    expect(b).toContain(`Host: [::1]:${(srv6.address() as AddressInfo).port}`);
  });
});
