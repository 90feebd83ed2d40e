import { randomUUID } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import {
  Server,
  type CallToolResult,
  type ServerCapabilities,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/server';

/**
 * An in-process upstream MCP server for remote-source tests (issue 4): real
 * SDK server + Streamable HTTP transport with 2025-era sessions, plus knobs a
 * real server cannot be asked for — forget every session (a restart), answer
 * stale sessions with 404 or 400, require a bearer token, or never answer.
 */
export interface FakeToolContext {
  signal: AbortSignal;
  progress: (
    progress: number,
    total?: number,
    message?: string,
    meta?: Record<string, unknown>,
  ) => Promise<void>;
  headers: IncomingHttpHeaders;
  /** A notification related to this call, on its own response stream (a log line). */
  notify: (method: 'notifications/message', params: Record<string, unknown>) => Promise<void>;
  /** A server→client request related to this call, on its own response stream (a hostile server's tools). */
  ask: (
    method: 'elicitation/create' | 'sampling/createMessage',
    params: Record<string, unknown>,
  ) => Promise<unknown>;
}

export interface FakeTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  /** Further definition fields passed as given (icons, _meta, execution). */
  extra?: Pick<Tool, 'icons' | '_meta' | 'execution'>;
  run?: (args: Record<string, unknown>, ctx: FakeToolContext) => Promise<CallToolResult>;
}

export interface FakeUpstreamOptions {
  tools: FakeTool[];
  name?: string;
  /** Requests without `Authorization: Bearer <bearer>` get 401. */
  bearer?: string;
  /** Status for an unknown session id (the spec says 404; 1.x example servers say 400). */
  staleStatus?: 404 | 400;
  /** Accept connections but never answer (a hung server). */
  silent?: boolean;
  /** More capabilities and handlers (resources, prompts, …) on every session's server. */
  capabilities?: ServerCapabilities;
  extend?: (server: Server) => void;
  /** Serves without sessions (Streamable HTTP's stateless mode): every agent shares the connection. */
  stateless?: boolean;
  /** Calls of these tools get a response stream that breaks inside its first event. */
  cutMidEvent?: string[];
  /** Answers each POST with one JSON body rather than an event stream (the SDK's enableJsonResponse). */
  json?: boolean;
}

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  server: Server;
}

export class FakeUpstream {
  url = '';
  tools: FakeTool[];
  readonly requests: {
    method: string;
    rpc?: string;
    headers: IncomingHttpHeaders;
    /** The request target as received: path and query. */
    url: string;
  }[] = [];
  readonly calls: { name: string; args: Record<string, unknown> }[] = [];
  initializeCount = 0;
  private readonly sessions = new Map<string, Session>();
  private getStreamOpened!: () => void;
  private readonly getStream = new Promise<void>((r) => (this.getStreamOpened = r));
  private http: HttpServer | null = null;

  constructor(private readonly o: FakeUpstreamOptions) {
    this.tools = o.tools;
  }

