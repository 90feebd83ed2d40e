import type { FetchLike } from '@modelcontextprotocol/client';
import { MemoryVault } from '../main/platform/vault/vault.js';
import type { Resolver } from '../main/remote/http/address-guard.js';
import { LoginFlow } from '../main/remote/oauth/login-flow.js';
import { OAuthStore } from '../main/remote/oauth/store.js';

/**
 * Starts a remote server's sign-in as `airlock remote login` does, on `fetchFn`, and returns the
 * flow with the error its start ended in (null when it got as far as the browser page). The flow
 * is cancelled by `cleanup` (test-support/cleanup.ts).
 */
export async function startSignIn(
  serverUrl: string,
  fetchFn: FetchLike,
  cleanup: (() => Promise<unknown>)[],
  /** The resolver the sign-in connects and judges by (address-guard.ts); the system's if absent. */
  resolve?: Resolver,
): Promise<{ flow: LoginFlow; err: { code?: string; message?: string } | null }> {
  const flow = new LoginFlow({
    name: 'svc',
    serverUrl,
    store: new OAuthStore(new MemoryVault(), 'svc', () => {}),
    timeoutMs: 10_000,
    fetch: fetchFn,
    ...(resolve ? { resolve } : {}),
  });
  cleanup.push(async () => flow.cancel());
  const err = await flow.start().then(
    () => null,
    (e: unknown) => e as { code?: string; message?: string },
  );
  return { flow, err };
}
