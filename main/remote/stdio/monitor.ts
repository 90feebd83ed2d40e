import type { Logger } from '../../platform/log.js';

/** What the server list shows about a local server's process (RemoteView.process). */
export interface ProcessInfo {
  /** Pid of the running process (the group leader); absent while none runs. */
  pid?: number;
  /** How many times Airlock started it since Airlock started. */
  starts: number;
  /** How the last process ended ("exited with code 1", "killed by SIGKILL"). */
  lastExit?: string;
}

const TAIL_LINES = 5;

/**
 * Per local server: the processes Airlock started for it, their stderr (to
 * the log, line by line, and the last lines for the status text) and how the
 * last one ended. Known secret values (the server's secret environment) are
 * replaced in everything it hands out.
 */
export class StdioMonitor {
  private readonly pids = new Set<number>();
  private starts = 0;
  private lastExit: string | undefined;
  private tail: string[] = [];
  private secrets: string[] = [];
  /** Bumped when Airlock ends the server's processes: an attempt from before must not start another. */
  private epochValue = 0;

  constructor(
    readonly name: string,
    private readonly logger: Logger,
  ) {}

  private readonly attempts = new Set<Promise<unknown>>();

  /** Registers a start-up in progress, so `idle()` can wait for it. */
  track<T>(attempt: Promise<T>): Promise<T> {
    this.attempts.add(attempt);
    const done = () => void this.attempts.delete(attempt);
    attempt.then(done, done);
    return attempt;
  }

  /** Resolves when no start-up is in progress, or after `ms`. */
  async idle(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.attempts]),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
    ]);
    clearTimeout(timer);
  }

  get epoch(): number {
    return this.epochValue;
  }

  ended(): void {
    this.epochValue++;
  }

  setSecrets(values: string[]): void {
    this.secrets = values.filter((v) => v.length >= 4).sort((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    let out = text;
    for (const v of this.secrets) out = out.split(v).join('[redacted]');
    return out;
  }

  spawned(pid: number): void {
    this.starts++;
    this.pids.add(pid);
    this.tail = [];
    this.logger.info('local server started', { server: this.name, pid });
  }

  exited(pid: number | undefined, why: string): void {
    if (pid !== undefined) this.pids.delete(pid);
    this.lastExit = why;
    this.logger.info('local server process ended', { server: this.name, pid, why });
  }

  stderr(line: string): void {
    const clean = this.redact(line);
    this.tail.push(clean.slice(0, 300));
    if (this.tail.length > TAIL_LINES) this.tail.shift();
    this.logger.info('local server stderr', { server: this.name, line: clean });
  }

  /** The last stderr lines, joined, for "exited with code 1: <why>". */
  stderrTail(): string {
    return this.tail.join(' | ').slice(-400);
  }

  /** Pids of processes currently running for this server (old and new while a reconnect swaps them). */
  running(): number[] {
    return [...this.pids];
  }

  info(): ProcessInfo {
    const pids = this.running();
    const pid = pids[pids.length - 1];
    return {
      ...(pid !== undefined ? { pid } : {}),
      starts: this.starts,
      ...(this.lastExit ? { lastExit: this.lastExit } : {}),
    };
  }
}
