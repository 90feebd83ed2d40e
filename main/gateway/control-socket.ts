import { createHash, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ControlApi } from '../../common/contract/index.js';
import { OPEN_CODE_MINT_METHOD } from '../../common/open-code.js';
import type { Logger } from '../platform/log.js';
import { dispatchControl } from './control-dispatch.js';
import type { OpenCodes } from './control-open-codes.js';
import type { LooseningGate } from './loosening-gate.js';

/**
 * The local control channel (issue 19, item 3): ControlApi for the CLI of the
 * same OS user, with no token to fetch from a keychain. On Unix a socket,
 * mode 0600, inside a directory of mode 0700 (macOS ignores a socket's own
 * mode, so the directory is what keeps others out); only processes of the
 * same user (or root) can connect. On Windows a named pipe; libuv cannot
 * give a pipe an owner-only ACL, so there every request must also carry the
 * control token.
 *
 * Protocol: one JSON object per line each way, `{"method", "params"[, "token"]}`
 * → `{"status", "result"}` or `{"status", "error", "message"}`; the same
 * dispatch as `POST /api/rpc` (control-dispatch.ts).
 */
export interface ControlSocketOptions {
  api: ControlApi;
  logger: Logger;
  /** Required on Windows (see above); ignored elsewhere. */
  controlToken: string;
  /**
   * Issue 17.7: the socket is never Airlock's window, so loosening asked for here (the CLI,
   * or an agent with a shell running it) waits for the user's confirmation in the window.
   */
  gate?: LooseningGate;
  /** Where minted open codes go (control-open-codes.ts): the store the control routes redeem from. */
  openCodes: OpenCodes;
}

const MAX_LINE = 1024 * 1024;
const digest = (s: string) => createHash('sha256').update(s).digest();

/** Where a profile's control socket lives. Unix socket paths are limited to ~104 bytes. */
export function controlSocketPath(
  dataDir: string,
  platform: NodeJS.Platform = process.platform,
): string {
  const id = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  if (platform === 'win32') return `\\\\.\\pipe\\airlock-${id}`;
  const inData = join(dataDir, 'run', 'control.sock');
  if (Buffer.byteLength(inData) <= 100) return inData;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return join(tmpdir(), `airlock-${uid}`, `${id}.sock`);
}

export class ControlSocket {
  private server: Server | null = null;
  private path: string | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly tokenDigest: Buffer;

  constructor(private readonly o: ControlSocketOptions) {
    this.tokenDigest = digest(o.controlToken);
  }

  async start(path: string): Promise<string> {
    const windows = process.platform === 'win32';
    if (!windows) {
      const dir = dirname(path);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      chmodSync(dir, 0o700); // an existing directory keeps its mode otherwise
      const st = statSync(dir);
      if (typeof process.getuid === 'function' && st.uid !== process.getuid())
        throw new Error(
          `${dir} belongs to another user; refusing to put the control socket there.`,
        );
      // Only one server per data dir runs (the instance lock), so a socket here is stale.
      rmSync(path, { force: true });
    }
    const server = createServer((socket) => this.serve(socket, windows));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
    if (!windows) chmodSync(path, 0o600);
    this.server = server;
    this.path = path;
    return path;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (this.path && process.platform !== 'win32') rmSync(this.path, { force: true });
    this.path = null;
  }

  private serve(socket: Socket, needToken: boolean): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = '';
    let chain = Promise.resolve();
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.length > MAX_LINE && !buffered.includes('\n')) {
        this.reply(socket, { status: 413, error: 'TOO_LARGE', message: 'Request too large.' });
        socket.end();
        return;
      }
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        // Answer in order, one call at a time per connection.
        chain = chain.then(() => this.handle(socket, line, needToken));
      }
    });
  }

  private async handle(socket: Socket, line: string, needToken: boolean): Promise<void> {
    let call: { method?: unknown; params?: unknown; token?: unknown };
    try {
      call = JSON.parse(line) as typeof call;
    } catch {
      return this.reply(socket, {
        status: 400,
        error: 'INVALID',
        message: 'Each line must be JSON: {"method": …, "params": [...]}.',
      });
    }
    // A code is worth the control token, so minting one takes the token on every platform: the
    // socket alone (any process of this user) must not be a way to the token.
    const mint = call.method === OPEN_CODE_MINT_METHOD;
    if (needToken || mint) {
      const t = typeof call.token === 'string' ? call.token : '';
      if (!timingSafeEqual(digest(t), this.tokenDigest))
        return this.reply(socket, {
          status: 401,
          error: 'UNAUTHORIZED',
          message: 'The control token is missing or wrong.',
        });
    }
    if (mint) {
      const result = this.o.openCodes.mint(this.o.controlToken);
      return this.reply(socket, { status: 200, result });
    }
    const gate = this.o.gate;
    const { status, body } = await dispatchControl(
      this.o.api,
      call,
      this.o.logger,
      gate && ((method, params, run) => gate.hold(method, params, run, false)),
    );
    this.reply(socket, { status, ...body });
  }

  private reply(socket: Socket, body: Record<string, unknown>): void {
    if (!socket.destroyed) socket.write(JSON.stringify(body) + '\n');
  }
}
