import {
  isSpecType,
  LOG_LEVEL_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
  type LoggingLevel,
  type SubscriptionFilter,
} from '@modelcontextprotocol/server';
import type { ClientRelay } from '../tools/relay.js';
import type { AgentFeatures } from './mcp-handlers/api.js';

/**
 * Open listen streams per agent, as many as its 2025 sessions (budgets.ts): each holds upstream
 * subscriptions. Per agent, so one agent's streams never refuse another's.
 */
export const MAX_LISTEN_STREAMS = 64;
const KEEPALIVE_MS = 15_000;

type ListChange = 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged';
const LIST_METHODS: Record<ListChange, string> = {
  toolsListChanged: 'notifications/tools/list_changed',
  promptsListChanged: 'notifications/prompts/list_changed',
  resourcesListChanged: 'notifications/resources/list_changed',
};

interface Stream {
  agent: string;
  honored: SubscriptionFilter;
  send: (method: string, params: Record<string, unknown>) => void;
  end: (graceful: boolean) => void;
}

/**
 * `subscriptions/listen` for 2026-07-28 agents (MCP 2026-07-28, "Subscriptions"; the era's
 * replacement for the GET stream and `resources/subscribe`). The SDK's own listen router carries
 * list changes and `resources/updated` from one bus shared by every caller, and no log lines; an
 * agent's resource updates and upstream log lines must reach that agent only (issue 28 item 5),
 * so Airlock serves the stream itself. Each stream is one FeatureSessions session: the same
 * per-agent rules as a 2025 session decide which URIs it may watch (those it may read), which
 * lines it gets (at the level its listen request carried in `_meta`, SEP-2577's per-request
 * level; none when absent, as the spec says), and what the upstream is asked for.
 */
export class ListenStreams {
  private readonly open = new Map<string, Stream>();
  private seq = 0;

  constructor(
    private readonly features: AgentFeatures,
    private readonly onError: (err: Error) => void = () => {},
  ) {}

  /** Whether a parsed 2026-07-28 body is a listen request this class serves. */
  static isListen(body: unknown): boolean {
    return (
      typeof body === 'object' &&
      body !== null &&
      (body as { method?: unknown }).method === 'subscriptions/listen'
    );
  }

  get openCount(): number {
    return this.open.size;
  }

