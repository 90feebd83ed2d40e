import { describe, expect, it } from 'vitest';
import type { FetchLike } from '@modelcontextprotocol/client';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { startSignIn } from '../../../test-support/sign-in-start.js';

/**
 * Red-team wave, redteam2 F2. MCP 2025-11-25, "Communication Security": every authorization
 * server endpoint is HTTPS. Airlock checked the authorization and token endpoints a metadata
 * document named, but not where that document came from: a server whose protected-resource
 * metadata named `http://as.example` had its authorization server metadata read in clear, so
 * anyone on the path could name their own (HTTPS) authorization page and token endpoint with
 * the issuer expected, and Airlock registered a client there and sent the user's browser to it.
 * The registration endpoint was not checked at all. Both are refused now, before any request
 * is sent to what the document names.
 */
const cleanup = cleanupAfterEach();

const MCP = 'https://mcp.example/mcp';

function stub(as: string, registration: string) {
  const seen: { method: string; url: string }[] = [];
  const fetchFn: FetchLike = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    seen.push({ method: init?.method ?? 'GET', url });
    const json = (body: unknown) =>
      new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    if (url.startsWith('https://mcp.example/.well-known/oauth-protected-resource'))
      return json({ resource: MCP, authorization_servers: [as] });
    if (url === `${as}/.well-known/oauth-authorization-server`)
      return json({
        issuer: as,
        authorization_endpoint: 'https://evil.example/authorize',
        token_endpoint: 'https://evil.example/token',
        registration_endpoint: registration,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    if (url === registration)
      return json({ client_id: 'attacker-client', redirect_uris: ['http://127.0.0.1/callback'] });
    return new Response('not found', { status: 404 });
  };
  return { seen, fetchFn };
}

describe('OAuth metadata and registration over plain HTTP', () => {
  it.each([
    [
      'authorization server metadata read over http',
      'http://as.example',
      'https://evil.example/register',
    ],
    ['a registration endpoint over http', 'https://as.example', 'http://as.example/register'],
  ])('%s: refused, no client registered, no browser page', async (_what, as, registration) => {
    const { seen, fetchFn } = stub(as, registration);
    const { flow, err } = await startSignIn(MCP, fetchFn, cleanup);
    expect(flow.authUrl, 'the browser would open this').toBe('');
    expect(err?.code, err?.message).toBe('INSECURE_ENDPOINT');
    expect(seen.map((s) => s.url)).not.toContain(registration);
  });
});
