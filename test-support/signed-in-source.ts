import { expect } from 'vitest';
import { Logger } from '../main/platform/log.js';
import { MemoryVault } from '../main/platform/vault/vault.js';
import { OAuthSession } from '../main/remote/oauth/session.js';
import { oauthKey, OAuthStore } from '../main/remote/oauth/store.js';
import { RemoteSource } from '../main/remote/remote-source.js';

const NEVER = 10 * 60_000;
/** Timings no test waits out: a step that hangs fails the test by its own timeout instead. */
export const NEVER_TIMINGS = { connectMs: NEVER, listMs: NEVER, readyMs: NEVER, callIdleMs: NEVER };

/**
 * A RemoteSource "svc" for `url`, signed in with a saved access token as after a restart of the
 * app (the redaction security tests: the first request after a start must already know it),
 * started and ready. `store` is its OAuth store, for a test that renews the token.
 */
export async function signedInSource(
  url: string,
  token: string,
  cleanup: (() => Promise<unknown>)[],
  o: { obtainedAt?: number; now?: () => number } = {},
): Promise<{ s: RemoteSource; store: OAuthStore }> {
  const vault = new MemoryVault();
  await vault.set(
    oauthKey('svc'),
    JSON.stringify({
      v: 1,
      serverUrl: url,
      tokens: {
        access_token: token,
        token_type: 'Bearer',
        obtained_at: o.obtainedAt ?? Date.now(),
      },
    }),
  );
  const store = new OAuthStore(vault, 'svc');
  const auth = new OAuthSession({ store, serverUrl: url });
  const s = new RemoteSource(
    { name: 'svc', url, headers: {}, auth },
    {
      logger: new Logger({ stderr: false }),
      version: 'test',
      timings: NEVER_TIMINGS,
      ...(o.now ? { now: o.now } : {}),
    },
  );
  cleanup.push(() => s.stop());
  s.start();
  await s.settled();
  expect(s.status()).toEqual({ state: 'ready' });
  return { s, store };
}
