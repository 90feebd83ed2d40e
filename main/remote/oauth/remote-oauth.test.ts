import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import type { RemoteView } from '../../../common/contract/index.js';
import { OAuthUpstream, type OAuthTool } from '../../../test-support/oauth-upstream.js';
import { FakeUpstream } from '../../../test-support/fake-upstream.js';
import {
  agentClient,
  startRemoteApp,
  type RemoteTestApp,
} from '../../../test-support/remote-app.js';
import { followAuthorization } from './auto-follow.js';
import { oauthKey } from './store.js';

/**
 * Issue 10 through a real App (gateway, registry, approvals) and a local
 * OAuth-protected MCP server: "sign-in required" → sign in through the
 * loopback redirect → tools → silent refresh with `resource` → a revoked
 * grant turns into "sign-in required" and a clear tool error → step-up →
 * logout revokes. (The browser is played by fetch here; e2e/remote-oauth.spec.ts
 * drives Chromium and the real keychain.)
 */
const cleanup = cleanupAfterEach();

const TOOLS: OAuthTool[] = [
  { name: 'whoami', annotations: { readOnlyHint: true } },
  { name: 'write_note', annotations: { readOnlyHint: true }, scope: 'notes:write' },
];

async function setup(): Promise<{ up: OAuthUpstream; t: RemoteTestApp }> {
  const up = new OAuthUpstream(TOOLS, { scopesSupported: ['notes:read'] });
  await up.start();
  cleanup.push(() => up.stop());
  const t = await startRemoteApp();
  cleanup.push(() => t.stop());
  return { up, t };
}

async function signIn(t: RemoteTestApp, name: string): Promise<RemoteView> {
  const start = await t.app.control.loginRemote(name, { openBrowser: false });
  await followAuthorization(start.authUrl, start.redirectUri);
  const done = await t.app.control.waitRemoteLogin(start.flowId, 10_000);
  expect(done, JSON.stringify(done)).toMatchObject({ state: 'signed-in' });
  return done.remote!;
}

