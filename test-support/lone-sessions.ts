import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/server';
import { Logger } from '../main/platform/log.js';
import type { AgentFeatures } from '../main/gateway/mcp-handlers/api.js';
import { McpEndpoint, type AgentToolCalls } from '../main/gateway/mcp-endpoint.js';
import type { CallOptions, CallToolResult } from '../main/tools/types.js';
import { waitingApprovalId } from '../main/approvals/messages.js';
import type { WaitingApproval } from '../main/gateway/mcp-handlers/approval-url.js';

/**
 * 2025 sessions of a real McpEndpoint (real LegacySessions, SessionTransport and SDK Server as
 * the endpoint builds them) driven in memory: each HTTP exchange is a FakeResponse that records
 * what the agent would read, in one log across the session, so two endpoints given the same
 * steps can be compared message for message (lone-call tests). No socket: with fake timers the
 * held head's timer fires only where a test advances it.
 */

/** What the agent sees, in order: a response's head, or a JSON-RPC message on it, or its end. */
export type Seen =
  | { res: number; head: number; type: string | undefined }
  | { res: number; message: unknown }
  | { res: number; end: true }
  | { res: number; destroyed: true };

/** Enough of Node's ServerResponse for SessionTransport, EventStream and guards.ts. */
export class FakeResponse extends EventEmitter {
  headersSent = false;
  destroyed = false;
  writableFinished = false;
  readonly writableLength = 0;
  private type: string | undefined;
  private held: { status: number; headers: Record<string, unknown> } | undefined;

  constructor(
    readonly index: number,
    private readonly seen: Seen[],
    private readonly sid: () => string | undefined,
    /** The bytes as the agent reads them, in order: each head (status, every header) and chunk. */
    private readonly wire: string[] = [],
  ) {
    super();
  }

  writeHead(status: number, headers: Record<string, unknown> = {}): this {
    // Node sends the head with the first body bytes (or flushHeaders).
    this.held = { status, headers };
    this.headersSent = true;
    this.type = headers['content-type'] as string | undefined;
    return this;
  }

  flushHeaders(): void {
    this.sendHead();
  }

  write(chunk: string): boolean {
    if (this.destroyed) return false;
    this.sendHead();
    this.read(chunk);
    return true;
  }

  end(chunk?: string): this {
    if (this.destroyed || this.writableFinished) return this;
    this.sendHead();
    if (chunk) this.read(chunk);
    this.writableFinished = true;
    this.seen.push({ res: this.index, end: true });
    this.wire.push(`${this.index} end`);
    this.emit('close');
    return this;
  }

  /** The agent hangs up. */
  destroy(): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.seen.push({ res: this.index, destroyed: true });
    this.emit('close');
    return this;
  }

  private sendHead(): void {
    if (!this.held) return;
    this.seen.push({ res: this.index, head: this.held.status, type: this.type });
    this.wire.push(
      `${this.index} head ${this.held.status} ${this.scrub(JSON.stringify(this.held.headers))}`,
    );
    this.held = undefined;
  }

  private read(chunk: string): void {
    const text = this.scrub(chunk);
    this.wire.push(`${this.index} body ${text}`);
    if (this.type === 'text/event-stream') {
      for (const block of text.split('\n\n')) {
        const data = block.split('\n').find((l) => l.startsWith('data: '));
        if (data) this.seen.push({ res: this.index, message: JSON.parse(data.slice(6)) });
      }
    } else if (text) this.seen.push({ res: this.index, message: JSON.parse(text) });
  }

  /** Session ids are random: the same session reads the same in both endpoints. */
  private scrub(text: string): string {
    const sid = this.sid();
    return sid ? text.split(sid).join('SID') : text;
  }
}

/** One call the pipeline is running: the test drives it. */
export interface RunningCall {
  name: string;
  args: unknown;
  opts: CallOptions;
  settle: (outcome: () => CallToolResult | Promise<CallToolResult>) => void;
}

/** A pipeline whose calls wait for the test, recording what it saw. */
export class DrivenCalls implements AgentToolCalls {
  readonly running: RunningCall[] = [];
  readonly log: unknown[] = [];

  listTools() {
    return Promise.resolve([{ name: 't', inputSchema: { type: 'object' as const } }]);
  }

