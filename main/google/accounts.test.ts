import { afterEach, describe, expect, it } from 'vitest';
import { VaultError } from '../platform/vault/vault.js';
import { googleKit, type GoogleKit } from '../../test-support/google.js';
import { pendingCalls } from '../../test-support/pending-calls.js';
import { GoogleToolError } from './account-access.js';
import { GoogleAccounts } from './accounts.js';
import { googleErrorResult } from './errors.js';
import { SCOPES } from './scopes.js';

let kit: GoogleKit;
afterEach(async () => kit?.close());

const bundleOf = async (k: GoogleKit, email = 'alice@example.com') =>
  JSON.parse((await k.vault.get(`google:${email}`))!);
const fail = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as GoogleToolError,
  );

describe('access tokens (issue 5, item 6)', () => {
  it('serves the stored token while it has more than 2 minutes left, without refreshing', async () => {
    kit = await googleKit();
    await kit.connect();
    const { accessToken } = await bundleOf(kit);
    expect(await kit.accounts.accessToken('alice@example.com')).toBe(accessToken);
    expect(kit.fake.refreshCount).toBe(0);
  });

  it('an expired token and 20 concurrent callers make exactly one refresh; the old refresh token is kept', async () => {
    kit = await googleKit();
    kit.fake.accessTtlSeconds = 60; // inside the 2-minute margin: due for refresh at once
    await kit.connect();
    const before = await bundleOf(kit);
    kit.fake.accessTtlSeconds = 3599;
    // The refresh stays in flight until the fake has it and all 20 callers are waiting.
    const hold = kit.fake.holdRefreshes();
    const calls = pendingCalls(kit.accounts, 'accessToken');
    const asked = Promise.all(
      Array.from({ length: 20 }, () => kit.accounts.accessToken('alice@example.com')),
    );
    await hold.arrived;
    await calls.reach(20);
    hold.release();
    const tokens = await asked;
    calls.restore();
    expect(kit.fake.refreshCount).toBe(1);
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(before.accessToken);
    const after = await bundleOf(kit);
    expect(after).toMatchObject({ accessToken: tokens[0], refreshToken: before.refreshToken });
    expect(after.expiry).toBeGreaterThan(Date.now() + 3000_000);
    // Fresh now: more calls do not refresh again.
    await kit.accounts.accessToken('alice@example.com');
    expect(kit.fake.refreshCount).toBe(1);
  });

  it('invalid_grant turns the account needs_reconnect and every caller gets OAUTH_REVOKED naming the account', async () => {
    kit = await googleKit();
    kit.fake.accessTtlSeconds = 60;
    await kit.connect();
    let changes = 0;
    kit.accounts.onChange(() => changes++);
    kit.fake.refreshFailure = {
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
    };
    const errors = await Promise.all(
      Array.from({ length: 5 }, () => fail(kit.accounts.accessToken('alice@example.com'))),
    );
    expect(kit.fake.refreshCount).toBe(1);
    for (const e of errors) {
      expect(e).toBeInstanceOf(GoogleToolError);
      expect(e).toMatchObject({
        code: 'OAUTH_REVOKED',
        message: expect.stringContaining('Reconnect alice@example.com in Airlock'),
      });
    }
    expect(kit.settings.get().google.accounts[0]).toMatchObject({
      state: 'needs_reconnect',
      detail: expect.stringContaining('invalid_grant'),
    });
    expect(changes).toBeGreaterThan(0);
    // Known revoked: the next call answers at once, without asking Google again.
    const again = await fail(kit.accounts.accessToken('alice@example.com'));
    expect(again).toMatchObject({ code: 'OAUTH_REVOKED' });
    expect(kit.fake.refreshCount).toBe(1);
    const result = googleErrorResult(again);
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^Reconnect alice@example.com in Airlock.*\[OAUTH_REVOKED\]$/),
    });
    // Reconnecting brings it back.
    kit.fake.refreshFailure = null;
    kit.fake.accessTtlSeconds = 3599;
    await kit.connect({ account: 'alice@example.com' });
    expect(kit.accounts.accounts()[0]).toMatchObject({ state: 'connected' });
    expect(await kit.accounts.accessToken('alice@example.com')).toMatch(/^ya29\./);
  });

  it('a grant revoked at Google (not a scripted failure) is detected the same way', async () => {
    kit = await googleKit();
    kit.fake.accessTtlSeconds = 60;
    await kit.connect();
    kit.fake.grants.revoke((await bundleOf(kit)).refreshToken);
    expect(await fail(kit.accounts.accessToken('alice@example.com'))).toMatchObject({
      code: 'OAUTH_REVOKED',
    });
    expect(kit.accounts.accounts()[0]!.state).toBe('needs_reconnect');
  });

  it('a locked keychain is VAULT_LOCKED, and the account stays connected', async () => {
    kit = await googleKit();
    await kit.connect();
    const fresh = new GoogleAccounts({
      settings: kit.settings,
      vault: kit.vault,
      env: kit.fake.env(),
    });
    kit.vault.failure = new VaultError('VAULT_LOCKED', 'The keychain is locked.');
    const err = await fail(fresh.accessToken('alice@example.com'));
    expect(err).toMatchObject({
      code: 'VAULT_LOCKED',
      message: expect.stringContaining('Unlock the system keychain'),
    });
    expect(googleErrorResult(err).content[0]).toMatchObject({
      text: expect.stringMatching(/^Unlock the system keychain.*\[VAULT_LOCKED\]$/),
    });
    kit.vault.failure = null;
    expect(fresh.accounts()[0]!.state).toBe('connected');
  });

  it('an unknown account is NO_ACCOUNT listing the connected ones', async () => {
    kit = await googleKit();
    await kit.connect();
    expect(await fail(kit.accounts.accessToken('bob@example.com'))).toMatchObject({
      code: 'NO_ACCOUNT',
      message: expect.stringContaining('alice@example.com'),
    });
  });
});

