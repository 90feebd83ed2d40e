import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable } from 'node:stream';
import {
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { endGroup, spawnGroup, type Launch } from './process-group.js';
import { exitText, spawnFailure, StdioError } from './errors.js';
import type { PreparedLaunch } from './sandbox/launcher.js';
import { LineReader } from './line-reader.js';
import { malformedAnswerError } from '../http/lean-transport.js';

export interface ChildTransportOptions {
  launch: Launch;
  /**
   * Issue 35: what to spawn in place of `launch` — the OS sandbox around it — made fresh for
   * every start; its StdioError (the status text) fails the start instead.
   */
  prepare?: () => Promise<PreparedLaunch>;
  /** Each stderr line (already split; long lines cut). */
  onStderr?: (line: string) => void;
  /** The process started (pid) and ended (why). */
  onSpawn?: (pid: number) => void;
  onExit?: (why: string) => void;
  /** Text for an early exit: the last stderr lines, redacted by the caller. */
  stderrTail?: () => string;
}

const MAX_LINE = 2000;
/**
 * How long an exit's report waits for stderr's end. Not 'close' on the child: a process the
 * server left behind (npx's children, a daemon it started) can hold stdio open long after the
 * server ended, and the end must still be reported.
 */
export const STDERR_AFTER_EXIT_MS = 1_000;

/** `then` once `stream` has closed, or after `ms` if something else still holds it open. */
function afterEnd(stream: Readable, ms: number, then: () => void): void {
  if (stream.closed) return then();
  const done = () => {
    clearTimeout(timer);
    stream.off('close', done);
    then();
  };
  const timer = setTimeout(done, ms);
  timer.unref();
  stream.once('close', done);
}

/**
 * MCP stdio transport (spec 2025-11-25, "Transports: stdio") over a child we
 * supervise ourselves. The SDK's StdioClientTransport spawns and kills only
 * the direct child; Airlock needs the whole process group ended (npx → node
 * server) and cross-spawn's Windows shim handling, hence this small transport.
 * Messages are newline-delimited JSON on stdin/stdout; stderr is the server's log.
 */
export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcessWithoutNullStreams | undefined;
  /** Newline-delimited JSON-RPC, checked by shape rather than by zod (line-reader.ts). */
  private readonly buffer = new LineReader();
  private closed = false;
  private stderrRest = '';
  /** The ids of our requests not answered yet. */
  private readonly asked = new Set<string | number>();

  constructor(private readonly o: ChildTransportOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    if (this.child || this.starting) throw new Error('ChildProcessTransport already started');
    this.starting = true;
    const prepared = this.o.prepare ? await this.o.prepare() : { launch: this.o.launch };
    if (this.closed) throw new StdioError('the server was stopped before it started');
    return this.spawn(prepared);
  }

  private starting = false;

  private spawn(prepared: PreparedLaunch): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawnGroup(prepared.launch, prepared.extraStdio);
      } catch (err) {
        return reject(spawnFailure(this.o.launch.command, err as NodeJS.ErrnoException));
      }
      this.child = child;
      let started = false;
      child.once('error', (err: NodeJS.ErrnoException) => {
        const e = spawnFailure(this.o.launch.command, err);
        if (!started) reject(e);
        else this.onerror?.(e);
        this.finish();
      });
      child.once('spawn', () => {
        started = true;
        if (child.pid !== undefined) this.o.onSpawn?.(child.pid);
        resolve();
      });
      child.once('exit', (code, signal) => {
        const why = exitText(code, signal);
        this.o.onExit?.(why);
        // 'exit' can come before the last of stderr is read, and that tail is what says why.
        afterEnd(child.stderr, STDERR_AFTER_EXIT_MS, () => {
          this.flushStderr();
          if (!this.closed) {
            const tail = this.o.stderrTail?.() ?? '';
            this.onerror?.(new StdioError(`the server process ${why}${tail ? `: ${tail}` : ''}`));
          }
          this.finish();
        });
      });
      child.stdout.on('data', (chunk: Buffer) => {
        // Output still arriving after the end (a line over the bound, or closed): not read, and
        // not counted in the in-flight budget, which nothing would give back.
        if (this.closed) return;
        try {
          this.buffer.append(chunk);
        } catch (err) {
          // One message over the buffer bound (10 MB), or over the budget for answers being read
          // at once: the stream cannot be resynchronised. The calls waiting on this server fail
          // with the reason rather than a bare "connection closed".
          this.onerror?.(err as Error);
          for (const id of this.asked)
            this.onmessage?.(malformedAnswerError(id, (err as Error).message));
          void this.close();
          return;
        }
        this.drain();
      });
      child.stdout.on('error', (err) => this.onerror?.(err));
      child.stdin.on('error', (err) => {
        // EPIPE after the server exited: the 'exit' handler reports it.
        if ((err as NodeJS.ErrnoException).code !== 'EPIPE') this.onerror?.(err);
      });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (s: string) => this.stderrData(s));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (!child || this.closed || !child.stdin.writable)
      return Promise.reject(new StdioError('the server process is not running'));
    if ('method' in message) {
      if ('id' in message) this.asked.add(message.id);
      // A request given up on (cancelled, timed out) may never be answered: not kept for ever.
      else if (message.method === 'notifications/cancelled') {
        const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
        if (typeof id === 'string' || typeof id === 'number') this.asked.delete(id);
      }
    }
    return new Promise<void>((resolve) => {
      // Backpressure: resolve once the write drained; errors surface via 'error'/'exit'.
      if (child.stdin.write(serializeMessage(message))) resolve();
      else child.stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    this.closed = true;
    if (child) await endGroup(child);
    this.finish();
  }

  private drain(): void {
    for (;;) {
      let msg: JSONRPCMessage | null;
      try {
        msg = this.buffer.readMessage();
      } catch (err) {
        // A line that is not JSON-RPC (a server printing logs to stdout): report and skip it.
        this.onerror?.(err as Error);
        continue;
      }
      if (msg === null) return;
      if ('id' in msg && msg.id !== undefined && ('result' in msg || 'error' in msg))
        this.asked.delete(msg.id);
      this.onmessage?.(msg);
    }
  }

  private stderrData(s: string): void {
    const lines = (this.stderrRest + s).split(/\r?\n/);
    this.stderrRest = lines.pop() ?? '';
    if (this.stderrRest.length > MAX_LINE) {
      lines.push(this.stderrRest);
      this.stderrRest = '';
    }
    for (const line of lines) if (line.trim()) this.o.onStderr?.(line.slice(0, MAX_LINE));
  }

  private flushStderr(): void {
    if (this.stderrRest.trim()) this.o.onStderr?.(this.stderrRest.slice(0, MAX_LINE));
    this.stderrRest = '';
  }

  private finished = false;
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.closed = true;
    this.buffer.clear();
    this.asked.clear();
    this.onclose?.();
  }
}
