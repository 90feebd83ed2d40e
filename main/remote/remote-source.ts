import { LOG_LEVEL_META_KEY, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
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
  ToolCallContext,
  ToolDefinition,
  ToolSource,
} from '../tools/types.js';
import { errorResult } from '../tools/types.js';
import { RefreshUnavailableError } from './oauth/errors.js';
import { inRelayScope } from './relay-scope.js';
import { UpstreamLost } from './inflight.js';
import { RemoteConnectionBase } from './remote-connection.js';
import { DEFAULT_TIMINGS, type RemoteConnection, type RemoteTimings } from './timings.js';
import { markUntrusted } from './untrusted.js';
import { askToOpen, RETRY, urlSteps } from './url-required.js';
import { malformedAnswer } from './malformed-answer.js';
import {
  describeFailure,
  isServerAnswer,
  isStaleSession,
  isTimeout,
  networkCode,
  type Upstream,
} from './upstream.js';

export { DEFAULT_TIMINGS, type RemoteConnection, type RemoteTimings };
export type { RemoteSourceOptions } from './remote-connection.js';

/**
 * One remote MCP server as a ToolSource (issue 4). Connects in the
 * background; its tools appear once listed and disappear while it is down,
 * with the reason in status(). A new connection (reconnect, refresh, edited
 * URL or token) is built while the old one keeps serving, then swapped in.
 * Resources, prompts, completion and logging come through too (issue 14).
 */
export class RemoteSource extends RemoteConnectionBase implements ToolSource {
  tools(): readonly ToolDefinition[] {
    return this.state.state === 'ready' ? this.catalog.defs : [];
  }

  resources(): readonly Resource[] {
    return this.state.state === 'ready' ? this.catalog.lists.resources : [];
  }

  resourceTemplates(): readonly ResourceTemplate[] {
    return this.state.state === 'ready' ? this.catalog.lists.templates : [];
  }

  prompts(): readonly Prompt[] {
    return this.state.state === 'ready' ? this.catalog.lists.prompts : [];
  }