describe('authorized fetch: Google API errors become typed errors', () => {
  it('a 401 is answered with one refresh and one retry', async () => {
    kit = await googleKit();
    await kit.connect();
    kit.fake.grants.expireAll();
    const res = await kit.accounts.fetch(
      'alice@example.com',
      `${kit.accounts.apiRoot()}gmail/v1/users/me/profile`,
    );
    expect(await res.json()).toMatchObject({ emailAddress: 'alice@example.com' });
    expect(kit.fake.refreshCount).toBe(1);
  });

  it('403 insufficient scopes → OAUTH_SCOPE', async () => {
    kit = await googleKit();
    kit.fake.grantScopes = (asked) => asked.filter((s) => !s.includes('gmail')); // user unticked Gmail
    const view = await kit.connect();
    expect(view.account!.missingScopes).toEqual([SCOPES.gmailModify, SCOPES.gmailSettings]);
    const err = await fail(
      kit.accounts.fetch('alice@example.com', `${kit.accounts.apiRoot()}gmail/v1/users/me/profile`),
    );
    expect(err).toMatchObject({
      code: 'OAUTH_SCOPE',
      message: expect.stringContaining('Reconnect alice@example.com in Airlock'),
    });
  });

  it("429 and 403 rate-limit reasons → RATE_LIMITED with Google's retry hint", async () => {
    kit = await googleKit();
    await kit.connect();
    const profile = `${kit.accounts.apiRoot()}gmail/v1/users/me/profile`;
    kit.fake.apiFailures.push({
      status: 429,
      statusText: 'RESOURCE_EXHAUSTED',
      message: 'Too many requests',
      reason: 'rateLimitExceeded',
      headers: { 'retry-after': '17' },
    });
    const e429 = await fail(kit.accounts.fetch('alice@example.com', profile));
    expect(e429).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 17 });
    expect(googleErrorResult(e429).content[0]).toMatchObject({
      text: expect.stringContaining('Try again in 17 seconds. [RATE_LIMITED]'),
    });
    const at = new Date(Date.now() + 42_000).toISOString();
    kit.fake.apiFailures.push({
      status: 403,
      statusText: 'PERMISSION_DENIED',
      message: `User-rate limit exceeded.  Retry after ${at}`,
      reason: 'userRateLimitExceeded',
    });
    const e403 = await fail(kit.accounts.fetch('alice@example.com', profile));
    expect(e403).toMatchObject({ code: 'RATE_LIMITED' });
    expect(e403!.retryAfterSeconds).toBeGreaterThanOrEqual(40);
    expect(e403!.retryAfterSeconds).toBeLessThanOrEqual(43);
  });
});

