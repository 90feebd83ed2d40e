import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type {
  CompleteRequestParams,
  CompleteResult,
  FeatureContext,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  SourceNotice,
} from '../tools/features.js';
import type { ClientRelay } from '../tools/relay.js';
import type {
  CallToolResult,
  SourceState,
  ToolCallContext,
  ToolDefinition,
  ToolSource,
} from '../tools/types.js';
import { SchemaWorkerPool } from '../tools/schema-worker-pool.js';
import { ServerConnection } from './connection/server-connection.js';
import {
  DEFAULT_TIMINGS,
  type RemoteConnection,
  type RemoteSourceOptions,
  type RemoteTimings,
} from './connection/timings.js';
import { RemoteCalls } from './remote-calls.js';
import type { FeatureLists } from './catalog/remote-features.js';
import {
  describeFailure,
  networkCode,
  type TransportKind,
  type Upstream,
} from './upstream/upstream.js';

export { DEFAULT_TIMINGS, type RemoteConnection, type RemoteSourceOptions, type RemoteTimings };

/**
 * One remote MCP server as a ToolSource (issue 4). Connects in the
 * background; its tools appear once listed and disappear while it is down,
 * with the reason in status(). A new connection (reconnect, refresh, edited
 * URL or token) is built while the old one keeps serving, then swapped in.
 * Resources, prompts, completion and logging come through too (issue 14).
 */
export class RemoteSource implements ToolSource {
  readonly kind = 'remote' as const;
  readonly id: string;
  readonly label: string;
  readonly prefix: string;
  /** Connect, health, backoff, swaps and agents' own sessions (connection/server-connection.ts). */
  private readonly c: ServerConnection;
  private readonly calls: RemoteCalls;
  /** The schema pool this source made for itself, when it was given none (RemoteSourceOptions). */
  private readonly ownChecks: SchemaWorkerPool | null;

  constructor(conn: RemoteConnection, o: RemoteSourceOptions) {
    this.id = `remote:${conn.name}`;
    this.label = conn.name;
    this.prefix = conn.name;
    this.c = new ServerConnection(conn, o);
    this.ownChecks = o.schemaChecks ? null : new SchemaWorkerPool();
    this.calls = new RemoteCalls(this.c, o.schemaChecks ?? this.ownChecks!);
  }

  start(): void {
    this.c.start();
  }

  /** Applies an edited URL or secret; the old connection serves until the new one is up. */
  reconfigure(conn: RemoteConnection): Promise<void> {
    return this.c.reconfigure(conn);
  }

  /** A fresh connection (new session, fresh tool list) now. */
  reconnect(): Promise<void> {
    return this.c.reconnect();
  }

  /** Bounded wait for the first connection attempt (the registry's readiness gate). */
  ready(): Promise<void> {
    return this.c.ready();
  }

  /** Resolves when the first connection attempt has finished, whatever its outcome. */
  settled(): Promise<void> {
    return this.c.settled();
  }

  status(): SourceState {
    return this.c.status();
  }

  info(): { transport?: TransportKind; protocolVersion?: string; warning?: string } {
    return this.c.info();
  }

  onChange(listener: () => void): () => void {
    return this.c.onChange(listener);
  }

  async stop(): Promise<void> {
    await this.c.stop();
    await this.ownChecks?.close();
  }

  /**
   * The server a grant is bound to (issue 27 item 5): its URL, or the command a local server
   * runs — what settings already keep in clear, never a header or an env value.
   */
  identity(): string {
    const l = this.c.settings().stdio?.launch;
    return JSON.stringify(
      l ? { command: l.command, args: l.args, cwd: l.cwd ?? null } : { url: this.c.settings().url },
    );
  }

  tools(): readonly ToolDefinition[] {
    return this.c.status().state === 'ready' ? this.c.catalog.defs : [];
  }

  lastKnownTools(): readonly ToolDefinition[] {
    return this.c.status().state === 'ready' ? [] : this.c.catalog.lastKnown;
  }

  resources(agent?: string): readonly Resource[] {
    return this.lists(agent)?.resources ?? [];
  }

  resourceTemplates(agent?: string): readonly ResourceTemplate[] {
    return this.lists(agent)?.templates ?? [];
  }

  prompts(agent?: string): readonly Prompt[] {
    return this.lists(agent)?.prompts ?? [];
  }

  /** The agent's own session's lists when it has some (agent-upstreams.ts), else the shared ones. */
  private lists(agent: string | undefined): FeatureLists | undefined {
    if (this.c.status().state !== 'ready') return undefined;
    return (
      (agent !== undefined ? this.c.agents.listsFor(agent) : undefined) ?? this.c.catalog.lists
    );
  }

