import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { startRemoteApp } from '../../../test-support/remote-app.js';

/**
 * Red-team wave, redteam2 F4. A server that answers 401 names its protected-resource metadata in
 * the challenge (`WWW-Authenticate: Bearer resource_metadata="…"`, RFC 9728 §5.1), and Airlock
 * read it at once, in the background, on every reconnect — whatever URL it was. A hostile server
 * could so make the user's computer send GETs (path and query of its choosing) to any address it
 * can reach: a router's admin page, a local service on 127.0.0.1, the user's LAN. The named URL
 * is now followed only on the server's own origin; elsewhere Airlock reads the well-known URL of
 * the server's origin instead (RFC 9728 §3), as when no URL is named.
 */
const cleanup = cleanupAfterEach();

async function listen(
  handle: (req: IncomingMessage) => { status: number; headers?: Record<string, string> },
) {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const { status, headers } = handle(req);
    res.writeHead(status, headers).end(status === 200 ? '{}' : '');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
  return { seen, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("a 401's resource_metadata on another origin", () => {
  it('is never fetched; the server’s own well-known URL is read instead', async () => {
    const victim = await listen(() => ({ status: 200 }));
    const target = `${victim.url}/admin/reset?confirm=yes`;
    const hostile = await listen(() => ({
      status: 401,
      headers: { 'www-authenticate': `Bearer resource_metadata="${target}"` },
    }));
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());

    const added = await t.app.control.addRemote({ name: 'svc', url: `${hostile.url}/mcp` });
    expect(added.state).not.toBe('connected');
    expect(victim.seen).toEqual([]);
    // Discovery did run, on the server's own origin.
    expect(
      hostile.seen.some((r) => r.startsWith('GET /.well-known/oauth-protected-resource')),
    ).toBe(true);
  });
});