const text = (r: unknown) =>
  ((r as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');

describe('remote servers that require OAuth', () => {
  it('sign-in required → sign in → tools → silent refresh with resource → revoked → sign in → step-up → logout revokes', async () => {
    const { up, t } = await setup();
    const api = t.app.control;

    const added = await api.addRemote({ name: 'secure', url: up.url });
    expect(added).toMatchObject({
      state: 'error',
      detail: 'sign-in required',
      toolCount: 0,
      auth: { signedIn: false, signInRequired: 'sign-in required' },
    });

    // The authorization URL: PKCE S256, state, the resource indicator, the loopback redirect, the server's scopes.
    const start = await api.loginRemote('secure', { openBrowser: false });
    const authUrl = new URL(start.authUrl);
    expect(authUrl.origin).toBe(new URL(up.issuer).origin);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('resource')).toBe(up.url);
    expect(authUrl.searchParams.get('scope')).toBe('notes:read');
    expect(authUrl.searchParams.get('state')?.length).toBeGreaterThan(30);
    expect(start.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(up.registrations).toEqual([
      { client_id: 'client-1', redirect_uris: [start.redirectUri] },
    ]);
    // A forged callback (wrong state) is refused and the flow keeps waiting.
    const forged = await fetch(`${start.redirectUri}?code=stolen&state=nope`);
    expect(forged.status).toBe(400);
    expect((await api.waitRemoteLogin(start.flowId, 0)).state).toBe('waiting');

    up.expireNextIn(2); // the first access token lives 2 s: the refresh below happens ahead of expiry
    await followAuthorization(start.authUrl, start.redirectUri);
    const done = await api.waitRemoteLogin(start.flowId, 10_000);
    expect(done).toMatchObject({
      state: 'signed-in',
      remote: {
        state: 'ready',
        toolCount: 2,
        auth: {
          signedIn: true,
          renews: true,
          issuer: up.issuer,
          client: 'dynamic',
          scopes: ['notes:read'],
        },
      },
    });
    expect(up.tokenRequests.map((r) => [r.grant_type, r.resource])).toEqual([
      ['authorization_code', up.url],
    ]);
    const refusalsAtSignIn = up.refusals.length;
    expect(up.tokenRequests[0]?.code_verifier).toBeTruthy();

    const agent = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => agent.close());
    const names = (await agent.listTools()).tools.map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining(['secure__whoami', 'secure__write_note']));
    expect(text(await agent.callTool({ name: 'secure__whoami', arguments: {} }))).toContain(
      'whoami ran with scopes [notes:read]',
    );

    // Expiry: calls keep working; the token endpoint sees one refresh, with the resource indicator.
    // Time has to pass for a token to age; each poll is a real call that must succeed.
    await expect
      .poll(
        async () => {
          const r = await agent.callTool({ name: 'secure__whoami', arguments: {} });
          expect(r.isError, text(r)).toBeFalsy();
          return up.refreshRequests().length;
        },
        { interval: 200 },
      )
      .toBe(1);
    await Promise.all(
      [1, 2, 3].map(() => agent.callTool({ name: 'secure__whoami', arguments: {} })),
    );
    expect(up.refreshRequests()).toHaveLength(1);
    // Renewed ahead of expiry: the server never had to refuse an expired token (only the pre-sign-in 401s).
    expect(up.refusals.length).toBe(refusalsAtSignIn);
    expect(up.refreshRequests()[0]).toMatchObject({ resource: up.url, client_id: 'client-1' });

    // The user revokes Airlock's access at the provider: a clear tool error, then "sign-in required: <reason>".
    up.revokeEverything();
    const refused = await agent.callTool({ name: 'secure__whoami', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain(
      'refused the call: sign-in required: the authorization server refused to renew the sign-in (invalid_grant)',
    );
    expect(text(refused)).toContain('Ask the user to sign in again');
    expect(text(refused)).toContain('airlock remote login secure');
    const [afterRevoke] = await api.listRemotes();
    expect(afterRevoke).toMatchObject({
      state: 'error',
      detail:
        'sign-in required: the authorization server refused to renew the sign-in (invalid_grant)',
      toolCount: 0,
      auth: { signedIn: false },
    });

    // Sign in again: the stored registration (same port) is reused, no new registration.
    await signIn(t, 'secure');
    expect(up.registrations).toHaveLength(1);
    expect(text(await agent.callTool({ name: 'secure__whoami', arguments: {} }))).toContain(
      'whoami ran',
    );

    // Step-up: a tool needs a wider scope (403 insufficient_scope).
    const narrow = await agent.callTool({ name: 'secure__write_note', arguments: {} });
    expect(narrow.isError).toBe(true);
    expect(text(narrow)).toContain('sign-in required (needs scope notes:read notes:write)');
    expect((await api.listRemotes())[0]).toMatchObject({
      state: 'error',
      detail: 'sign-in required (needs scope notes:read notes:write)',
    });
    const wider = await signIn(t, 'secure');
    expect(up.authorizeRequests.at(-1)?.scope).toBe('notes:read notes:write');
    expect(wider.auth?.scopes).toEqual(['notes:read', 'notes:write']);
    expect(text(await agent.callTool({ name: 'secure__write_note', arguments: {} }))).toContain(
      'write_note ran',
    );

    // Logout: the server revokes (refresh token first), the tools go, the vault keeps no token.
    const lastRefresh = up.tokenRequests.length;
    const out = await api.logoutRemote('secure');
    expect(out).toEqual({ name: 'secure', revoked: true });
    expect(up.revocations.map((r) => r.token_type_hint)).toEqual(['refresh_token', 'access_token']);
    const [gone] = await api.listRemotes();
    expect(gone).toMatchObject({
      state: 'error',
      detail: 'sign-in required',
      toolCount: 0,
      auth: { signedIn: false },
    });
    expect((await agent.listTools()).tools.map((x) => x.name)).not.toContain('secure__whoami');
    const stored = JSON.parse((await t.vault.get(oauthKey('secure'))) ?? '{}') as {
      tokens?: unknown;
      client?: { client_id: string };
    };
    expect(stored.tokens).toBeUndefined();
    expect(stored.client?.client_id).toBe('client-1');
    expect(up.tokenRequests.length).toBe(lastRefresh);
  });

  it('access denied, a server that does not speak OAuth, and a bearer-token server are told apart', async () => {
    const { up, t } = await setup();
    const api = t.app.control;
    await api.addRemote({ name: 'secure', url: up.url });
    up.denyNextAuthorization();
    const start = await api.loginRemote('secure', { openBrowser: false });
    await followAuthorization(start.authUrl, start.redirectUri);
    const denied = await api.waitRemoteLogin(start.flowId, 10_000);
    expect(denied).toMatchObject({ state: 'failed', error: { code: 'ACCESS_DENIED' } });
    expect((await api.listRemotes())[0]).toMatchObject({
      state: 'error',
      detail: 'sign-in required',
    });

    // A static bearer token is not an OAuth sign-in.
    await api.addRemote({ name: 'static', url: up.url, bearerToken: 'not-an-oauth-token' });
    await expect(api.loginRemote('static')).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(api.logoutRemote('static')).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(api.loginRemote('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      api.loginRemote('secure', { clientMetadataUrl: 'http://insecure.example/doc.json' }),
    ).rejects.toMatchObject({ code: 'INVALID' });
    await expect(api.loginRemote('secure', { clientSecret: 'x-without-id' })).rejects.toMatchObject(
      { code: 'INVALID' },
    );

    // A 401 with a bare `WWW-Authenticate: Bearer` and no protected-resource metadata stays issue 4's plain 401.
    const plain = new FakeUpstream({ bearer: 'the-api-key-it-wants', tools: [] });
    await plain.start();
    cleanup.push(() => plain.stop());
    const added = await api.addRemote({ name: 'plain', url: plain.url });
    expect(added).toMatchObject({
      state: 'error',
      detail: expect.stringMatching(/^401 from server/),
    });
    expect(added.auth).toBeUndefined();
    await expect(api.loginRemote('plain', { openBrowser: false })).rejects.toMatchObject({
      code: 'INVALID',
      message: expect.stringContaining('[NO_OAUTH]'),
    });
  });
});

describe('removing a signed-in server', () => {
  it('revokes its tokens (best effort) and deletes its keychain entry', async () => {
    const { up, t } = await setup();
    await t.app.control.addRemote({ name: 'secure', url: up.url });
    await signIn(t, 'secure');
    expect(await t.vault.get(oauthKey('secure'))).toBeTruthy();
    await t.app.control.removeRemote('secure');
    expect(up.revocations.map((r) => r.token_type_hint)).toEqual(['refresh_token', 'access_token']);
    expect(await t.vault.get(oauthKey('secure'))).toBeNull();
    // Re-added under the same name: a fresh start, nothing inherited.
    expect(await t.app.control.addRemote({ name: 'secure', url: up.url })).toMatchObject({
      detail: 'sign-in required',
      auth: { signedIn: false },
    });
  });
});
