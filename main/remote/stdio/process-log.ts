import { codeUnits, textPrefix } from '../../../common/text-cut.js';
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
/** The stderr excerpt in a status text, and one line in it, at most (characters). */
const TAIL_CHARS = 400;
const LINE_CHARS = 300;

/** `text` cut to `max` characters at a word boundary where there is one near, marked with "…". */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = textPrefix(text, max - 1, codeUnits);
  const space = head.lastIndexOf(' ');
  return (space > max * 0.6 ? head.slice(0, space) : head) + '…';
}

/**
 * Per local server: the processes Airlock started for it, their stderr (to
 * the log, line by line, and the last lines for the status text) and how the
 * last one ended. Known secret values (the server's secret environment) are
 * replaced in everything it hands out. It only records: the restart after a
 * crash is ServerConnection.fail + RestartTimer (docs/remote.md, "Crash and restart").
 */
export class StdioProcessLog {
  private readonly pids = new Set<number>();
  private starts = 0;
  private lastExit: string | undefined;
  private tail: string[] = [];
  private secrets: string[] = [];
  /** Bumped when Airlock ends the server's processes: an attempt from before must not start another. */
  private epochValue = 0;
  /** While the server stays down, each retry's lines go to debug (remote/connection/restart-backoff.ts, OutageLog). */
  private quietly = false;

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

  quiet(on: boolean): void {
    this.quietly = on;
  }

  private log(msg: string, fields: Record<string, unknown>): void {
    if (this.quietly) this.logger.debug(msg, fields);
    else this.logger.info(msg, fields);
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
    this.log('local server started', { server: this.name, pid });
  }

  exited(pid: number | undefined, why: string): void {
    if (pid !== undefined) this.pids.delete(pid);
    this.lastExit = why;
    this.log('local server process ended', { server: this.name, pid, why });
  }

  stderr(line: string): void {
    const clean = this.redact(line);
    this.tail.push(cut(clean, LINE_CHARS));
    if (this.tail.length > TAIL_LINES) this.tail.shift();
    this.log('local server stderr', { server: this.name, line: clean });
  }

  /**
   * The last stderr lines, joined, for "exited with code 1: <why>": as many whole lines as fit,
   * so the text starts where a line starts (issue 29, item 8: it read "rror 404 …").
   */
  stderrTail(): string {
    let out = '';
    for (let i = this.tail.length - 1; i >= 0; i--) {
      const next = out ? `${this.tail[i]} | ${out}` : this.tail[i]!;
      if (next.length > TAIL_CHARS) break;
      out = next;
    }
    return out || cut(this.tail.at(-1) ?? '', TAIL_CHARS);
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
