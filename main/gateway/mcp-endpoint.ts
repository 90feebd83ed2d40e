import { randomUUID } from 'node:crypto';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  Server,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpHttpHandler,
  type Tool,
} from '@modelcontextprotocol/server';
import { callWithApprovalUrl } from '../approvals/url-elicitation.js';
import type { CallOptions, CallToolResult } from '../tools/types.js';
import type { Logger } from '../platform/log.js';
import type { AgentBudgets } from './budgets.js';

interface LegacySession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  agent: string;
  /** Digest of the token that opened it: a new token with the same name gets no old session. */
  credential: string | undefined;
  lastUsed: number;
}

/**
 * What /mcp needs of the core, per authenticated agent. The app layer's
 * CallPipeline implements it; the gateway never imports the app layer.
 */
export interface AgentToolCalls {
  listTools(agent: string): Promise<Tool[]>;
  call(agent: string, name: string, args: unknown, opts: CallOptions): Promise<CallToolResult>;
  /** The approval view of a request, for clients that speak URL elicitation (issue 16 item 1). */
  approvalUrl?(id: string): string | null;
}

export interface McpEndpointOptions {
  pipeline: AgentToolCalls;
  logger: Logger;
  version: string;
  maxBodyBytes: number;
  /** Idle 2025-era sessions are closed after this long. */
  sessionIdleMs?: number;
  /** Per-agent session budget (issue 17.4). */
  budgets?: AgentBudgets;
}

const jsonError = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/**
 * /mcp for both protocol eras (MCP spec, "Versioning" and "Transports"):
 * 2026-07-28 requests go to the SDK's per-request `createMcpHandler`; 2025
 * traffic keeps real sessions (initialize, Mcp-Session-Id, GET stream) on
 * the SDK's streamable HTTP transport, routed by `isLegacyRequest` as the
 * SDK documents for sessionful legacy serving.
 *
 * A session belongs to the agent that opened it: another agent's token with
 * that session id gets 404, as does an unknown or expired one (clients
 * re-initialize on 404, not on 400).
 */
export class McpEndpoint {
  private readonly sessions = new Map<string, LegacySession>();
  private readonly modern: McpHttpHandler;
  private readonly reaper: NodeJS.Timeout;

  constructor(private readonly o: McpEndpointOptions) {
    this.modern = createMcpHandler((ctx) => this.buildServer(agentOf(ctx.authInfo)), {
      legacy: 'reject',
      maxRequestBodySize: o.maxBodyBytes,
      onerror: (err) => o.logger.debug('mcp modern leg', { error: err.message }),
    });
    const idle = o.sessionIdleMs ?? 60 * 60 * 1000;
    this.reaper = setInterval(
      () => {
        const cutoff = Date.now() - idle;
        for (const [id, s] of this.sessions) if (s.lastUsed < cutoff) void this.closeSession(id);
      },
      Math.min(idle, 60_000),
    );
    this.reaper.unref();
  }

  /** Agents with an open 2025-era session. */
  connectedAgents(): Set<string> {
    return new Set([...this.sessions.values()].map((s) => s.agent));
  }

  async handle(
    request: Request,
    agent: string,
    parsedBody: unknown,
    credential?: string,
  ): Promise<Response> {
    const authInfo: AuthInfo = { token: 'redacted', clientId: agent, scopes: [], extra: { agent } };
    if (await isLegacyRequest(request, parsedBody, { maxRequestBodySize: this.o.maxBodyBytes })) {
      return this.legacy(request, agent, parsedBody, authInfo, credential);
    }
    return this.modern.fetch(request, { authInfo, parsedBody });
  }

  /** Tells every connected client the tool set changed (some ignore it; names stay stable anyway). */
  toolsChanged(): void {
    this.modern.notify.toolsChanged();
    for (const s of this.sessions.values()) void s.server.sendToolListChanged().catch(() => {});
  }

  async close(): Promise<void> {
    clearInterval(this.reaper);
    await Promise.allSettled([...this.sessions.keys()].map((id) => this.closeSession(id)));
    await this.modern.close();
  }

