import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(
  new URL('../main/remote/fixtures/modern-upstream.mjs', import.meta.url),
);

/** A v2-SDK 2026-07-28 upstream as a child process (main/remote/fixtures/modern-upstream.mjs). */
export class ModernUpstream {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  static async start(tools: string[], port = 0): Promise<ModernUpstream> {
    const child = spawn(process.execPath, [SCRIPT], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, PORT: String(port), TOOLS: tools.join(',') },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const bound = await new Promise<number>((resolve, reject) => {
      let err = '';
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /MODERN_UPSTREAM_LISTENING (\d+)/.exec(err);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`modern upstream exited (${code}): ${err}`)));
    });
    return new ModernUpstream(child, bound);
  }

  /** SIGKILL, as a crash would; resolves once the process is gone. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const gone = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGKILL');
    await gone;
  }
}