  readResource(uri: string, ctx: FeatureContext): Promise<ReadResourceResult> {
    return this.onUp(ctx.agent, (up) => this.features.readResource(up, uri, ctx));
  }

  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    ctx: FeatureContext,
  ): Promise<GetPromptResult> {
    return this.onUp(ctx.agent, (up) => this.features.getPrompt(up, name, args, ctx));
  }

  complete(params: CompleteRequestParams, ctx: FeatureContext): Promise<CompleteResult> {
    return this.onUp(ctx.agent, (up) => this.features.complete(up, params, ctx));
  }

  /** Levels and subscriptions live on the agent's own session; a stateless server has none to keep. */
  async setLogLevel(agent: string, level: LoggingLevel | null): Promise<void> {
    const up = this.up && this.stateful(this.up) ? await this.agentUp(agent, false) : null;
    await this.features.setLogLevel(agent, up, level);
  }

  async setSubscriptions(agent: string, uris: ReadonlySet<string>): Promise<void> {
    const up = this.up && this.stateful(this.up) ? await this.agentUp(agent, uris.size > 0) : null;
    await this.features.setSubscriptions(agent, up, uris);
  }

  async releaseAgent(agent: string): Promise<void> {
    this.features.forget(agent);
    await this.sessions.release(agent);
  }

  /** Agents with their own upstream session open (issue 14, item 4). */
  agentSessions(): string[] {
    return this.sessions.agents();
  }

  setSessionRelays(lookup: (agent: string) => ClientRelay | undefined): void {
    this.sessionRelays = lookup;
  }

  onNotice(listener: (n: SourceNotice) => void): () => void {
    return this.features.onNotice(listener);
  }

  /**
   * On 2026-07-28 there is no logging/setLevel: the level rides on each
   * request (`io.modelcontextprotocol/logLevel`), so the calling agent's own
   * level goes with its calls, and the lines come back on its call's stream.
   */
  private perRequestMeta(up: Upstream, agent: string): { _meta?: Record<string, unknown> } {
    const level = this.features.levelOf(agent);
    return level && up.client.getProtocolEra() === 'modern'
      ? { _meta: { [LOG_LEVEL_META_KEY]: level } }
      : {};
  }

  /** Runs a read-only request on the current session; its failures become protocol errors naming the server. */
  private async onUp<T extends object>(
    agent: string,
    run: (up: Upstream) => Promise<T>,
  ): Promise<T> {
    if (this.state.state !== 'ready' && this.connecting) await this.connecting;
    const up = this.state.state === 'ready' ? await this.upFor(agent).catch(() => null) : null;
    if (!up || this.state.state !== 'ready') {
      const why = this.state.state === 'error' ? this.state.detail : 'still connecting';
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        this.redactor.text(
          `The remote server "${this.label}" is unavailable (${why}); nothing was sent.`,
        ),
      );
    }
    try {
      return this.redactor.result(await run(up));
    } catch (err) {
      if (err instanceof ProtocolError)
        throw new ProtocolError(err.code, this.redactor.text(err.message), err.data);
      if (up !== this.up) void this.sessions.drop(up);
      if (networkCode(err) && this.up) this.trouble(this.gen, this.up, err as Error);
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        this.redactor.text(`The remote server "${this.label}" failed: ${this.describe(err)}`),
      );
    }
  }

  async call(
    tool: string,
    args: Record<string, unknown>,
    ctx: ToolCallContext,
  ): Promise<CallToolResult> {
    if (this.state.state !== 'ready' && this.connecting) await this.connecting;
    let urlRetried = false;
    let lastProgress = -Infinity;
    for (let attempt = 0; ; attempt++) {
      const up =
        this.state.state === 'ready' ? await this.upFor(ctx.agent).catch(() => null) : null;
      if (!up || this.state.state !== 'ready') {
        const why = this.state.state === 'error' ? this.state.detail : 'still connecting';
        return errorResult(
          this.redactor.text(
            `The remote server "${this.label}" is unavailable (${why}); nothing was sent.`,
          ),
        );
      }
      const lost = new AbortController();
      // The agent's cancellation joins `lost` by one listener, removed when the call ends: no
      // AbortSignal.any per call, whose WeakRefs outlive it (issue 20).
      const onCancel = () => lost.abort(ctx.signal.reason);
      if (ctx.signal.aborted) onCancel();
      else ctx.signal.addEventListener('abort', onCancel, { once: true });
      this.inflight.add(lost, up);
      const hadSession = up.hasSession();
      try {
        const scope = {
          agent: ctx.agent,
          signal: ctx.signal,
          ...(ctx.relay ? { relay: ctx.relay } : {}),
          onStreamLost: (err: unknown) =>
            lost.abort(new UpstreamLost(`its response stream broke: ${describeFailure(err)}`)),
        };
        const result = await inRelayScope(scope, () =>
          up.client.callTool(
            { name: tool, arguments: args, ...this.perRequestMeta(up, ctx.agent) },
            {
              // Aborting sends notifications/cancelled upstream (2025) or closes the request stream (2026).
              signal: lost.signal,
              timeout: this.t.callIdleMs,
              resetTimeoutOnProgress: true,
              maxTotalTimeout: this.t.callMaxMs,
              ...(ctx.progress
                ? {
                    // Progress only grows (basic/utilities/progress), also across a run made again.
                    onprogress: (p: { progress: number; total?: number; message?: string }) => {
                      if (p.progress <= lastProgress) return;
                      lastProgress = p.progress;
                      ctx.progress?.(p.progress, p.total, p.message);
                    },
                  }
                : {}),
            },
          ),
        );
        this.syncSecrets();
        return this.redactor.result(markUntrusted(result as CallToolResult, this.label));
      } catch (err) {
        if (lost.signal.reason instanceof UpstreamLost)
          return this.lostDuringCall(lost.signal.reason.message);
        if (ctx.signal.aborted) return this.fault(`The call to "${this.label}" was cancelled.`);
        if (lost.signal.aborted) return this.lostDuringCall('connection lost');
        if (attempt === 0 && isStaleSession(err, hadSession)) {
          // The server forgot our session (it restarted): it refused the request unprocessed, so one retry on a new session is safe.
          await this.replace(up);
          continue;
        }
        if (this.conn.auth?.needsSignIn(err)) {
          // 401/403 from the server, or no usable token: the server did not run the call (issue 10).
          this.fail(err);
          return this.fault(
            `The remote server "${this.label}" refused the call: ${this.describe(err)}. The call was not run. ` +
              `Ask the user to sign in again from Airlock's Servers page or with "airlock remote login ${this.label}".`,
          );
        }
        if (err instanceof RefreshUnavailableError)
          return this.fault(
            `The remote server "${this.label}" is unavailable: ${err.message}; nothing was sent.`,
          );
        if (isTimeout(err))
          return this.fault(
            `The remote server "${this.label}" did not answer in time; it may still be working on the call.`,
          );
        const malformed = malformedAnswer(err);
        if (malformed)
          return this.fault(
            `The remote server "${this.label}" answered with a malformed result, which Airlock did not pass on: ${malformed}`,
          );
        const steps = urlSteps(err);
        if (steps) {
          // Waits for the user's steps once; a second -32042 after the retry is only passed on.
          const next = await askToOpen(steps, ctx, this.label, {
            completions: this.completions,
            relay: this.relayAllowed(),
            ...(urlRetried ? {} : { waitMs: this.t.urlStepWaitMs }),
          });
          if (next !== RETRY) return this.redactor.result(next);
          urlRetried = true;
          continue;
        }
        if (isServerAnswer(err))
          return this.fault(
            `The remote server "${this.label}" answered with an error: ${(err as Error).message}`,
          );
        if (networkCode(err)) {
          if (up !== this.up) void this.sessions.drop(up);
          if (this.up) this.trouble(this.gen, this.up, err as Error);
          return this.lostDuringCall(describeFailure(err));
        }
        return this.fault(
          `The remote server "${this.label}" failed: ${describeFailure(err)}. The call may or may not have reached it.`,
        );
      } finally {
        ctx.signal.removeEventListener('abort', onCancel);
        this.inflight.end(lost, up);
      }
    }
  }

  private lostDuringCall(why: string): CallToolResult {
    return this.fault(
      `The remote server "${this.label}" became unreachable during the call (${why}). It may or may not have completed the call; check before trying again.`,
    );
  }

  private fault(text: string): CallToolResult {
    this.syncSecrets();
    return errorResult(this.redactor.text(text));
  }
}
