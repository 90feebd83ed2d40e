import { describe, expect, it } from 'vitest';
import type { FetchLike } from '@modelcontextprotocol/client';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { startSignIn } from '../../../test-support/sign-in-start.js';
import { revokeGrant } from './revoke.js';
import { signInMetadataUrl } from './session.js';
import type { OAuthRecord } from './store.js';

/**
 * Follow-up of the redteam2 reviews. Plain-HTTP OAuth endpoints are allowed on loopback for local
 * development, but the exception held whatever the MCP server was: a remote server's metadata
 * could name `http://127.0.0.1:…` (or any form WHATWG folds into loopback) as its authorization
 * server, and a sign-in the user started then sent requests to a service on this computer — the
 * authorization server metadata was even read before any check. Now a loopback endpoint is taken
 * only from a loopback MCP server, and every request of the sign-in is checked before it is sent.
 */
const cleanup = cleanupAfterEach();

function stub(mcp: string, as: string, endpoints: string) {
  const seen: string[] = [];
  const mcpOrigin = new URL(mcp).origin;
  const fetchFn: FetchLike = async (input) => {
    const url = String(input instanceof Request ? input.url : input);
    seen.push(url);
    const json = (body: unknown) =>
      new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    if (url.startsWith(`${mcpOrigin}/.well-known/oauth-protected-resource`))
      return json({ resource: mcp, authorization_servers: [as] });
    if (url === `${new URL(as).origin}/.well-known/oauth-authorization-server`)
      return json({
        issuer: new URL(as).origin,
        authorization_endpoint: `${endpoints}/authorize`,
        token_endpoint: `${endpoints}/token`,
        registration_endpoint: `${endpoints}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    if (url === `${endpoints}/register`)
      return json({ client_id: 'c1', redirect_uris: ['http://127.0.0.1/callback'] });
    return new Response('not found', { status: 404 });
  };
  return { seen, fetchFn };
}

const start = (mcp: string, fetchFn: FetchLike) => startSignIn(mcp, fetchFn, cleanup);

// WHATWG URL folds each of these into a loopback host.
const LOCAL = [
  'http://127.0.0.1:9',
  'http://localhost:9',
  'http://[::1]:9',
  'http://127.8.9.10:9',
  'http://2130706433:9',
  'http://0x7f.1:9',
  'http://0.0.0.0:9',
  'http://app.localhost:9',
  'https://127.0.0.1:9',
];
const onThisComputer = (u: string) =>
  /^https?:\/\/(127\.|localhost|\[::1\]|0\.0\.0\.0|[^/]*\.localhost)/.test(new URL(u).href);

describe('OAuth endpoints on this computer named by a remote MCP server', () => {
  it.each(LOCAL)('authorization server %s: refused before any request reaches it', async (as) => {
    const { seen, fetchFn } = stub('https://mcp.example/mcp', as, as);
    const { flow, err } = await start('https://mcp.example/mcp', fetchFn);
    expect(err?.code, err?.message).toBe('INSECURE_ENDPOINT');
    expect(flow.authUrl).toBe('');
    expect(seen.filter(onThisComputer)).toEqual([]);
    expect(seen.length).toBeGreaterThan(0);
  });

  it.each(LOCAL)('registration/token endpoints at %s: refused, nothing sent there', async (ep) => {
    const { seen, fetchFn } = stub('https://mcp.example/mcp', 'https://as.example', ep);
    const { flow, err } = await start('https://mcp.example/mcp', fetchFn);
    expect(err?.code, err?.message).toBe('INSECURE_ENDPOINT');
    expect(flow.authUrl).toBe('');
    expect(seen.filter(onThisComputer)).toEqual([]);
  });

  it.each(['http://127.0.0.1:7000/mcp', 'http://localhost:7000/mcp', 'http://[::1]:7000/mcp'])(
    'a loopback MCP server %s with a loopback authorization server still signs in',
    async (mcp) => {
      const as = 'http://127.0.0.1:7001';
      const { seen, fetchFn } = stub(mcp, as, as);
      const { flow, err } = await start(mcp, fetchFn);
      expect(err).toBeNull();
      expect(flow.authUrl).toMatch(/^http:\/\/127\.0\.0\.1:7001\/authorize\?/);
      expect(seen).toContain(`${as}/register`);
    },
  );

  it.each(LOCAL)('a resource_metadata URL at %s is followed only from a loopback server', (at) => {
    const named = new URL(`${at}/.well-known/oauth-protected-resource`);
    expect(signInMetadataUrl('https://mcp.example/mcp', named)).toBeUndefined();
    expect(signInMetadataUrl('http://127.0.0.1:7000/mcp', named)?.href).toBe(named.href);
  });
});

describe('signing out of a remote server: its tokens never go to a revocation endpoint on this computer', () => {
  const rec = (serverUrl: string, endpoint: string): OAuthRecord => ({
    v: 1,
    serverUrl,
    as: {
      issuer: 'https://as.example',
      authorization_endpoint: 'https://as.example/authorize',
      token_endpoint: 'https://as.example/token',
      response_types_supported: ['code'],
      authorizationServerUrl: 'https://as.example',
      revocation_endpoint: endpoint,
    },
    client: { client_id: 'c1' },
    tokens: {
      access_token: 'at-secret',
      refresh_token: 'rt-secret',
      token_type: 'Bearer',
      obtained_at: 0,
    },
  });
  const recorder = () => {
    const seen: string[] = [];
    const fetchFn: FetchLike = async (input) => {
      seen.push(String(input instanceof Request ? input.url : input));
      return new Response('', { status: 200 });
    };
    return { seen, fetchFn };
  };

  for (const endpoint of [
    'http://127.0.0.1:8080/revoke',
    'https://127.0.0.1/revoke',
    'http://localhost/revoke',
    'http://[::1]/revoke',
    'http://2130706433/revoke',
    'https://0x7f.1/revoke',
    'http://0.0.0.0/revoke',
    'https://admin.localhost/revoke',
  ]) {
    it(`a remote server naming ${endpoint}: nothing is sent, the sign-out says so`, async () => {
      const { seen, fetchFn } = recorder();
      const r = await revokeGrant(rec('https://mcp.example/mcp', endpoint), { fetch: fetchFn });
      expect(seen).toEqual([]);
      expect(r.revoked).toBe(false);
      expect(r.detail).toMatch(/not sent there/);
    });
  }

  it('a loopback server with a loopback revocation endpoint still revokes both tokens', async () => {
    const { seen, fetchFn } = recorder();
    const r = await revokeGrant(rec('http://127.0.0.1:9000/mcp', 'http://127.0.0.1:9001/revoke'), {
      fetch: fetchFn,
    });
    expect(r).toEqual({ revoked: true });
    expect(seen).toEqual(['http://127.0.0.1:9001/revoke', 'http://127.0.0.1:9001/revoke']);
  });

  it('a remote server with an https revocation endpoint elsewhere still revokes', async () => {
    const { seen, fetchFn } = recorder();
    const r = await revokeGrant(rec('https://mcp.example/mcp', 'https://as.example/revoke'), {
      fetch: fetchFn,
    });
    expect(r).toEqual({ revoked: true });
    expect(seen).toHaveLength(2);
  });
});
