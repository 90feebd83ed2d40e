import type { McpExchange, McpHandler } from './http-server.js';
import type { McpEndpoint, McpEndpointOptions } from './mcp-endpoint.js';
import { loadProtocolRuntime } from '../tools/protocol-runtime.js';
import type { ClientRelay } from '../tools/relay.js';

/**
 * /mcp, loaded with the first request that reaches it (issue 20: cold start ≤ 300 ms, idle RSS
 * ≤ 80 MiB). McpEndpoint brings the MCP server SDK and zod's schemas of the protocol: ≈ 28 MB of
 * RSS and 100–200 ms of imports that an idle gateway never uses. The first agent request pays the
 * load once; main/app/lazy-start.test.ts checks the SDK stays out of start-up.
 *
 * Before the load there is nothing to tell: no session is open, no client listens for
 * tools/list_changed.
 */
export class LazyMcpEndpoint implements McpHandler {
  private endpoint: McpEndpoint | null = null;
  private loading: Promise<McpEndpoint> | null = null;
  private closed = false;

  constructor(private readonly create: () => Promise<McpEndpoint>) {}

  /** The endpoint once loaded (tests, status). */
  get loaded(): McpEndpoint | null {
    return this.endpoint;
  }

  handle(exchange: McpExchange): Promise<void> | void {
    if (this.endpoint) return this.endpoint.handle(exchange);
    return this.load().then((e) => e.handle(exchange));
  }

  /** Ends a revoked agent's sessions (issue 17.8); before the load there are none. */
  closeSessionsOf(agent: string): void {
    this.endpoint?.closeSessionsOf(agent);
  }

  /** Agents with an open 2025-era session. */
  connectedAgents(): Set<string> {
    return this.endpoint?.connectedAgents() ?? new Set();
  }

  toolsChanged(): void {
    this.endpoint?.toolsChanged();
  }

  resourcesChanged(): void {
    this.endpoint?.resourcesChanged();
  }

  promptsChanged(): void {
    this.endpoint?.promptsChanged();
  }

  /** The open request of an agent that an upstream's sampling/elicitation can go to (issue 14). */
  relayFor(agent: string): ClientRelay | undefined {
    return this.endpoint?.relayFor(agent);
  }

  async close(): Promise<void> {
    this.closed = true;
    const endpoint = this.loading ? await this.loading.catch(() => null) : null;
    await endpoint?.close();
  }

  private load(): Promise<McpEndpoint> {
    if (this.closed) return Promise.reject(new Error('Airlock is stopping'));
    // A failed load is retried by the next request rather than cached.
    this.loading ??= this.create().then(
      (e) => {
        this.endpoint = e;
        return e;
      },
      (err: unknown) => {
        this.loading = null;
        throw err;
      },
    );
    return this.loading;
  }
}

/** Loaded by the first /mcp request, with the MCP server SDK (issue 20). */
export function lazyMcpEndpoint(o: McpEndpointOptions): LazyMcpEndpoint {
  return new LazyMcpEndpoint(async () => {
    const [{ McpEndpoint }] = await Promise.all([
      import('./mcp-endpoint.js'),
      loadProtocolRuntime(),
    ]);
    return new McpEndpoint(o);
  });
}
