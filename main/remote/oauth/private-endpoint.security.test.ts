import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { startSignIn } from '../../../test-support/sign-in-start.js';
import type { Resolver } from '../http/address-guard.js';
import { MemoryVault } from '../../platform/vault/vault.js';
import { guardedFetch } from './login-discovery.js';
import { OAuthSession } from './session.js';
import { OAuthStore } from './store.js';

/**
 * A public MCP server's OAuth metadata names the endpoints a sign-in, a refresh and a sign-out
 * talk to. It could name this computer or the user's network by a host name that resolves
 * there (the loopback rule judged only the URL's spelling), or by a private address; and a
 * redirect could lead there from a public endpoint. Every such request is judged on the address
 * its socket connects to (address-guard.ts, pinned-fetch.ts), every redirect hop again.
 */
const cleanup = cleanupAfterEach();
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(() => r(null)))));
});

/** A TCP listener on 127.0.0.1 that counts the connections made to it. */
async function listener(): Promise<{ port: number; connections: () => number }> {
  let n = 0;
  const s = createServer((sock) => {
    n++;
    sock.destroy();
  });
  servers.push(s);
  const port = await new Promise<number>((r) =>
    s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)),
  );
  return { port, connections: () => n };
}

/** Names resolve as the table says; the MCP server's own name to a public address. */
function resolver(table: Record<string, string>): Resolver {
  return (host) => {
    const address = table[host] ?? '93.184.215.14';
    return Promise.resolve([{ address, family: address.includes(':') ? 6 : 4 }]);
  };
}

const MCP = 'https://mcp.example/mcp';
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as { code?: string; message?: string },
  );

describe('a public server names an OAuth endpoint that resolves to this computer', () => {
  it('the connection is refused at lookup: nothing connects, the error names the endpoint', async () => {
    const local = await listener();
    const f = guardedFetch('svc', MCP, { resolve: resolver({ 'as.rebind.test': '127.0.0.1' }) });
    const err = await errorOf(
      f(`https://as.rebind.test:${local.port}/.well-known/oauth-authorization-server`),
    );
    expect(err?.code).toBe('PRIVATE_ENDPOINT');
    expect(err?.message).toContain(`https://as.rebind.test:${local.port}/.well-known`);
    expect(err?.message).toContain('as.rebind.test resolves to 127.0.0.1');
    expect(local.connections()).toBe(0);
  });

  it.each([
    ['::ffff:127.0.0.1', 'on this computer'],
    ['10.0.0.7', 'on a private network'],
    ['192.168.1.1', 'on a private network'],
    ['100.64.0.1', 'on a private network'],
    ['169.254.169.254', 'link-local'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fd12:3456::7', 'on a private network'],
  ])('a name resolving to %s is refused (%s)', async (address, place) => {
    const f = guardedFetch('svc', MCP, { resolve: resolver({ 'token.example': address }) });
    const err = await errorOf(f('https://token.example/token', { method: 'POST', body: 'x=1' }));
    expect(err?.code).toBe('PRIVATE_ENDPOINT');
    expect(err?.message).toContain(place);
  });

  it('a private IP literal is refused before any request; credentials in it are masked', async () => {
    const seen: string[] = [];
    const fetchFn: FetchLike = async (input) => {
      seen.push(String(input));
      return new Response('{}');
    };
    const f = guardedFetch('svc', MCP, { fetch: fetchFn, resolve: resolver({}) });
    const err = await errorOf(f('https://admin:hunter2@192.168.1.1/token?client_secret=s3cr3t'));
    expect(err?.code).toBe('PRIVATE_ENDPOINT');
    expect(err?.message).toContain('https://***:***@192.168.1.1/token?client_secret=***');
    expect(err?.message).not.toMatch(/hunter2|s3cr3t/);
    expect(seen).toEqual([]);
  });

  it('a server on the user network may name endpoints on that network', async () => {
    const seen: string[] = [];
    const fetchFn: FetchLike = async (input) => {
      seen.push(String(input));
      return new Response('{}');
    };
    const lan = 'https://mcp.corp.test/mcp';
    const f = guardedFetch('svc', lan, {
      fetch: fetchFn,
      resolve: resolver({ 'mcp.corp.test': '10.0.0.5' }),
    });
    await f('https://10.0.0.6/token');
    expect(seen).toEqual(['https://10.0.0.6/token']);
    // …but not this computer, nor the link-local range.
    expect((await errorOf(f('https://169.254.169.254/latest')))?.code).toBe('PRIVATE_ENDPOINT');
  });
});

describe('every redirect hop is judged again', () => {
  function redirecting(to: string) {
    const seen: string[] = [];
    const fetchFn: FetchLike = async (input, init) => {
      seen.push(String(input));
      expect(init?.redirect).toBe('manual');
      if (seen.length === 1) return new Response(null, { status: 302, headers: { location: to } });
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    };
    return { seen, fetchFn };
  }

  it.each([
    ['https://169.254.169.254/latest/meta-data', 'PRIVATE_ENDPOINT'],
    ['https://[::ffff:10.1.1.1]/x', 'PRIVATE_ENDPOINT'],
    ['https://127.0.0.1/x', 'INSECURE_ENDPOINT'],
    ['http://as2.example/x', 'INSECURE_ENDPOINT'],
  ])('a metadata read redirected to %s: refused, the hop never sent', async (to, code) => {
    const { seen, fetchFn } = redirecting(to);
    const f = guardedFetch('svc', MCP, { fetch: fetchFn, resolve: resolver({}) });
    const err = await errorOf(f('https://as.example/.well-known/oauth-authorization-server'));
    expect(err?.code).toBe(code);
    expect(seen).toHaveLength(1);
  });

  it('a hop to another origin carries no Authorization', async () => {
    const auth: (string | null)[] = [];
    const fetchFn: FetchLike = async (input, init) => {
      auth.push(new Headers(init?.headers).get('authorization'));
      if (auth.length === 1)
        return new Response(null, { status: 302, headers: { location: 'https://as2.example/m' } });
      return new Response('{}');
    };
    const f = guardedFetch('svc', MCP, { fetch: fetchFn, resolve: resolver({}) });
    await f('https://as.example/meta', { headers: { Authorization: 'Bearer t-123' } });
    expect(auth).toEqual(['Bearer t-123', null]);
  });

  it('a hop to a public https endpoint is followed', async () => {
    const { seen, fetchFn } = redirecting('https://as2.example/meta');
    const f = guardedFetch('svc', MCP, { fetch: fetchFn, resolve: resolver({}) });
    const res = await f('https://as.example/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    expect(seen).toEqual([
      'https://as.example/.well-known/oauth-authorization-server',
      'https://as2.example/meta',
    ]);
  });
});

