import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { OAuthUpstream } from '../../../test-support/oauth-upstream.js';
import { MemoryVault } from '../../platform/vault/vault.js';
import { RefreshUnavailableError, SignInRequiredError } from './errors.js';
import { LoginFlow } from './login-flow.js';
import { OAuthSession } from './session.js';
import { bindIssuer, OAuthStore, oauthKey, type OAuthRecord } from './store.js';

/**
 * OAuthSession (issue 10): refresh ahead of expiry, single-flight, with the
 * resource indicator; the reasons a refresh fails; tokens bound to the URL
 * and issuer; what a 401 means with and without protected-resource metadata.
 */
const cleanup = cleanupAfterEach();

async function signedIn(o: { ttl?: number } = {}) {
  const up = new OAuthUpstream([{ name: 'whoami' }], o.ttl ? { ttlSeconds: o.ttl } : {});
  await up.start();
  cleanup.push(() => up.stop());
  const vault = new MemoryVault();
  const secrets: string[] = [];
  const store = new OAuthStore(vault, 'svc', (v) => secrets.push(v));
  const flow = new LoginFlow({
    name: 'svc',
    serverUrl: up.url,
    store,
    timeoutMs: 10_000,
    autoFollow: true,
  });
  await flow.start();
  await flow.done;
  expect(flow.status, flow.error?.message).toBe('signed-in');
  let clock = Date.now();
  const session = new OAuthSession({ store, serverUrl: up.url, now: () => clock });
  return { up, vault, store, session, secrets, advance: (ms: number) => (clock += ms) };
}

const response = (status: number, headers: Record<string, string> = {}) =>
  new Response(null, { status, headers });

