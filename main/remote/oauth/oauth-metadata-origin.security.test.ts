import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { startRemoteApp } from '../../../test-support/remote-app.js';
import type { FetchLike } from '@modelcontextprotocol/client';
import { MemoryVault } from '../../platform/vault/vault.js';
import { SignInRequiredError } from './errors.js';
import { LoginFlow } from './login-flow.js';
import { OAuthSession } from './session.js';
import { OAuthStore } from './store.js';

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

/**
 * Interop: MCP 2025-11-25 ("Protected Resource Metadata Discovery Requirements") says a client MUST
 * use the URL the challenge names, and RFC 9728 §5.1 lets it be on another host. The background
 * check still never reads it there; the challenge alone says "sign-in required", and the sign-in
 * the user starts reads it — over HTTPS, and on this machine only for a server on this machine.
 */
describe("a 401's resource_metadata on another origin, for the sign-in", () => {
  const MCP = 'https://mcp.example/mcp';
  const PRM = 'https://auth.example/.well-known/oauth-protected-resource/mcp';
  const AS = 'https://as.example';

  function stub() {
    const seen: string[] = [];
    const fetchFn: FetchLike = async (input) => {
      const url = String(input instanceof Request ? input.url : input);
      seen.push(url);
      const json = (body: unknown) =>
        new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
      if (url === PRM) return json({ resource: MCP, authorization_servers: [AS] });
      if (url === `${AS}/.well-known/oauth-authorization-server`)
        return json({
          issuer: AS,
          authorization_endpoint: `${AS}/authorize`,
          token_endpoint: `${AS}/token`,
          registration_endpoint: `${AS}/register`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
        });
      if (url === `${AS}/register`)
        return json({ client_id: 'c1', redirect_uris: ['http://127.0.0.1/callback'] });
      return new Response('not found', { status: 404 });
    };
    return { seen, fetchFn };
  }
  const challenge = (url: string) =>
    new Response(null, {
      status: 401,
      headers: { 'www-authenticate': `Bearer resource_metadata="${url}"` },
    });

  it('HTTPS elsewhere: sign-in required without reading it, and the sign-in reads it', async () => {
    const { seen, fetchFn } = stub();
    const store = new OAuthStore(new MemoryVault(), 'svc', () => {});
    const session = new OAuthSession({ store, serverUrl: MCP, fetch: fetchFn });
    const err = await session
      .onUnauthorized({ response: challenge(PRM), serverUrl: new URL(MCP) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SignInRequiredError);
    expect(seen.some((u) => u.startsWith('https://auth.example'))).toBe(false);
    expect(session.loginHints().resourceMetadataUrl).toBe(PRM);

    const flow = new LoginFlow({
      name: 'svc',
      serverUrl: MCP,
      store,
      timeoutMs: 10_000,
      fetch: fetchFn,
      hints: session.loginHints(),
    });
    cleanup.push(async () => flow.cancel());
    await flow.start();
    expect(seen).toContain(PRM);
    expect(flow.authUrl.startsWith(`${AS}/authorize?`)).toBe(true);
  });

  it.each([
    ['plain HTTP elsewhere', 'http://10.0.0.1/.well-known/oauth-protected-resource'],
    ['this machine, for a server that is not on it', 'https://127.0.0.1/admin?reset=1'],
  ])('%s: never read, and a plain 401', async (_what, url) => {
    const { seen, fetchFn } = stub();
    const session = new OAuthSession({
      store: new OAuthStore(new MemoryVault(), 'svc', () => {}),
      serverUrl: MCP,
      fetch: fetchFn,
    });
    const err = await session
      .onUnauthorized({ response: challenge(url), serverUrl: new URL(MCP) })
      .catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(SignInRequiredError);
    expect(seen).not.toContain(url);
    expect(session.loginHints().resourceMetadataUrl).toBeUndefined();
  });
});
