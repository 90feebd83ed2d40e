import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ENTRY = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const LOOPBACK = fileURLToPath(
  new URL('../main/remote/fixtures/loopback-only.mjs', import.meta.url),
);

/**
 * The real `@modelcontextprotocol/server-everything` as a child process. It
 * listens on every interface by default (its own default), so a
 * preload pins it to 127.0.0.1 and reports the bound address, which `start`
 * checks before anything talks to it.
 */
export class EverythingServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly mode: 'streamableHttp' | 'sse',
    readonly address: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/${this.mode === 'sse' ? 'sse' : 'mcp'}`;
  }

  static async start(
    mode: 'streamableHttp' | 'sse' = 'streamableHttp',
    port = 0,
  ): Promise<EverythingServer> {
    const child = spawn(process.execPath, ['--import', LOOPBACK, ENTRY, mode], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const { address, boundPort } = await new Promise<{ address: string; boundPort: number }>(
      (resolve, reject) => {
        let err = '';
        const timer = setTimeout(
          () => reject(new Error(`server-everything did not start: ${err}`)),
          15_000,
        );
        child.stderr!.on('data', (d: Buffer) => {
          err += d.toString();
          const m = /AIRLOCK_TEST_LISTENING (\S+) (\d+)/.exec(err);
          if (m) {
            clearTimeout(timer);
            resolve({ address: m[1]!, boundPort: Number(m[2]) });
          }
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`server-everything exited (${code}): ${err}`));
        });
      },
    );
    if (address !== '127.0.0.1') {
      child.kill('SIGKILL');
      throw new Error(`server-everything bound ${address}, not loopback`);
    }
    return new EverythingServer(child, mode, address, boundPort);
  }

  /** SIGKILL, as a crash would; resolves once the process is gone. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const gone = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGKILL');
    await gone;
  }
}
