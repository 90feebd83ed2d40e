import { randomUUID } from 'node:crypto';
import { isInitializeRequest, type AuthInfo, type Server } from '@modelcontextprotocol/server';
import type { RelaySelf } from '../tools/relay-label.js';
import type { AgentBudgets } from './budgets.js';
import { jsonRpcError } from './guards.js';
import type { McpExchange } from './http-server.js';
import type { AgentFeatures } from './mcp-handlers/api.js';
import { LoneCallServer } from './mcp-handlers/lone-call.js';
import { sessionRelay } from './mcp-handlers/relay.js';
import { directRequests } from './request-dispatch.js';
import { SessionTransport } from './session-transport.js';

interface LegacySession {
  transport: SessionTransport;
  server: Server;
  /** Its server where it takes lone calls (mcp-handlers/lone-call.ts); else undefined. */
  lone: LoneCallServer | undefined;
  agent: string;
  /** Digest of the token that opened it: a new token with the same name gets no old session. */
  credential: string | undefined;
  /** Date.now() of its last request, for the idle reaper. */
  lastUsed: number;
  /** Recency rank among all sessions (a counter: many requests share a millisecond). */
  order: number;
}

export interface LegacySessionsOptions {
  features: AgentFeatures;
  /** A session's low-level server; `session` gives its id once initialize has set it. */
  buildServer: (agent: string, session: () => string | undefined) => Server;
  /** Idle sessions are closed after this long. */
  idleMs?: number;
  /** Per-agent session budget (issue 17.4). */
  budgets?: AgentBudgets;
  /** Airlock's own address, for the relay's link checks (relay-label.ts). */
  self?: RelaySelf;
  /**
   * Issue 34: a POST with one plain tools/call runs without the SDK's dispatch
   * (mcp-handlers/lone-call.ts). Off: every request goes through the SDK Server, the reference
   * lone-call.property.test.ts holds the lone path equal to.
   */
  loneCalls?: boolean;
}

/**
 * The 2025-era sessions of /mcp (MCP spec 2025-11-25, "Session Management"), one SDK `Server`
 * on a SessionTransport each. A session belongs to the token that opened it: another token with
 * that session id gets 404, as does an unknown or expired one (clients re-initialize on 404, not
 * on 400).
 */
export class LegacySessions {
  private readonly sessions = new Map<string, LegacySession>();
  private readonly reaper: NodeJS.Timeout;
  private tick = 0;

  constructor(private readonly o: LegacySessionsOptions) {
    const idle = o.idleMs ?? 60 * 60 * 1000;
    this.reaper = setInterval(
      () => {
        const cutoff = Date.now() - idle;
        for (const [id, s] of this.sessions) if (s.lastUsed < cutoff) void this.closeSession(id);
      },
      Math.min(idle, 60_000),
    );
    this.reaper.unref();
  }

  /** Agents with an open session. */
  agents(): Set<string> {
    return new Set([...this.sessions.values()].map((s) => s.agent));
  }

  /** Every open session's server (for list_changed notifications). */
  servers(): Server[] {
    return [...this.sessions.values()].map((s) => s.server);
  }

  /**
   * A request of an open session is dispatched in the caller's turn (issue 34: no promise per
   * request); only a new session's initialize waits, for its server to connect.
   */
  handle(x: McpExchange, authInfo: AuthInfo): Promise<void> | void {
    const { req, res, agent, credential } = x;
    const sid = req.headers['mcp-session-id'];
    if (sid) {
      const session = typeof sid === 'string' ? this.sessions.get(sid) : undefined;
      if (!session || session.agent !== agent || session.credential !== credential)
        return jsonRpcError(res, 404, -32001, 'Session not found');
      session.lastUsed = Date.now();
      session.order = ++this.tick;
      const lone = req.method === 'POST' ? session.lone?.loneCallOf(x.parsedBody) : undefined;
      // Decided before anything runs: the checks, the id's registration, then the call.
      if (lone) {
        const { transport } = session;
        if (transport.postLone(req, res, lone.request.id)) session.lone!.runLone(lone, transport);
        return;
      }
      return session.transport.handle(req, res, x.parsedBody, authInfo);
    }
    if (req.method !== 'POST' || !isInitializeRequest(x.parsedBody)) {
      return jsonRpcError(
        res,
        400,
        -32000,
        'Bad Request: send initialize first, or include a valid Mcp-Session-Id header',
      );
    }
    return this.open(x, authInfo);
  }

  /** A new session, from its initialize request. */
  private async open(x: McpExchange, authInfo: AuthInfo): Promise<void> {
    const { req, res, agent, credential } = x;
    const holder: { id?: string } = {};
    const server = this.o.buildServer(agent, () => holder.id);
    const features = this.o.features;
    const transport = new SessionTransport({
      newSessionId: () => randomUUID(),
      onsessioninitialized: (id) => {
        holder.id = id;
        const now = Date.now();
        this.sessions.set(id, {
          transport,
          server,
          lone: this.o.loneCalls !== false && server instanceof LoneCallServer ? server : undefined,
          agent,
          credential,
          lastUsed: now,
          order: ++this.tick,
        });
        features.openSession(id, agent, {
          relay: sessionRelay(agent, server, features, this.o.self),
          log: (params) =>
            void server.notification({ method: 'notifications/message', params }).catch(() => {}),
          resourceUpdated: (uri, meta) =>
            void server
              .sendResourceUpdated({ uri, ...(meta ? { _meta: meta } : {}) })
              .catch(() => {}),
          listChanged: (kind) =>
            void (
              kind === 'resources'
                ? server.sendResourceListChanged()
                : server.sendPromptListChanged()
            ).catch(() => {}),
          state: () => ({
            lastUsed: this.sessions.get(id)?.order ?? 0,
            listening: transport.listening(),
          }),
        });
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
        features.closeSession(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) {
        this.sessions.delete(transport.sessionId);
        features.closeSession(transport.sessionId);
      }
    };
    await server.connect(transport);
    directRequests(server, transport);
    // Admission and the new session's entry happen in one turn (handle registers it at once), so
    // initializes that arrive together cannot all pass the budget.
    if (!this.admit(agent, res)) return void server.close().catch(() => {});
    transport.handle(req, res, x.parsedBody, authInfo);
  }

  /**
   * Issue 17.4, issue 28 item 1: a session budget per agent; at the limit one of its sessions with
   * nothing in flight is ended to make room (budgets.ts). False when refused.
   */
  private admit(agent: string, res: McpExchange['res']): boolean {
    if (!this.o.budgets) return true;
    const open = [...this.sessions].filter(([, s]) => s.agent === agent);
    const verdict = this.o.budgets.admitSession(
      agent,
      open.map(([id, s]) => ({
        id,
        lastUsed: s.order,
        busy: s.transport.busy(),
        listening: s.transport.listening(),
      })),
    );
    if (!verdict.ok) {
      jsonRpcError(res, 429, -32000, verdict.message);
      return false;
    }
    if (verdict.evict) void this.closeSession(verdict.evict);
    return true;
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

  async close(): Promise<void> {
    clearInterval(this.reaper);
    await Promise.allSettled([...this.sessions.keys()].map((id) => this.closeSession(id)));
  }

  private async closeSession(id: string): Promise<void> {
    const s = this.sessions.get(id);
    this.sessions.delete(id);
    this.o.features.closeSession(id);
    await s?.server.close().catch(() => {});
  }
}
