import { randomUUID } from 'node:crypto';
import {
  createServer,
  request,
  type Agent,
  type IncomingMessage,
  type Server as HttpServer,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type AuthInfo, type LoggingLevel } from '@modelcontextprotocol/server';
import { SessionTransport } from '../main/gateway/session-transport.js';

/**
 * A real SDK `Server` per session on SessionTransport (main/gateway/session-transport.ts), behind
 * a bare node:http server, for the transport's tests. Its `echo` tool reports progress when asked,
 * can wait at a gate (`hold`), can ask the client by form elicitation (`ask`), can ask it for
 * its roots outside the call, on the GET stream (`roots`: once that stream is open), and can send
 * log lines `<text>#1`… on the call's stream before answering (`log`: how many; `levels`: one
 * line `<text>@<level>` at each of these levels, in order, with logger `lg`). The header
 * `x-route: <session id>` delivers a request to that session whatever its Mcp-Session-Id says, so
 * tests reach the transport's own session check.
 */
export class SessionServer {
  readonly sessions = new Map<string, SessionTransport>();
  /** What the transports reported through onerror. */
  readonly errors: string[] = [];
  /** Called when the server side of any response closes (its client went away, or it ended). */
  onResponseClosed: (() => void) | undefined;
  url = '';
  private gate: Promise<void> = Promise.resolve();
  private http: HttpServer | undefined;
  private readonly auth: AuthInfo = {
    token: 'x',
    clientId: 'agent',
    scopes: [],
    extra: { agent: 'agent' },
  };

  constructor(private readonly keepAliveMs = 30) {}

  /** Calls with `wait: true` wait until the returned function is called. */
  hold(): () => void {
    let release!: () => void;
    this.gate = new Promise<void>((r) => (release = r));
    return release;
  }

  async start(): Promise<void> {
    this.http = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (raw += c));
      req.on('end', () => {
        const body = raw ? (JSON.parse(raw) as unknown) : undefined;
        res.once('close', () => this.onResponseClosed?.());
        const sid = req.headers['x-route'] ?? req.headers['mcp-session-id'];
        const known = typeof sid === 'string' ? this.sessions.get(sid) : undefined;
        if (known) return known.handle(req, res, body, this.auth);
        const t = new SessionTransport({
          newSessionId: randomUUID,
          onsessioninitialized: (id) => this.sessions.set(id, t),
          onsessionclosed: (id) => this.sessions.delete(id),
          keepAliveMs: this.keepAliveMs,
        });
        t.onerror = (e) => this.errors.push(e.message);
        void this.mcpServer(t)
          .connect(t)
          .then(() => t.handle(req, res, body, this.auth));
      });
    });
    await new Promise<void>((r) => this.http!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.http.address() as AddressInfo).port}/mcp`;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((t) => t.close()));
    this.http?.closeAllConnections();
    await new Promise((r) => this.http?.close(r));
  }

  /** A raw HTTP exchange; `headers` add to (or replace) Accept and Content-Type. */
  send(
    method: string,
    body: unknown,
    headers: Record<string, string> = {},
    agent?: Agent,
  ): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
    return new Promise((resolve, reject) => {
      const req = request(
        this.url,
        {
          method,
          ...(agent ? { agent } : {}),
          headers: {
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
            ...headers,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  /**
   * Opens a POST or GET and resolves once its status and headers arrive, while the body may
   * still be coming: `body` resolves at its end (or when the connection closes), `seen(text)` once
   * the body so far contains `text`. Destroying `res` is a client going away.
   */
  stream(
    method: 'POST' | 'GET',
    headers: Record<string, string>,
    payload?: unknown,
  ): Promise<{
    res: IncomingMessage;
    body: Promise<string>;
    seen: (text: string) => Promise<void>;
  }> {
    return new Promise((resolve, reject) => {
      const req = request(
        this.url,
        {
          method,
          headers: {
            accept: method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream',
            'content-type': 'application/json',
            ...headers,
          },
        },
        (res) => {
          let text = '';
          const waiting: { text: string; done: () => void }[] = [];
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
            for (const w of waiting.filter((x) => text.includes(x.text))) {
              waiting.splice(waiting.indexOf(w), 1);
              w.done();
            }
          });
          const body = new Promise<string>((r) => {
            res.on('end', () => r(text));
            res.on('close', () => r(text));
          });
          const seen = (needle: string) =>
            text.includes(needle)
              ? Promise.resolve()
              : new Promise<void>((done) => waiting.push({ text: needle, done }));
          resolve({ res, body, seen });
        },
      );
      req.on('error', reject);
      req.end(payload === undefined ? undefined : JSON.stringify(payload));
    });
  }

  /** Initializes a session over raw HTTP; the headers its later requests carry. */
  async open(agent?: Agent): Promise<Record<string, string>> {
    const r = await this.send('POST', INIT, {}, agent);
    const sid = r.headers['mcp-session-id'];
    if (r.status !== 200 || typeof sid !== 'string')
      throw new Error(`initialize answered ${r.status}: ${r.text}`);
    const h = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    const ack = await this.send('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, h);
    if (ack.status !== 202) throw new Error(`notifications/initialized answered ${ack.status}`);
    return h;
  }

  private mcpServer(transport: SessionTransport): Server {
    const server = new Server(
      { name: 't', version: '1' },
      { capabilities: { tools: {}, logging: {} } },
    );
    server.setRequestHandler('tools/list', async () => ({
      tools: [{ name: 'echo', inputSchema: { type: 'object' } }],
    }));
    server.setRequestHandler('tools/call', async (req, ctx) => {
      const args = (req.params.arguments ?? {}) as {
        text?: string;
        ask?: boolean;
        wait?: boolean;
        roots?: boolean;
        log?: number;
        levels?: LoggingLevel[];
      };
      const token = req.params._meta?.progressToken;
      if (token !== undefined)
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken: token, progress: 1, total: 2 },
        });
      for (let i = 1; i <= (args.log ?? 0); i++)
        await ctx.mcpReq.log('info', `${args.text ?? ''}#${i}`);
      for (const level of args.levels ?? [])
        await ctx.mcpReq.log(level, `${args.text ?? ''}@${level}`, 'lg');
      if (args.wait) await this.gate;
      if (args.roots)
        return { content: [{ type: 'text', text: await rootsOf(server, transport) }] };
      if (args.ask) {
        const answer = await server.elicitInput({
          mode: 'form',
          message: 'Which?',
          requestedSchema: { type: 'object', properties: { pick: { type: 'string' } } },
        });
        return { content: [{ type: 'text', text: `picked ${String(answer.content?.['pick'])}` }] };
      }
      return { content: [{ type: 'text', text: `echo ${args.text ?? ''}` }] };
    });
    return server;
  }
}

/**
 * The client's roots, asked outside any request (as server-everything does), or the error it
 * answered. The request waits for the client's GET stream, turn by turn of the event loop: the
 * transport refuses it at once while there is none.
 */
async function rootsOf(server: Server, transport: SessionTransport): Promise<string> {
  while (!transport.listening()) await new Promise((r) => setImmediate(r));
  try {
    return JSON.stringify((await server.listRoots()).roots);
  } catch (err) {
    return `roots/list failed: ${(err as Error).message}`;
  }
}

export const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};

export const call = (id: number | string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: args },
});

/** The text of a tool result's first content item. */
export const textOf = (r: unknown) =>
  ((r as { content: Array<{ text: string }> }).content[0] ?? { text: '' }).text;