  private async legacy(
    request: Request,
    agent: string,
    body: unknown,
    authInfo: AuthInfo,
    credential: string | undefined,
  ): Promise<Response> {
    const sid = request.headers.get('mcp-session-id');
    if (sid) {
      const session = this.sessions.get(sid);
      if (!session || session.agent !== agent || session.credential !== credential)
        return jsonError(404, -32001, 'Session not found');
      session.lastUsed = Date.now();
      return session.transport.handleRequest(request, { parsedBody: body, authInfo });
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      return jsonError(
        400,
        -32000,
        'Bad Request: send initialize first, or include a valid Mcp-Session-Id header',
      );
    }
    const over = this.admitSession(agent);
    if (over) return over;
    const server = this.buildServer(agent);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: this.o.maxBodyBytes,
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server, agent, credential, lastUsed: Date.now() });
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody: body, authInfo });
  }

  /** Issue 17.4: a session budget per agent; null admits (maybe after closing its oldest idle one). */
  private admitSession(agent: string): Response | null {
    if (!this.o.budgets) return null;
    const open = [...this.sessions].filter(([, s]) => s.agent === agent);
    const verdict = this.o.budgets.admitSession(
      agent,
      open.map(([id, s]) => ({ id, lastUsed: s.lastUsed })),
    );
    if (!verdict.ok) return jsonError(429, -32000, verdict.message);
    if (verdict.evict) void this.closeSession(verdict.evict);
    return null;
  }

  /**
   * Issue 17.8: revoking an agent ends its sessions (and their GET streams).
   * They stop accepting requests at once; each closes after `graceMs`, so the
   * answers to calls that were waiting ("withdrawn") still reach the client.
   */
  closeSessionsOf(agent: string, graceMs = 2000): void {
    for (const [id, s] of [...this.sessions]) {
      if (s.agent !== agent) continue;
      this.sessions.delete(id);
      setTimeout(() => void s.server.close().catch(() => {}), graceMs).unref();
    }
  }

  private async closeSession(id: string): Promise<void> {
    const s = this.sessions.get(id);
    this.sessions.delete(id);
    await s?.server.close().catch(() => {});
  }

  /** One low-level server per session (2025) or per request (2026); tools are dynamic, so no McpServer helpers. */
  private buildServer(agent: string): Server {
    const server = new Server(
      { name: 'airlock', title: 'Airlock', version: this.o.version },
      {
        capabilities: { tools: { listChanged: true } },
        instructions:
          'Airlock gives you Gmail, Google Calendar and remote MCP tools. Calls that send, create, change or delete ' +
          "wait for the user's approval; if a call answers that it is waiting, call it again with the same arguments.",
      },
    );
    const pipeline = this.o.pipeline;
    server.setRequestHandler('tools/list', async () => ({
      tools: await pipeline.listTools(agent),
    }));
    server.setRequestHandler('tools/call', async (req, ctx) => {
      const token = req.params._meta?.progressToken;
      const progress =
        token === undefined
          ? undefined
          : (p: number, total?: number, message?: string) =>
              void ctx.mcpReq
                .notify({
                  method: 'notifications/progress',
                  params: {
                    progressToken: token,
                    progress: p,
                    ...(total !== undefined ? { total } : {}),
                    ...(message ? { message } : {}),
                  },
                })
                .catch(() => {});
      // Approval waiting in MCP's own terms where the client supports it (main/approvals/url-elicitation.ts).
      return callWithApprovalUrl(
        { approvalUrl: (id) => pipeline.approvalUrl?.(id) ?? null },
        server,
        ctx,
        (noWait) =>
          pipeline.call(agent, req.params.name, req.params.arguments, {
            signal: ctx.mcpReq.signal,
            ...(progress ? { progress } : {}),
            ...(noWait ? { noWait } : {}),
          }),
      );
    });
    return server;
  }
}

function agentOf(auth: AuthInfo | undefined): string {
  const agent = auth?.extra?.agent;
  if (typeof agent !== 'string') throw new Error('unauthenticated request reached the MCP handler');
  return agent;
}
