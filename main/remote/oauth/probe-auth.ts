import {
  computeScopeUnion,
  InsufficientScopeError,
  isStrictScopeSuperset,
} from '@modelcontextprotocol/client';
import type { Vault } from '../../platform/vault/vault.js';
import { LoginError, sanitize, SignInRequiredError } from './errors.js';
import { LoginFlow } from './login-flow.js';
import { userClient } from './login-support.js';
import { OAuthSession, type LoginHints } from './session.js';
import { OAuthStore } from './store.js';

/** OAuth options of `airlock remote probe` (issue 10). */
export interface ProbeOAuth {
  /**
   * Testing aid: sign in without a browser by following the authorization
   * server's redirects (servers that approve on their own, such as the MCP
   * conformance suite's). Tokens live in memory for the probe only.
   */
  auto: boolean;
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  scope?: string;
}

/**
 * The spec's retry guidance for 403 insufficient_scope (MCP 2025-11-25,
 * "Scope Challenge Handling"): step up only while the challenge asks for
 * more than the token has, and give up after a few sign-ins.
 */
const MAX_SIGN_INS = 3;

export interface ProbeSignIn {
  session: OAuthSession;
  /** Runs `op`; on 403 insufficient_scope that a wider sign-in can fix, signs in again and retries. */
  withStepUp<T>(op: () => Promise<T>): Promise<T>;
  describe(err: unknown): string | undefined;
}

export function probeSignIn(
  url: URL,
  o: ProbeOAuth,
  vault: Vault,
  timeoutMs: number,
  onSecret: (v: string) => void,
): ProbeSignIn {
  const store = new OAuthStore(vault, 'probe', onSecret);
  let signIns = 0;
  const signIn = async (hints: LoginHints, scope?: string): Promise<void> => {
    if (++signIns > MAX_SIGN_INS)
      throw new SignInRequiredError(`gave up after ${MAX_SIGN_INS} sign-ins`);
    const flow = new LoginFlow({
      name: url.host,
      serverUrl: url.href,
      store,
      hints,
      ...((scope ?? o.scope) ? { scope: scope ?? o.scope } : {}),
      ...userClient(o),
      timeoutMs,
      autoFollow: true,
    });
    await flow.start();
    await flow.done;
    if (flow.status !== 'signed-in')
      throw new LoginError(
        flow.error?.code ?? 'EXCHANGE_FAILED',
        flow.error?.message ?? 'the sign-in did not complete',
      );
    session.signedIn();
  };
  const session: OAuthSession = new OAuthSession({
    store,
    serverUrl: url.href,
    ...(o.auto ? { signIn } : {}),
  });
  return {
    session,
    async withStepUp<T>(op: () => Promise<T>): Promise<T> {
      for (;;) {
        try {
          return await op();
        } catch (err) {
          if (!o.auto || !(err instanceof InsufficientScopeError)) throw err;
          const granted = store.peek()?.tokens?.scope;
          const wanted = computeScopeUnion(
            session.loginHints().scope,
            granted,
            sanitize(err.requiredScope),
          );
          // The same scope again cannot help: the server will refuse again.
          if (!isStrictScopeSuperset(wanted, granted)) throw err;
          await signIn(
            {
              ...session.loginHints(),
              ...(err.resourceMetadataUrl
                ? { resourceMetadataUrl: err.resourceMetadataUrl.href }
                : {}),
            },
            wanted,
          );
        }
      }
    },
    describe(err: unknown): string | undefined {
      if (err instanceof LoginError) return `sign-in failed: ${err.message} [${err.code}]`;
      return session.describe(err);
    },
  };
}