  /** `host`: the address to listen on (an interface's own address, for tests of where a name leads). */
  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    const http = createServer((req, res) => {
      if (this.o.silent) return;
      void (async () => {
        let body: unknown;
        if (req.method === 'POST') {
          const chunks: Buffer[] = [];
          for await (const c of req) chunks.push(c as Buffer);
          body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
        }
        const rpc =
          body && typeof body === 'object' && 'method' in body
            ? String((body as { method: unknown }).method)
            : undefined;
        this.requests.push({
          method: req.method ?? '',
          ...(rpc ? { rpc } : {}),
          headers: req.headers,
          url: req.url ?? '',
        });
        if (this.o.bearer && req.headers.authorization !== `Bearer ${this.o.bearer}`) {
          res
            .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' })
            .end('{"error":"unauthorized"}');
          return;
        }
        const called =
          rpc === 'tools/call' ? (body as { params?: { name?: string } }).params?.name : undefined;
        if (called && this.o.cutMidEvent?.includes(called)) {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          res.write('id: 1\nevent: message\ndata: {"jsonrpc":"2.0","id":');
          setTimeout(() => req.socket.destroy(), 20);
          return;
        }
        if (this.o.stateless) {
          // No session: a server per request, as a stateless deployment runs (no agent sessions).
          const server = this.buildServer();
          const transport = new NodeStreamableHTTPServerTransport({
            sessionIdGenerator: undefined,
            enableJsonResponse: this.o.json === true,
          });
          await server.connect(transport);
          await transport.handleRequest(req, res, body);
          return;
        }
        const sid = req.headers['mcp-session-id'];
        if (typeof sid === 'string') {
          const s = this.sessions.get(sid);
          if (!s) {
            res.writeHead(this.o.staleStatus ?? 404, { 'content-type': 'application/json' });
            res.end(
              JSON.stringify({
                jsonrpc: '2.0',
                id: null,
                error: { code: -32001, message: 'Session not found: no valid session ID' },
              }),
            );
            return;
          }
          // The transport registers a GET stream before it sends the response's headers.
          if (req.method === 'GET') watchHeaders(res, () => this.getStreamOpened());
          await s.transport.handleRequest(req, res, body);
          return;
        }
        if (req.method !== 'POST' || rpc !== 'initialize') {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              jsonrpc: '2.0',
              id: null,
              error: { code: -32000, message: 'Bad Request: initialize first' },
            }),
          );
          return;
        }
        this.initializeCount++;
        const server = this.buildServer();
        const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: this.o.json === true,
          onsessioninitialized: (id) => void this.sessions.set(id, { transport, server }),
        });
        await server.connect(transport);
        await transport.handleRequest(req, res, body);
      })().catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => http.listen(port, host, resolve));
    this.http = http;
    const shown = host.includes(':') ? `[${host}]` : host;
    this.url = `http://${shown}:${(http.address() as AddressInfo).port}/mcp`;
    return this.url;
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  /** Replaces the tool list and tells every session (tools/list_changed). */
  async setTools(tools: FakeTool[]): Promise<void> {
    this.tools = tools;
    await Promise.all(
      [...this.sessions.values()].map((s) => s.server.sendToolListChanged().catch(() => {})),
    );
  }

  /**
   * Sends a notification to every session, outside any request (on its standalone GET stream,
   * which the client opens after `initialized`; without one the SDK transport drops it, as a
   * real server's would).
   */
  async notifyAll(n: { method: string; params?: Record<string, unknown> }): Promise<void> {
    await Promise.all(
      [...this.sessions.values()].map((s) =>
        s.server.notification(n as Parameters<Server['notification']>[0]),
      ),
    );
  }

  /**
   * Resolves once a session's client has its standalone GET stream open (for notifyAll and
   * setTools' list_changed): an event to wait on, not a sleep (issue 29 item 2).
   */
  getStreamOpen(): Promise<void> {
    return this.getStream;
  }

  /** Forgets every session, as a restarted server would. */
  forgetSessions(): void {
    for (const s of this.sessions.values()) void s.server.close().catch(() => {});
    this.sessions.clear();
  }

  async stop(): Promise<void> {
    this.forgetSessions();
    const http = this.http;
    this.http = null;
    if (!http) return;
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }

  private buildServer(): Server {
    const server = new Server(
      { name: this.o.name ?? 'fake-upstream', version: '1.0.0' },
      { capabilities: { tools: { listChanged: true }, ...this.o.capabilities } },
    );
    this.o.extend?.(server);
    server.setRequestHandler('tools/list', async () => ({
      tools: this.tools.map((t) => ({
        name: t.name,
        description: t.description ?? `${t.name} tool`,
        inputSchema: (t.inputSchema ?? { type: 'object', properties: {} }) as { type: 'object' },
        ...(t.outputSchema ? { outputSchema: t.outputSchema as { type: 'object' } } : {}),
        ...(t.annotations ? { annotations: t.annotations } : {}),
        ...t.extra,
      })),
    }));
    server.setRequestHandler('tools/call', async (req, ctx) => {
      const tool = this.tools.find((t) => t.name === req.params.name);
      const args = (req.params.arguments ?? {}) as Record<string, unknown>;
      this.calls.push({ name: req.params.name, args });
      if (!tool)
        return { isError: true, content: [{ type: 'text', text: `no tool ${req.params.name}` }] };
      const token = req.params._meta?.progressToken;
      const progress = async (
        p: number,
        total?: number,
        message?: string,
        meta?: Record<string, unknown>,
      ) => {
        if (token === undefined) return;
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: {
            progressToken: token,
            progress: p,
            ...(total !== undefined ? { total } : {}),
            ...(message !== undefined ? { message } : {}),
            ...(meta !== undefined ? { _meta: meta } : {}),
          },
        });
      };
      const headers = Object.fromEntries((ctx.http?.req?.headers ?? new Headers()).entries());
      return tool.run
        ? tool.run(args, {
            signal: ctx.mcpReq.signal,
            progress,
            headers,
            ask: (method, params) => ctx.mcpReq.send({ method, params }),
            notify: (method, params) =>
              ctx.mcpReq.notify({ method, params } as Parameters<typeof ctx.mcpReq.notify>[0]),
          })
        : { content: [{ type: 'text', text: `${tool.name} ran` }] };
    });
    return server;
  }
}

/** Calls `then` once `res` has sent its status and headers with 200. */
function watchHeaders(res: ServerResponse, then: () => void): void {
  const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    const out = writeHead(...args);
    if (res.statusCode === 200) then();
    return out;
  }) as typeof res.writeHead;
}