  readResource(uri: string, ctx: FeatureContext): Promise<ReadResourceResult> {
    return this.onUp(ctx.agent, (up) => this.c.features.readResource(up, uri, ctx));
  }

  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    ctx: FeatureContext,
  ): Promise<GetPromptResult> {
    return this.onUp(ctx.agent, (up) => this.c.features.getPrompt(up, name, args, ctx));
  }

  complete(params: CompleteRequestParams, ctx: FeatureContext): Promise<CompleteResult> {
    return this.onUp(ctx.agent, (up) => this.c.features.complete(up, params, ctx));
  }

  /** Levels and subscriptions live on the agent's own session; a stateless server has none to keep. */
  async setLogLevel(agent: string, level: LoggingLevel | null): Promise<void> {
    const shared = this.c.up;
    const up =
      shared && this.c.agents.stateful(shared) ? await this.c.agents.agentUp(agent, false) : null;
    await this.c.features.setLogLevel(agent, up, level);
  }

  async setSubscriptions(agent: string, uris: ReadonlySet<string>): Promise<void> {
    const shared = this.c.up;
    if (shared && !this.c.agents.stateful(shared)) {
      // One connection for every agent: the union of what they watch (RemoteFeatures.applyShared).
      await this.c.features.setSubscriptions(agent, null, uris);
      return this.c.features.applyShared(shared);
    }
    const up =
      shared && this.c.agents.stateful(shared)
        ? await this.c.agents.agentUp(agent, uris.size > 0)
        : null;
    await this.c.features.setSubscriptions(agent, up, uris);
  }

  async releaseAgent(agent: string): Promise<void> {
    this.c.features.forget(agent);
    const shared = this.c.up;
    if (shared && !this.c.agents.stateful(shared)) void this.c.features.applyShared(shared);
    await this.c.sessions.release(agent);
  }

  /** Agents with their own upstream session open (issue 14, item 4). */
  agentSessions(): string[] {
    return this.c.sessions.agents();
  }

  setSessionRelays(lookup: (agent: string) => ClientRelay | undefined): void {
    this.c.sessionRelays = lookup;
  }

  onNotice(listener: (n: SourceNotice) => void): () => void {
    return this.c.features.onNotice(listener);
  }

  /** Runs a read-only request on the current session; its failures become protocol errors naming the server. */
  private async onUp<T extends object>(
    agent: string,
    run: (up: Upstream) => Promise<T>,
  ): Promise<T> {
    const pending = this.c.pendingAttempt();
    if (pending) await pending;
    // The agent's own session failing to open says why (a refused address, address-pin.ts), not
    // "still connecting" while the server is ready.
    let failed: unknown;
    const up =
      this.c.status().state === 'ready'
        ? await this.c.agents.upFor(agent).catch((e: unknown) => ((failed = e), null))
        : null;
    const state = this.c.status();
    if (!up || state.state !== 'ready') {
      const why =
        state.state === 'error'
          ? state.detail
          : failed !== undefined
            ? describeFailure(failed)
            : 'still connecting';
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        this.c.redactor.text(
          `The remote server "${this.label}" is unavailable (${why}); nothing was sent.`,
        ),
      );
    }
    // As a call does (remote-calls.ts): the token the request goes with is known before it is sent.
    this.c.syncSecrets();
    try {
      // The redactor learns the token the request went with (loaded or renewed by this very
      // request) before it redacts (ConnectionRedactor.sync), on the answer and the error alike.
      return this.c.redactor.result(await run(up));
    } catch (err) {
      if (err instanceof ProtocolError)
        throw new ProtocolError(
          err.code,
          // The server's words, said to be its own: an agent reads this error as Airlock's
          // otherwise (issue 27 item 3; tool calls mark them as results are, remote-calls.ts).
          this.c.redactor.text(
            `The remote server "${this.label}" answered with an error: ${err.message}`,
          ),
          // The error's data reaches the agent too (JSON-RPC error `data`), the server's words.
          err.data === undefined ? undefined : this.c.redactor.result({ d: err.data }).d,
        );
      if (up !== this.c.up) void this.c.sessions.drop(up);
      if (networkCode(err)) this.c.troubleNow(err as Error);
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        this.c.redactor.text(`The remote server "${this.label}" failed: ${this.c.describe(err)}`),
      );
    }
  }

  call(tool: string, args: Record<string, unknown>, ctx: ToolCallContext): Promise<CallToolResult> {
    return this.calls.call(tool, args, ctx);
  }
}