describe('several accounts and disconnect (issue 5, items 5 and 7)', () => {
  it('knows accounts by address, the first connected is the default', async () => {
    kit = await googleKit();
    await kit.connect({ user: 'alice@example.com' });
    await kit.connect({ user: 'bob@example.com', readOnly: true });
    expect(kit.accounts.accounts().map((a) => [a.email, a.readOnly])).toEqual([
      ['alice@example.com', false],
      ['bob@example.com', true],
    ]);
    expect(kit.accounts.defaultAccount()!.email).toBe('alice@example.com');
    expect(kit.accounts.resolve('BOB@example.com').email).toBe('bob@example.com');
    const [a, b] = await Promise.all([
      kit.accounts.accessToken('alice@example.com'),
      kit.accounts.accessToken('bob@example.com'),
    ]);
    expect(kit.fake.grants.access.get(a)!.email).toBe('alice@example.com');
    expect(kit.fake.grants.access.get(b)!.email).toBe('bob@example.com');
  });

  it('disconnect revokes at Google, deletes the vault entry, removes the account and tells listeners', async () => {
    kit = await googleKit();
    await kit.connect({ user: 'alice@example.com' });
    await kit.connect({ user: 'bob@example.com' });
    const { refreshToken } = await bundleOf(kit);
    let changes = 0;
    kit.accounts.onChange(() => changes++);
    expect(await kit.control.disconnectGoogle('alice@example.com')).toEqual({
      email: 'alice@example.com',
      revoked: true,
    });
    expect(kit.fake.revoked).toEqual([refreshToken]);
    expect(kit.fake.grants.refresh.get(refreshToken)!.revoked).toBe(true);
    expect(await kit.vault.get('google:alice@example.com')).toBeNull();
    expect(kit.accounts.accounts().map((a) => a.email)).toEqual(['bob@example.com']);
    expect(kit.accounts.defaultAccount()!.email).toBe('bob@example.com');
    expect(changes).toBe(1);
    expect(await fail(kit.accounts.accessToken('alice@example.com'))).toMatchObject({
      code: 'NO_ACCOUNT',
    });
    await expect(kit.control.disconnectGoogle('alice@example.com')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('disconnect still removes the account when Google cannot be reached, and says what to do', async () => {
    kit = await googleKit();
    await kit.connect();
    await kit.fake.stop();
    const r = await kit.control.disconnectGoogle('alice@example.com');
    expect(r).toMatchObject({
      revoked: false,
      detail: expect.stringContaining('myaccount.google.com/permissions'),
    });
    expect(await kit.vault.get('google:alice@example.com')).toBeNull();
    expect(kit.accounts.accounts()).toEqual([]);
  });

  it('a locked keychain stops disconnect before anything changes', async () => {
    kit = await googleKit();
    await kit.connect();
    kit.vault.failure = new VaultError('VAULT_LOCKED', 'locked');
    await expect(kit.control.disconnectGoogle('alice@example.com')).rejects.toMatchObject({
      code: 'VAULT_LOCKED',
    });
    kit.vault.failure = null;
    expect(kit.accounts.accounts()).toHaveLength(1);
    expect(kit.fake.revoked).toEqual([]);
  });
});