  /** As CallPipeline.waitingApproval: a "waiting for approval" answer's request and its view. */
  waitingApproval(result: CallToolResult): WaitingApproval | null {
    const id = waitingApprovalId(result);
    return id ? { id, url: `https://airlock.test/#/approve/${id}` } : null;
  }

  call(_agent: string, name: string, args: unknown, opts: CallOptions): Promise<CallToolResult> {
    this.log.push({ call: name, args, keys: Object.keys(opts).sort() });
    return new Promise((resolve, reject) => {
      this.running.push({
        name,
        args,
        opts,
        settle: (outcome) => {
          try {
            resolve(outcome());
          } catch (err) {
            reject(err);
          }
        },
      });
    });
  }
}

const features = {
  openSession() {},
  closeSession() {},
  setLogLevel() {},
  recordRelay() {},
} as unknown as AgentFeatures;

export const ACCEPT = 'application/json, text/event-stream';

/** A McpEndpoint with one 2025 session, `lone` deciding whether it takes lone calls. */
export class LoneArm {
  readonly seen: Seen[] = [];
  /** Every head and chunk as written (FakeResponse), for a byte-for-byte comparison. */
  readonly wire: string[] = [];
  readonly calls = new DrivenCalls();
  readonly endpoint: McpEndpoint;
  readonly errors: string[] = [];
  sid: string | undefined;
  private count = 0;

  constructor(lone: boolean) {
    this.endpoint = new McpEndpoint({
      pipeline: this.calls,
      features,
      logger: new Logger({ stderr: false }),
      version: '0.0.0-test',
      maxBodyBytes: 1 << 20,
      loneCalls: lone,
    });
  }

  /** initialize and notifications/initialized, with the client's capabilities. */
  async open(capabilities: Record<string, unknown>, version = '2025-11-25'): Promise<void> {
    this.exchange('POST', {
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: version, capabilities, clientInfo: { name: 'c', version: '1' } },
    });
    await settled();
    // What the session's server reports to onerror (the transport's refusals and undeliverable
    // answers, the dispatch's failed sends), session ids scrubbed.
    const sessions = (this.endpoint as unknown as { sessions: { servers(): Server[] } }).sessions;
    for (const server of sessions.servers())
      server.onerror = (e) => this.errors.push(e.message.split(this.sid ?? '\0').join('SID'));
    this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await settled();
  }

  /** A POST of the session (its id and version headers unless `headers` replace them). */
  post(body: unknown, headers: Record<string, string | undefined> = {}): FakeResponse {
    return this.exchange('POST', body, headers);
  }

  delete(): FakeResponse {
    return this.exchange('DELETE', undefined);
  }

  exchange(
    method: string,
    body: unknown,
    headers: Record<string, string | undefined> = {},
  ): FakeResponse {
    const res = new FakeResponse(this.count++, this.seen, () => this.sid, this.wire);
    const all: Record<string, string | undefined> = {
      accept: ACCEPT,
      'content-type': 'application/json',
      ...(this.sid ? { 'mcp-session-id': this.sid, 'mcp-protocol-version': '2025-11-25' } : {}),
      ...headers,
    };
    for (const k of Object.keys(all)) if (all[k] === undefined) delete all[k];
    const req = { method, headers: all, url: '/mcp' } as unknown as IncomingMessage;
    const raw = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    // The session id, from initialize's answer headers.
    if (!this.sid) {
      const original = res.writeHead.bind(res);
      res.writeHead = (status, h = {}) => {
        const sid = h['mcp-session-id'];
        if (typeof sid === 'string') this.sid = sid;
        return original(status, h);
      };
    }
    void this.endpoint.handle({
      req,
      res: res as unknown as ServerResponse,
      agent: 'a',
      parsedBody: body,
      raw,
      credential: 'c',
    });
    return res;
  }

  /** The session's SessionTransport.busy() (what budgets.ts asks before ending a session). */
  busy(): boolean | undefined {
    const sessions = (
      this.endpoint as unknown as {
        sessions: { sessions: Map<string, { transport: { busy(): boolean } }> };
      }
    ).sessions.sessions;
    return this.sid === undefined ? undefined : sessions.get(this.sid)?.transport.busy();
  }

  async close(): Promise<void> {
    await this.endpoint.close();
  }
}

/** Every microtask chain the last step started has run (nothing here waits on I/O). */
export async function settled(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise<void>((r) => setImmediate(r));
}
