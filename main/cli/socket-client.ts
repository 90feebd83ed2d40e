import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import type { ControlApi } from '../../common/contract/index.js';
import { answerError, controlApiOver, type ControlCall } from '../../common/control-client.js';
import { OPEN_CODE_MINT_METHOD, type MintedOpenCode } from '../../common/open-code.js';

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
  return controlApiOver(socketCall(path, token));
}

/**
 * Asks the running server for a one-time open code (common/open-code.ts). The token goes in the
 * request line over the owner-only socket, never on a command line. A server that predates codes
 * answers NOT_FOUND (an unknown method).
 */
export function mintOpenCode(path: string, token: string): Promise<MintedOpenCode> {
  return socketCall(path, token)(OPEN_CODE_MINT_METHOD, []) as Promise<MintedOpenCode>;
}

/** One call per connection: `{"method", "params"[, "token"]}` → its answer line. */
function socketCall(path: string, token?: string): ControlCall {
  return (method, params) =>
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
    });
}
