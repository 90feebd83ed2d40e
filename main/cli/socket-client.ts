import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import type { ControlApi } from '../../common/contract/index.js';
import { answerError, controlApiOver } from '../../common/control-client.js';

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
  return controlApiOver(
    (method, params) =>
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
          else reject(answerError(body, `status ${body.status}`));
        });
        socket.once('close', () => {
          if (!answered) {
            answered = true;
            reject(new Error('The server closed the control socket without answering.'));
          }
        });
      }),
  );
}
