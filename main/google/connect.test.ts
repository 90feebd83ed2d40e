import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CoreEvent } from '../../common/contract/index.js';
import { filesContaining } from '../../e2e/helpers/files.js';
import { browse, consentRedirect, googleKit, type GoogleKit } from '../../test-support/google.js';
import { GoogleOAuth } from './oauth/google-oauth.js';
import { describeOAuthError } from './errors.js';
import { FULL_MAIL_SCOPE, SCOPES } from './scopes.js';
import { settledFlow } from '../../test-support/google-flow.js';

let kit: GoogleKit;
afterEach(async () => kit?.close());

const events = (k: GoogleKit) => {
  const seen: CoreEvent[] = [];
  k.events.subscribe((e) => seen.push(e));
  return seen;
};

describe('loopback consent (issue 5, item 2)', () => {
  it('asks Google for offline access with PKCE S256, stores the grant in the vault and only the account in settings', async () => {
    kit = await googleKit();
    const seen = events(kit);
    const start = await kit.control.startGoogleConnect();
    expect(kit.opened).toEqual([start.authUrl]);
    expect(start.browserOpened).toBe(true);
    expect(start.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth2\/callback$/);
    const q = new URL(start.authUrl).searchParams;
    expect(
      Object.fromEntries(
        [
          'access_type',
          'prompt',
          'include_granted_scopes',
          'code_challenge_method',
          'response_type',
        ].map((k) => [k, q.get(k)]),
      ),
    ).toEqual({
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      code_challenge_method: 'S256',
      response_type: 'code',
    });
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')!.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    expect(q.get('login_hint')).toBeNull();
    const scopes = q.get('scope')!.split(' ');
    expect(scopes).not.toContain(FULL_MAIL_SCOPE);
    expect(scopes).toEqual(
      expect.arrayContaining([
        SCOPES.gmailModify,
        SCOPES.calendarEvents,
        SCOPES.calendarReadonly,
        'openid',
        'email',
      ]),
    );

    const visit = await browse(start.authUrl);
    expect(visit.status).toBe(200);
    expect(visit.page).toContain('You can close this tab');
    const done = await settledFlow(kit.control, start.flowId);
    expect(done).toMatchObject({
      state: 'connected',
      account: {
        email: 'alice@example.com',
        readOnly: false,
        state: 'connected',
        isDefault: true,
        hasToken: true,
        missingScopes: [],
      },
    });
    expect(
      seen
        .filter((e) => e.type === 'google.connect')
        .map((e) => (e as { flow: { state: string } }).flow.state),
    ).toEqual(['waiting', 'connected']);

    const bundle = JSON.parse((await kit.vault.get('google:alice@example.com'))!);
    const [refreshToken] = [...kit.fake.grants.refresh.keys()];
    expect(bundle).toMatchObject({
      refreshToken,
      clientId: kit.fake.clientId,
      scopes: expect.arrayContaining([SCOPES.gmailModify]),
    });
    expect(bundle.expiry).toBeGreaterThan(Date.now() + 3000_000);
    expect(Date.parse(bundle.grantedAt)).not.toBeNaN();
    // No token or client secret in any file of the data directory, logs included.
    for (const secret of [...kit.fake.grants.issued, kit.fake.clientSecret])
      expect(filesContaining(kit.dir, secret)).toEqual([]);
    expect(JSON.stringify(await kit.control.listGoogleAccounts())).not.toContain(refreshToken);
    // The listener is gone after the one accepted callback.
    await expect(fetch(visit.callbackUrl)).rejects.toThrow();
  });

  it('read-only asks only read-only scopes and marks the account read-only', async () => {
    kit = await googleKit();
    const view = await kit.connect({ readOnly: true });
    const scopes = kit.fake.lastAuthRequest!.get('scope')!.split(' ');
    expect(scopes.sort()).toEqual(
      ['email', 'openid', SCOPES.calendarReadonly, SCOPES.gmailReadonly].sort(),
    );
    expect(view.account).toMatchObject({ readOnly: true });
    expect(kit.accounts.accounts()).toEqual([
      expect.objectContaining({ email: 'alice@example.com', readOnly: true }),
    ]);
  });

  it('a wrong or missing state gets an error page and the flow keeps waiting for the real answer', async () => {
    kit = await googleKit();
    const start = await kit.control.startGoogleConnect();
    const real = await consentRedirect(start.authUrl);
    const forged = new URL(real);
    forged.searchParams.set('state', 'x'.repeat(43));
    const noState = new URL(real);
    noState.searchParams.delete('state');
    for (const u of [forged, noState]) {
      const res = await fetch(u);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('Airlock is still waiting');
    }
    expect((await kit.control.waitGoogleConnect(start.flowId, 0)).state).toBe('waiting');
    expect(kit.fake.tokenRequests).toHaveLength(0); // a forged callback never reaches the token endpoint
    expect((await fetch(real)).status).toBe(200);
    expect((await settledFlow(kit.control, start.flowId)).state).toBe('connected');
  });

  it('accepts exactly one callback: a replay gets "already used" or a closed port, and one code exchange happens', async () => {
    kit = await googleKit();
    const start = await kit.control.startGoogleConnect();
    const cb = await consentRedirect(start.authUrl);
    const answers = await Promise.allSettled([fetch(cb), fetch(cb), fetch(cb)]);
    const statuses = await Promise.all(
      answers.map(async (a) =>
        a.status === 'fulfilled' ? `${a.value.status} ${await a.value.text()}` : 'closed',
      ),
    );
    expect(statuses.filter((s) => s.startsWith('200'))).toHaveLength(1);
    for (const s of statuses.filter((x) => !x.startsWith('200')))
      expect(s === 'closed' || /^400 .*already received an answer/s.test(s)).toBe(true);
    expect((await settledFlow(kit.control, start.flowId)).state).toBe('connected');
    expect(kit.fake.tokenRequests.filter((r) => r.grantType === 'authorization_code')).toHaveLength(
      1,
    );
    await expect(fetch(cb)).rejects.toThrow(); // after the answer the listener is closed
  });

  it('ends with a clear message when the user denies access', async () => {
    kit = await googleKit();
    kit.fake.deny = true;
    const start = await kit.control.startGoogleConnect();
    const visit = await browse(start.authUrl);
    expect(visit.status).toBe(400);
    expect(visit.page).toContain('Access not granted');
    const view = await settledFlow(kit.control, start.flowId);
    expect(view).toMatchObject({
      state: 'failed',
      error: {
        code: 'ACCESS_DENIED',
        message: expect.stringMatching(/not granted.*Nothing was connected/),
      },
    });
    expect(kit.accounts.accounts()).toEqual([]);
  });

  it('times out when nobody answers (5 min, on a fake clock), and closes the listener', async () => {
    kit = await googleKit();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const start = await kit.control.startGoogleConnect();
      await vi.advanceTimersByTimeAsync(5 * 60_000 - 1);
      const before = kit.control.waitGoogleConnect(start.flowId, 0);
      await vi.advanceTimersByTimeAsync(0);
      expect((await before).state).toBe('waiting');
      await vi.advanceTimersByTimeAsync(1);
      vi.useRealTimers();
      const view = await settledFlow(kit.control, start.flowId);
      expect(view).toMatchObject({
        state: 'failed',
        error: { code: 'TIMEOUT', message: expect.stringContaining('nothing was connected') },
      });
      await expect(fetch(start.redirectUri)).rejects.toThrow();
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails loudly when Google sends no refresh token, pointing at the permissions page', async () => {
    kit = await googleKit();
    kit.fake.omitRefreshToken = true;
    const start = await kit.control.startGoogleConnect();
    const visit = await browse(start.authUrl);
    expect(visit.page).toContain('myaccount.google.com/permissions');
    const view = await settledFlow(kit.control, start.flowId);
    expect(view.error).toMatchObject({
      code: 'NO_REFRESH_TOKEN',
      message: expect.stringContaining('https://myaccount.google.com/permissions'),
    });
    expect(await kit.vault.get('google:alice@example.com')).toBeNull();
    expect(kit.accounts.accounts()).toEqual([]);
  });

  it('uses another free port when the configured callback port is taken', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const taken = (blocker.address() as { port: number }).port;
    try {
      kit = await googleKit({
        settings: (s) => s.update((x) => void (x.google.callbackPort = taken)),
      });
      const start = await kit.control.startGoogleConnect();
      expect(new URL(start.redirectUri).port).not.toBe(String(taken));
      await browse(start.authUrl);
      expect((await settledFlow(kit.control, start.flowId)).state).toBe('connected');
    } finally {
      blocker.close();
    }
  });

  it('reconnecting sends login_hint and keeps the account read-only unless told otherwise', async () => {
    kit = await googleKit();
    await kit.connect({ readOnly: true });
    await kit.connect({ account: 'Alice@Example.com' });
    expect(kit.fake.lastAuthRequest!.get('login_hint')).toBe('alice@example.com');
    expect(kit.fake.lastAuthRequest!.get('scope')).not.toContain('gmail.modify');
    expect(kit.accounts.accounts()).toHaveLength(1);
    await expect(
      kit.control.startGoogleConnect({ account: 'bob@example.com' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a newer start cancels the flow still waiting; cancel ends a flow', async () => {
    kit = await googleKit();
    const first = await kit.control.startGoogleConnect();
    const second = await kit.control.startGoogleConnect();
    expect((await kit.control.waitGoogleConnect(first.flowId, 0)).state).toBe('cancelled');
    await expect(fetch(first.redirectUri)).rejects.toThrow();
    expect((await kit.control.cancelGoogleConnect(second.flowId)).state).toBe('cancelled');
  });

  it('refuses to start without an OAuth client, saying how to add one', async () => {
    kit = await googleKit();
    kit.settings.update((s) => void delete s.google.client);
    await expect(kit.control.startGoogleConnect()).rejects.toMatchObject({
      code: 'INVALID',
      message: expect.stringContaining('airlock google client import'),
    });
  });
});

describe('the fake checks PKCE', () => {
  it('rejects a code exchange with the wrong code_verifier as invalid_grant', async () => {
    kit = await googleKit();
    const oauth = new GoogleOAuth({
      client: await kit.accounts.client.credentials(),
      endpoints: kit.accounts.endpoints(),
    });
    const { challenge } = await oauth.pkce();
    const redirectUri = 'http://127.0.0.1:9/oauth2/callback';
    const authUrl = await oauth.authUrl({ redirectUri, state: 's', challenge, scopes: ['openid'] });
    const code = (await consentRedirect(authUrl)).searchParams.get('code')!;
    const wrong = (await oauth.pkce()).verifier;
    const err = await oauth
      .exchange({ code, verifier: wrong, redirectUri })
      .catch((e: unknown) => e);
    expect(describeOAuthError(err)).toMatchObject({
      status: 400,
      error: 'invalid_grant',
      description: 'Invalid code verifier.',
    });
  });
});