  serve(agent: string, body: unknown, signal: AbortSignal): Response {
    const id = (body as { id?: unknown }).id;
    const echo = typeof id === 'string' || typeof id === 'number' ? id : null;
    // A listen without an id is a notification, which has no stream to answer on.
    if (echo === null)
      return rpcError(null, -32600, 'Invalid request: subscriptions/listen needs an id');
    if (!isSpecType.SubscriptionsListenRequest(body))
      return rpcError(echo, -32602, "Invalid params: 'notifications' must be a SubscriptionFilter");
    if ([...this.open.values()].filter((s) => s.agent === agent).length >= MAX_LISTEN_STREAMS)
      return rpcError(
        echo,
        -32603,
        `Subscription limit reached: this agent already holds ${MAX_LISTEN_STREAMS} open subscriptions/listen streams; close one first.`,
      );
    const request = { id: echo, params: body.params };
    const filter: SubscriptionFilter = body.params.notifications;
    const meta = body.params._meta as Record<string, unknown> | undefined;
    const level = meta?.[LOG_LEVEL_META_KEY];
    const session = `listen:${++this.seq}`;
    const encoder = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let closed = false;
    let keepAlive: NodeJS.Timeout | undefined;
    const frame = (text: string) => {
      if (closed) return;
      try {
        controller.enqueue(encoder.encode(text));
      } catch (err) {
        this.onError(err as Error);
      }
    };
    const send = (method: string, params: Record<string, unknown>) =>
      frame(
        `event: message\ndata: ${JSON.stringify({
          jsonrpc: '2.0',
          method,
          params: {
            ...params,
            _meta: { ...(params._meta as object), [SUBSCRIPTION_ID_META_KEY]: request.id },
          },
        })}\n\n`,
      );
    const end = (graceful: boolean) => {
      if (closed) return;
      if (graceful)
        frame(
          `event: message\ndata: ${JSON.stringify({
            jsonrpc: '2.0',
            id: request.id,
            result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META_KEY]: request.id } },
          })}\n\n`,
        );
      closed = true;
      clearInterval(keepAlive);
      this.open.delete(session);
      this.features.closeSession(session);
      try {
        controller.close();
      } catch {
        // already closed by the reader's cancel
      }
    };
    const stream: Stream = { agent, honored: {}, send, end };
    const readable = new ReadableStream<Uint8Array>({
      start: async (c) => {
        controller = c;
        this.open.set(session, stream);
        this.features.openSession(
          session,
          agent,
          {
            log: (line) => send('notifications/message', line),
            resourceUpdated: (uri, meta) =>
              send('notifications/resources/updated', { uri, ...(meta ? { _meta: meta } : {}) }),
            listChanged: (kind) =>
              this.changedOn(
                stream,
                kind === 'resources' ? 'resourcesListChanged' : 'promptsListChanged',
              ),
            relay: noRelay(agent),
            state: () => ({ lastUsed: 0, listening: false }),
          },
          false,
        );
        if (typeof level === 'string' && isSpecType.LoggingLevel(level))
          this.features.setLogLevel(session, level as LoggingLevel);
        stream.honored = await this.honor(session, filter);
        if (closed) return; // the client left while its subscriptions were being set up
        send('notifications/subscriptions/acknowledged', { notifications: stream.honored });
        keepAlive = setInterval(() => frame(': keepalive\n\n'), KEEPALIVE_MS);
        keepAlive.unref();
      },
      cancel: () => end(false),
    });
    if (signal.aborted) end(false);
    else signal.addEventListener('abort', () => end(false), { once: true });
    return new Response(readable, {
      status: 200,
      headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform' },
    });
  }

  /**
   * What the stream will carry, acknowledged before anything else: every list change Airlock
   * announces (it declares all three), and the watched URIs the agent may read — a URI it may
   * not read, or past the per-session limit, is left out of the acknowledgement, which the spec
   * makes the server's statement of what it honors.
   */
  private async honor(session: string, filter: SubscriptionFilter): Promise<SubscriptionFilter> {
    const honored: SubscriptionFilter = {};
    for (const key of Object.keys(LIST_METHODS) as ListChange[])
      if (filter[key] === true) honored[key] = true;
    const watched: string[] = [];
    for (const uri of new Set(filter.resourceSubscriptions ?? []))
      try {
        await this.features.subscribe(session, uri);
        watched.push(uri);
      } catch {
        // Unknown or not the agent's: not honored (the acknowledgement says so).
      }
    if (watched.length) honored.resourceSubscriptions = watched;
    return honored;
  }

  /** A list changed: to every stream that asked for that change. */
  listChanged(kind: ListChange): void {
    for (const s of this.open.values()) this.changedOn(s, kind);
  }

  /** One stream's list changed, if it asked to hear of that change. */
  private changedOn(s: Stream, kind: ListChange): void {
    if (s.honored[kind]) s.send(LIST_METHODS[kind], {});
  }

  /** Revoking an agent ends its streams; closing the gateway ends all, gracefully. */
  closeOf(agent: string): void {
    for (const s of [...this.open.values()]) if (s.agent === agent) s.end(true);
  }

  close(): void {
    for (const s of [...this.open.values()]) s.end(true);
  }
}

/** A listen stream carries no server→client requests on this era; its relay says so. */
function noRelay(agent: string): ClientRelay {
  const why =
    'the agent reached Airlock only over 2026-07-28 subscriptions/listen, which carries no requests outside a call';
  return {
    agent,
    refusal: () => why,
    request: () => Promise.reject(new Error(why)),
  };
}

function rpcError(id: string | number | null, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', id, error: { code, message } }, { status: 200 });
}
