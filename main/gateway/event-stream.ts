import type { ServerResponse } from 'node:http';

export type RequestId = string | number;

/** A comment line on every open event stream this often, so proxies and clients keep it open. */
const KEEP_ALIVE_MS = 15_000;
/**
 * How long an event stream may wait for its first event before its headers go out alone (both
 * eras: this file and web-bridge.ts). A tools/call answer is ready in a few ms: headers and answer
 * then leave in one write (one syscall, one wake-up of the client). An idle stream (the GET
 * stream, a call waiting for approval) still gets its headers promptly, so the client sees its
 * response start.
 */
export const FIRST_EVENT_WAIT_MS = 25;
/**
 * Bytes an event stream may have queued for a client that does not read before it is cut off: a
 * flood of an upstream's log lines must not grow Airlock's memory without bound.
 */
export const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/**
 * One open server-sent event stream of a 2025-era session (session-transport.ts): a POST's,
 * carrying its requests' messages and ending with their last answer, or the session's GET stream.
 */
export class EventStream {
  /** Requests on this stream still waiting for their answer (POST streams). */
  readonly pending = new Set<RequestId>();
  /** A POST carrying exactly one request: its answer may go as JSON (endWithAnswer). */
  lone = false;
  private headTimer: NodeJS.Timeout | undefined;
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(
    readonly res: ServerResponse,
    /** Its session (the transport itself: no closure per stream, issue 34); its id once set. */
    private readonly session: { readonly sessionId: string | undefined },
    private readonly keepAliveMs = KEEP_ALIVE_MS,
  ) {}

  /** A POST's stream: headers wait for the first event, up to FIRST_EVENT_WAIT_MS. */
  holdHead(): void {
    this.headTimer = setTimeout(() => {
      if (this.head()) this.res.flushHeaders();
    }, FIRST_EVENT_WAIT_MS);
  }

  /** The GET stream: headers at once. */
  openNow(): void {
    if (this.head()) this.res.flushHeaders();
  }

  write(message: unknown): void {
    this.writeAll([message]);
  }

  /** Several events in one write (a 2026-07-28 hot request's progress held for a turn). */
  writeAll(messages: readonly unknown[]): void {
    const { res } = this;
    if (res.destroyed || messages.length === 0) return;
    this.head();
    res.write(messages.map(event).join(''));
    if (res.writableLength > MAX_QUEUED_BYTES) res.destroy();
  }

  /**
   * Ends the stream, with a last event (and events still held before it): headers (if still
   * held), events and end in one write.
   */
  end(last?: unknown, before: readonly unknown[] = []): void {
    this.head(false);
    this.release();
    const all = last === undefined ? before : [...before, last];
    this.res.end(all.length > 0 ? all.map(event).join('') : undefined);
  }

  /**
   * Ends a POST's exchange with its one answer. While the head is still held (nothing written
   * yet: no progress, log or request of ours went first, and FIRST_EVENT_WAIT_MS has not passed),
   * the answer goes as `application/json` with its Content-Length: MCP 2025-11-25 "Transports",
   * "Sending Messages to the Server" lets a server answer a POST "either" as an event stream "or"
   * as "one JSON object", and the client MUST support both. Headers and body still leave in one
   * write, and the client reads one body instead of parsing an event stream. Once anything went
   * out, the answer ends the event stream as before.
   */
  endWithAnswer(answer: unknown): void {
    const { res } = this;
    if (res.headersSent || res.destroyed) return this.end(answer);
    this.release();
    answerAsJson(res, this.session.sessionId, answer);
  }

  /** Stops the stream's timers (it ended, or its client went away). */
  release(): void {
    clearTimeout(this.headTimer);
    clearInterval(this.keepAlive);
  }

  /**
   * Writes the status line and headers (held by Node until the first body bytes), and arms the
   * keep-alive unless the stream is ending now. False if they were already written.
   */
  private head(staysOpen = true): boolean {
    const { res } = this;
    if (res.headersSent || res.destroyed) return false;
    clearTimeout(this.headTimer);
    const sid = this.session.sessionId;
    res.writeHead(200, { ...SSE_HEADERS, ...(sid !== undefined ? { 'mcp-session-id': sid } : {}) });
    if (staysOpen)
      this.keepAlive = setInterval(() => {
        if (!res.destroyed) res.write(': keepalive\n\n');
      }, this.keepAliveMs).unref();
    return true;
  }
}

/**
 * A POST's one answer as `application/json` with its Content-Length, headers and body in one
 * write (endWithAnswer; a 2025 session's lone call whose head was never needed, session-transport.ts).
 */
export function answerAsJson(res: ServerResponse, sid: string | undefined, answer: unknown): void {
  const body = messageJson(answer);
  const length = Buffer.byteLength(body);
  // One literal each way, not a spread of a second object (issue 34: per call).
  res
    .writeHead(
      200,
      sid !== undefined
        ? { 'content-type': 'application/json', 'content-length': length, 'mcp-session-id': sid }
        : { 'content-type': 'application/json', 'content-length': length },
    )
    .end(body);
}

function event(message: unknown): string {
  const data = messageJson(message);
  return data === '' ? '' : `event: message\ndata: ${data}\n\n`;
}

/**
 * A message to an agent as JSON text. What `JSON.stringify` cannot write (nested past the stack,
 * a cycle, a BigInt) must not leave the agent's request open: the stream or exchange was already
 * released when it throws, and the SDK's `send` swallows the rejection, so the request would wait
 * forever. An answer becomes a JSON-RPC error for the same id (-32603, saying why); any other
 * message is dropped ('') — nothing waits on a notification, and a request of ours fails at its
 * own timeout.
 */
export function messageJson(message: unknown): string {
  try {
    return JSON.stringify(message);
  } catch (err) {
    const m = message as { id?: unknown; result?: unknown; error?: unknown } | null;
    const answer =
      typeof m === 'object' && m !== null && 'id' in m && ('result' in m || 'error' in m);
    if (!answer) return '';
    return JSON.stringify({
      jsonrpc: '2.0',
      id: typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null,
      error: {
        code: -32603,
        message: `Internal error: Airlock could not write this answer (${err instanceof Error ? err.message : 'not JSON'}); the request ends here`,
      },
    });
  }
}
