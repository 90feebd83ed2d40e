import {
  CONTROL_METHODS,
  ControlError,
  type ControlApi,
  type ControlErrorCode,
} from './contract/index.js';

/** One call over some transport: a method name and its positional arguments. */
export type ControlCall = (method: string, params: unknown[]) => Promise<unknown>;

/**
 * ControlApi over any transport that can carry one call: every method of the contract, each
 * sending its name and arguments. The HTTP client (common/http-control-client.ts), the control
 * socket's (main/cli/socket-client.ts) and any later one share it, so a method added to the
 * contract reaches them all (issue 31: the client was built twice).
 */
export function controlApiOver(call: ControlCall): ControlApi {
  const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of CONTROL_METHODS) {
    // JSON has no `undefined`: drop trailing omitted arguments instead of sending null.
    api[method] = (...params: unknown[]) => {
      while (params.length > 0 && params[params.length - 1] === undefined) params.pop();
      return call(method, params);
    };
  }
  return api as unknown as ControlApi;
}

/** The error an answer that is not a result carries (`{ error, message }`, as /api/rpc sends). */
export function answerError(
  body: { error?: string; message?: string },
  fallback: string,
): ControlError {
  return new ControlError((body.error as ControlErrorCode) ?? 'INTERNAL', body.message ?? fallback);
}