describe('OAuthSession', () => {
  it('refreshes ahead of expiry once for many concurrent requests, with the resource indicator, and keeps working', async () => {
    const { up, session, store, advance, secrets } = await signedIn();
    const first = await session.token();
    expect(up.issued.has(first!)).toBe(true);
    advance(3600_000 - 59_000); // inside the last minute of the hour-long token
    const tokens = await Promise.all(Array.from({ length: 8 }, () => session.token()));
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(first);
    expect(up.refreshRequests()).toEqual([
      expect.objectContaining({
        grant_type: 'refresh_token',
        resource: up.url,
        client_id: 'client-1',
      }),
    ]);
    expect(store.peek()?.tokens?.access_token).toBe(tokens[0]);
    // Every token value reached the logger's redaction list.
    for (const v of up.issued) expect(secrets).toContain(v);
  });

  it('a refused refresh is "sign-in required: <reason>" and forgets the tokens; an unreachable server is not', async () => {
    const { up, session, store, advance } = await signedIn();
    advance(3600_000);
    up.revokeEverything();
    const err = await session.token().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SignInRequiredError);
    expect((err as Error).message).toBe(
      'sign-in required: the authorization server refused to renew the sign-in (invalid_grant)',
    );
    expect(store.peek()?.tokens).toBeUndefined();
    expect(session.view()).toMatchObject({
      signedIn: false,
      signInRequired: (err as Error).message,
    });

    const again = await signedIn();
    const current = await again.session.token();
    await again.up.stop();
    again.advance(3600_000 - 30_000); // in the renew-ahead window, not yet expired: the current token still serves
    expect(await again.session.token()).toBe(current);
    again.advance(30_000);
    const down = await again.session.token().catch((e: unknown) => e);
    expect(down).toBeInstanceOf(RefreshUnavailableError);
    expect(again.store.peek()?.tokens).toBeDefined(); // kept: the next attempt may work
  });

  it('a 401 on a valid-looking token refreshes once; without refresh token it asks for a sign-in', async () => {
    const { up, session, store } = await signedIn();
    await session.onUnauthorized({
      response: response(401, { 'www-authenticate': `Bearer resource_metadata="${up.prmUrl}"` }),
      serverUrl: new URL(up.url),
    });
    expect(up.refreshRequests()).toHaveLength(1);
    await store.update(
      (r) => r && { ...r, tokens: { ...r.tokens!, refresh_token: undefined } as never },
    );
    const err = await session
      .onUnauthorized({ response: response(401), serverUrl: new URL(up.url) })
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      'sign-in required: the server refused the access token and gave no refresh token',
    );
  });

  it('without tokens: "sign-in required" only when the server publishes protected-resource metadata', async () => {
    const up = new OAuthUpstream([]);
    await up.start();
    cleanup.push(() => up.stop());
    const session = new OAuthSession({
      store: new OAuthStore(new MemoryVault(), 'x'),
      serverUrl: up.url,
    });
    const oauth = await session
      .onUnauthorized({
        response: response(401, { 'www-authenticate': 'Bearer error="invalid_token"' }),
        serverUrl: new URL(up.url),
      })
      .catch((e: unknown) => e);
    expect(oauth).toBeInstanceOf(SignInRequiredError);
    expect((oauth as Error).message).toBe('sign-in required');
    expect(session.loginHints()).toEqual({});

    const elsewhere = 'http://127.0.0.1:9/mcp'; // nothing listens on the discard port: no metadata
    const plain = new OAuthSession({
      store: new OAuthStore(new MemoryVault(), 'y'),
      serverUrl: elsewhere,
    });
    const e = await plain
      .onUnauthorized({
        response: response(401, { 'www-authenticate': 'Bearer' }),
        serverUrl: new URL(elsewhere),
      })
      .catch((x: unknown) => x);
    expect((e as Error).name).toBe('UnauthorizedError');
  });

  it('tokens are bound to the server URL: another URL never gets them', async () => {
    const { session, store, vault, up } = await signedIn();
    expect(await session.token()).toBeTruthy();
    await session.load('http://127.0.0.1:1/other');
    expect(await session.token()).toBeUndefined();
    const rec = JSON.parse((await vault.get(oauthKey('svc')))!) as OAuthRecord;
    expect(rec).toMatchObject({
      serverUrl: 'http://127.0.0.1:1/other',
      client: { client_id: 'client-1' },
    });
    expect(rec.tokens).toBeUndefined();
    expect(store.peek()?.tokens).toBeUndefined();
    expect(up.issued.size).toBeGreaterThan(0);
  });

  it('a changed issuer discards tokens and the registration bound to the old one', () => {
    const rec: OAuthRecord = {
      v: 1,
      serverUrl: 'https://mcp.example/mcp',
      as: {
        issuer: 'https://old.example',
        authorizationServerUrl: 'https://old.example',
        authorization_endpoint: 'a',
        token_endpoint: 't',
        response_types_supported: ['code'],
      },
      client: { client_id: 'c', issuer: 'https://old.example' },
      preregistered: { client_id: 'mine' },
      tokens: { access_token: 'at', token_type: 'Bearer', obtained_at: 0 },
    };
    expect(bindIssuer(rec, 'https://old.example')).toBe(rec);
    const moved = bindIssuer(rec, 'https://new.example');
    expect(moved.tokens).toBeUndefined();
    expect(moved.client).toBeUndefined();
    expect(moved.as).toBeUndefined();
    expect(moved.preregistered).toEqual({ client_id: 'mine' });
  });

  it('a sign-in that meets another issuer registers anew and replaces what was bound to the old one', async () => {
    const a = await signedIn();
    const b = new OAuthUpstream([{ name: 'whoami' }]);
    await b.start();
    cleanup.push(() => b.stop());
    const before = a.store.peek()!;
    expect(before.client?.issuer).toBe(a.up.issuer);
    // The same record, now for a server whose metadata names authorization server B.
    const flow = new LoginFlow({
      name: 'svc',
      serverUrl: b.url,
      store: a.store,
      timeoutMs: 10_000,
      autoFollow: true,
    });
    await flow.start();
    await flow.done;
    expect(flow.status, flow.error?.message).toBe('signed-in');
    const after = a.store.peek()!;
    expect(b.registrations).toHaveLength(1); // A's registration was not offered to B
    expect(after.as?.issuer).toBe(b.issuer);
    expect(after.client?.issuer).toBe(b.issuer);
    expect(b.issued.has(after.tokens!.access_token)).toBe(true);
    expect(a.up.issued.has(after.tokens!.access_token)).toBe(false);
  });

  it('logout revokes the refresh token then the access token, and forgets both', async () => {
    const { up, session, store } = await signedIn();
    const t = store.peek()!.tokens!;
    const r = await session.logout();
    expect(r).toEqual({ revoked: true, hadTokens: true });
    expect(up.revocations).toEqual([
      { token: t.refresh_token, token_type_hint: 'refresh_token' },
      { token: t.access_token, token_type_hint: 'access_token' },
    ]);
    expect(store.peek()?.tokens).toBeUndefined();
    expect(await session.logout()).toEqual({ revoked: false, hadTokens: false });
  });
});
