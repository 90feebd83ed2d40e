import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { answerId, jsonRpcMessage, malformedAnswerError } from '../http/lean-transport.js';
import { InFlight } from '../upstream/in-flight.js';
import { answerIdOf, parseUpstream, UpstreamValuesError } from '../upstream/json-values.js';

/** The SDK's bound on one unread message (ReadBuffer, STDIO_DEFAULT_MAX_BUFFER_SIZE). */
const MAX_BUFFER = 10 * 1024 * 1024;

/**
 * The SDK's stdio `ReadBuffer` (SDK 2.4, shared/stdio.ts) with the structural JSON-RPC check the
 * HTTP leg uses (lean-transport.ts) in place of a zod parse of every message (issue 34: a stdio
 * upstream paid a zod pass per message that the HTTP leg no longer does). Same framing: one
 * message per line, a trailing CR dropped, a line that is not JSON skipped quietly (a server
 * printing to stdout), the same 10 MB bound. A line that is JSON but not JSON-RPC throws, as the
 * SDK's does, and the transport reports and skips it — except an answer to one of our requests,
 * which becomes an error answer naming what was wrong, so its call fails at once instead of at its
 * timeout (as over HTTP, upstream-results.security.test.ts).
 */
export class LineReader {
  private buffer: Buffer | undefined;
  /** The unread output's share of the in-flight budget (upstream/in-flight.ts). */
  private readonly inFlight = new InFlight();

  /** Past a bound: the stream cannot be resynchronised, and what still comes is not read. */
  private stopped = false;

  append(chunk: Buffer): void {
    if (this.stopped) return;
    const n = (this.buffer?.length ?? 0) + chunk.length;
    if (n > MAX_BUFFER) {
      this.stopped = true;
      this.clear();
      throw new Error(
        `the server wrote a line longer than ${MAX_BUFFER / (1024 * 1024)} MiB; Airlock stopped reading its output`,
      );
    }
    const over = this.inFlight.hold(n);
    if (over) {
      this.stopped = true;
      this.clear();
      throw over;
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
  }

  readMessage(): JSONRPCMessage | null {
    try {
      return this.next();
    } finally {
      // Held until parsed: only what is still unread now.
      this.inFlight.hold(this.buffer?.length ?? 0);
    }
  }

  private next(): JSONRPCMessage | null {
    while (this.buffer) {
      const index = this.buffer.indexOf('\n');
      if (index === -1) return null;
      const line = this.buffer.toString('utf8', 0, index).replace(/\r$/, '');
      this.buffer = this.buffer.subarray(index + 1);
      let raw: unknown;
      try {
        raw = parseUpstream(line);
      } catch (err) {
        if (!(err instanceof UpstreamValuesError)) continue;
        // Too many values or too deep to parse (json-values.ts): its call, if it answers one,
        // fails at once.
        const id = answerIdOf(line);
        if (id === undefined) throw err;
        return malformedAnswerError(id, err.message);
      }
      try {
        return jsonRpcMessage(raw);
      } catch (err) {
        const id = answerId(raw);
        if (id === undefined) throw err;
        return malformedAnswerError(id, (err as Error).message);
      }
    }
    return null;
  }

  clear(): void {
    this.buffer = undefined;
    this.inFlight.release();
  }
}