describe('a sign-in whose metadata names the user network', () => {
  function stub(as: string, authorize: string, token = as) {
    const seen: string[] = [];
    const fetchFn: FetchLike = async (input) => {
      const url = String(input instanceof Request ? input.url : input);
      seen.push(url);
      const json = (body: unknown) =>
        new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
      if (url.startsWith('https://mcp.example/.well-known/oauth-protected-resource'))
        return json({ resource: MCP, authorization_servers: [as] });
      if (url === `${as}/.well-known/oauth-authorization-server`)
        return json({
          issuer: as,
          authorization_endpoint: `${authorize}/authorize`,
          token_endpoint: `${token}/token`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
        });
      return new Response('not found', { status: 404 });
    };
    return { seen, fetchFn };
  }

  it('an authorization server at a private address: refused, nothing read there', async () => {
    const { seen, fetchFn } = stub('https://192.168.0.10', 'https://192.168.0.10');
    const { flow, err } = await startSignIn(MCP, fetchFn, cleanup, resolver({}));
    expect(err?.code, err?.message).toBe('PRIVATE_ENDPOINT');
    expect(flow.authUrl).toBe('');
    expect(seen.filter((u) => u.includes('192.168.'))).toEqual([]);
  });

  it('a token endpoint at a private address: refused at the start, before the browser opens', async () => {
    const { seen, fetchFn } = stub('https://as.example', 'https://as.example', 'https://10.9.9.9');
    const { flow, err } = await startSignIn(MCP, fetchFn, cleanup, resolver({}));
    expect(err?.code, err?.message).toBe('PRIVATE_ENDPOINT');
    expect(err?.message).toContain('The token endpoint');
    expect(flow.authUrl).toBe('');
    expect(seen.filter((u) => u.includes('10.9.9.9'))).toEqual([]);
  });

  it('an authorization endpoint (opened by the browser) whose name resolves to the LAN', async () => {
    const { fetchFn } = stub('https://as.example', 'https://router.example');
    const resolve = resolver({ 'router.example': '192.168.0.1' });
    const { flow, err } = await startSignIn(MCP, fetchFn, cleanup, resolve);
    expect(err?.code, err?.message).toBe('PRIVATE_ENDPOINT');
    expect(err?.message).toContain('The authorization endpoint');
    expect(flow.authUrl).toBe('');
  });
});

describe('after the sign-in: a sign-out whose revocation endpoint now resolves to this computer', () => {
  it('the tokens are not sent; nothing connects; the detail says why', async () => {
    const local = await listener();
    const store = new OAuthStore(new MemoryVault(), 'svc', () => {});
    await store.update(() => ({
      v: 1,
      serverUrl: MCP,
      as: {
        issuer: 'https://as.example',
        authorization_endpoint: 'https://as.example/authorize',
        token_endpoint: 'https://as.example/token',
        response_types_supported: ['code'],
        authorizationServerUrl: 'https://as.example',
        revocation_endpoint: `https://revoke.rebind.test:${local.port}/revoke`,
      },
      client: { client_id: 'c1' },
      tokens: { access_token: 'at', refresh_token: 'rt', token_type: 'Bearer', obtained_at: 0 },
    }));
    const session = new OAuthSession({
      store,
      serverUrl: MCP,
      resolve: resolver({ 'revoke.rebind.test': '127.0.0.1' }),
    });
    const r = await session.logout();
    expect(r.revoked).toBe(false);
    expect(r.detail).toContain('revoke.rebind.test resolves to 127.0.0.1');
    expect(local.connections()).toBe(0);
  });
});
