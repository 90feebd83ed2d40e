import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import {
  CONTROL_METHODS,
  ControlError,
  type ControlApi,
  type ControlErrorCode,
} from '../../common/contract/index.js';

/** Thrown when nothing listens on the socket (a server that predates it, or one that just stopped). */
export class SocketUnreachableError extends Error {
  override name = 'SocketUnreachableError';
}

/**
 * ControlApi over the local control socket (main/gateway/control-socket.ts):
 * what the CLI uses while a server runs, so it needs no keychain (issue 19,
 * item 3). One connection per call: CLI commands make a handful of calls.
 */
export function socketControlClient(path: string, token?: string): ControlApi {
  const call = (method: string, params: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const socket = connect(path);
      let answered = false;
      socket.on('error', (err: NodeJS.ErrnoException) => {
        if (answered) return;
        answered = true;
        reject(
          ['ENOENT', 'ECONNREFUSED', 'EACCES'].includes(err.code ?? '')
            ? new SocketUnreachableError(`${path}: ${err.code}`)
            : err,
        );
      });
      socket.once('connect', () =>
        socket.write(JSON.stringify({ method, params, ...(token ? { token } : {}) }) + '\n'),
      );
      const lines = createInterface({ input: socket });
      lines.on('error', () => {}); // readline re-emits the socket's errors, handled above
      lines.once('line', (line) => {
        answered = true;
        socket.end();
        const body = JSON.parse(line) as {
          status: number;
          result?: unknown;
          error?: string;
          message?: string;
        };
        if (body.status === 200) resolve(body.result);
        else
          reject(
            new ControlError(
              (body.error as ControlErrorCode) ?? 'INTERNAL',
              body.message ?? `status ${body.status}`,
            ),
          );
      });
      socket.once('close', () => {
        if (!answered) {
          answered = true;
          reject(new Error('The server closed the control socket without answering.'));
        }
      });
    });
  const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of CONTROL_METHODS) {
    api[method] = (...params: unknown[]) => {
      while (params.length > 0 && params[params.length - 1] === undefined) params.pop();
      return call(method, params);
    };
  }
  return api as unknown as ControlApi;
}
