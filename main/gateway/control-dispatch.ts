import {
  CONTROL_METHODS,
  ControlError,
  type ControlApi,
  type ControlMethod,
} from '../../common/contract/index.js';
import type { Logger } from '../platform/log.js';
import { isVaultError } from '../platform/vault/vault.js';
import { checkControlParams } from './control-params.js';

export type RpcBody = { result: unknown } | { error: string; message: string };

/**
 * One ControlApi call, `{method, params}` → status + JSON body. Shared by every
 * transport of the control API — `POST /api/rpc` (control-routes.ts) and the
 * local control socket (control-socket.ts) — so they cannot drift apart.
 */
export async function dispatchControl(
  api: ControlApi,
  call: unknown,
  logger: Logger,
  /** The transport's say on calls that must wait for the window (issue 17.7, loosening-gate.ts). */
  hold?: (
    method: string,
    params: unknown[],
    run: () => Promise<unknown>,
  ) => Promise<{ status: number; body: RpcBody } | null>,
): Promise<{ status: number; body: RpcBody }> {
  const c = (call ?? {}) as { method?: unknown; params?: unknown };
  const method = c.method;
  if (typeof method !== 'string' || !(CONTROL_METHODS as readonly string[]).includes(method)) {
    return {
      status: 404,
      body: { error: 'NOT_FOUND', message: `Unknown control method ${String(method)}.` },
    };
  }
  try {
    // Every argument has the contract's type before anything acts on it (issue 27, item 8).
    const params = checkControlParams(
      method as ControlMethod,
      Array.isArray(c.params) ? c.params : [],
    );
    const fn = api[method as ControlMethod] as (...args: unknown[]) => Promise<unknown>;
    const held = hold && (await hold(method, params, () => fn.apply(api, params)));
    if (held) return held;
    const result = await fn.apply(api, params);
    return { status: 200, body: { result: result ?? null } };
  } catch (err) {
    const { status, code, message } = describeError(err);
    if (status === 500) logger.error('control call failed', { method, error: message });
    return { status, body: { error: code, message } };
  }
}

function describeError(err: unknown): { status: number; code: string; message: string } {
  if (err instanceof ControlError) {
    const status = {
      NOT_FOUND: 404,
      INVALID: 400,
      CONFLICT: 409,
      CONFIRM_REQUIRED: 409,
      CONFIRM_IN_WINDOW: 409,
      FORBIDDEN: 403,
      KEYCHAIN_UNAVAILABLE: 503,
      VAULT_LOCKED: 503,
      INTERNAL: 500,
    }[err.code];
    return { status, code: err.code, message: err.message };
  }
  if (isVaultError(err)) return { status: 503, code: err.code, message: err.message };
  return {
    status: 500,
    code: 'INTERNAL',
    message: err instanceof Error ? err.message : String(err),
  };
}
