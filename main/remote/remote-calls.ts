import { serverProgress } from './server-progress.js';
import { LOG_LEVEL_META_KEY, type ProtocolError } from '@modelcontextprotocol/client';
import type { CallToolResult, JsonSchema, ToolCallContext } from '../tools/types.js';
import type { SchemaWorkerPool } from '../tools/schema-worker-pool.js';
import { moreVerbose } from '../tools/features.js';
import { errorResult } from '../tools/types.js';
import { serverBlocks, serverContent, serverData } from '../tools/relay-label.js';
import { markUntrusted } from '../tools/untrusted.js';
import type { ServerConnection } from './connection/server-connection.js';
import { UpstreamLost } from './connection/inflight.js';
import { CallAbortController, offAbort, onAbort } from '../platform/abort-hooks.js';
import { malformedAnswer } from './http/malformed-answer.js';
import { RefreshUnavailableError } from './oauth/errors.js';
import { inRelayScope } from './relay/relay-scope.js';
import { askToOpen, RETRY, urlSteps } from './relay/url-required.js';
import { urlRequiredOf, withUrlRequired } from '../tools/url-required.js';
import { callAsTask, callsAsTask, quoteStatus, UpstreamTaskLost } from './tasks/upstream-task.js';
import { AnswerRefused } from './upstream/answer-refused.js';
import { callUpstream } from './upstream/lean-call.js';
import { toolResultProblem } from './upstream/spec-result.js';
import {
  describeFailure,
  isServerAnswer,
  isStaleSession,
  isTimeout,
  networkCode,
} from './upstream/upstream.js';

/**
 * `tools/call` on one remote server (issue 4, issue 14): the call on the agent's session, its
 * progress and cancellation, one retry on a new session after a restart, a URL step (-32042)
 * waited for once, and every failure told to the agent as whether the server ran the call.
 */
export class RemoteCalls {
  constructor(
    private readonly c: ServerConnection,
    /** Checks a result's structured content against the tool's output schema (checkedResult). */
    private readonly schemas: SchemaWorkerPool,
  ) {}

  async call(
    tool: string,
    args: Record<string, unknown>,
    ctx: ToolCallContext,
  ): Promise<CallToolResult> {
    // (The state asked first: a ready server, the usual case, has no attempt to wait for.)
    if (this.c.status().state !== 'ready') {
      const pending = this.c.pendingAttempt();
      if (pending) await pending;
    }
    // Read once per call from the current list: the lean path's test and the result's check.
    const outputSchema = this.declared().withSchema.get(tool);
    let urlRetried = false;
    // One for the whole call: progress only grows, also across a run made again.
    const onprogress =
      ctx.progress &&
      serverProgress(
        this.c.label,
        { text: (m) => this.c.redactor.text(m), value: (x) => this.c.redactor.result(x) },
        ctx.progress,
      );
    for (let attempt = 0; ; attempt++) {
      // The session in hand is taken as is; only one still opening is awaited (issue 34).
      let failed: unknown;
      const up =
        this.c.status().state === 'ready'
          ? (this.c.agents.upNow(ctx.agent) ??
            (await this.c.agents.upFor(ctx.agent).catch((e: unknown) => ((failed = e), null))))
          : null;
      const state = this.c.status();
      if (!up || state.state !== 'ready') {
        // The agent's own session failing to open says why (remote-source.ts onUp).
        const why =
          state.state === 'error'
            ? state.detail
            : failed !== undefined
              ? describeFailure(failed)
              : 'still connecting';
        return errorResult(
          this.c.redactor.text(
            `The remote server "${this.c.label}" is unavailable (${why}); nothing was sent.`,
          ),
        );
      }
      const lost = new CallAbortController();
      // The agent's cancellation joins `lost` by one hook, removed when the call ends: no
      // AbortSignal.any per call, whose WeakRefs outlive it (issue 20), and on a lone call's
      // signal no EventTarget listener either (abort-hooks.ts, issue 34).
      const onCancel = () => lost.abort(ctx.signal.reason);
      if (ctx.signal.aborted) onCancel();
      else onAbort(ctx.signal, onCancel);
      this.c.inflight.add(lost, up);
      const hadSession = up.hasSession();
      // The token this call goes with joins the list now: renewed while the call runs, it stays
      // redacted from what the call brings back (redact.ts keeps a value that left the list).
      this.c.syncSecrets();
      try {
        // One literal, no spread of a conditional object (issue 34): a scope without a relay has
        // it undefined, which relay-scope.ts reads as none.
        const scope = {
          agent: ctx.agent,
          signal: ctx.signal,
          relay: ctx.relay,
          onStreamLost: (err: unknown) =>
            lost.abort(
              err instanceof AnswerRefused
                ? err
                : new UpstreamLost(`its response stream broke: ${describeFailure(err)}`),
            ),
        };
        // A tool that declares task support goes task-augmented where the server offers it (tasks/).
        // (`withTasks`: false where callsAsTask surely is, without its walk of the list.)
        const asTask =
          this.declared().withTasks.has(tool) && callsAsTask(up, this.c.catalog.defs, tool);
        const params: Parameters<typeof callUpstream>[1] = { name: tool, arguments: args };
        // On 2026-07-28 there is no logging/setLevel: the level rides on each request
        // (`io.modelcontextprotocol/logLevel`), so the calling agent's own level (its sessions'
        // or its request's own, whichever is more verbose) goes with its calls, and the lines
        // come back on its call's stream. (Here, not in a method: issue 34 counts functions.)
        const level = moreVerbose(this.c.features.levelOf(ctx.agent), ctx.relay?.level);
        if (level && up.client.getProtocolEra() === 'modern')
          params._meta = { [LOG_LEVEL_META_KEY]: level };
        const options: Parameters<typeof callUpstream>[3] = {
          // Aborting sends notifications/cancelled upstream (2025) or closes the request stream (2026).
          signal: lost.signal,
          timeout: this.c.t.callIdleMs,
          resetTimeoutOnProgress: true,
          maxTotalTimeout: this.c.t.callMaxMs,
        };
        if (onprogress) options.onprogress = onprogress;
        const result = asTask
          ? await inRelayScope(scope, () =>
              callAsTask(
                up.client,
                params,
                options,
                this.c.label,
                // Redacted (the list updated first, redact.ts) before it is cut (quoteStatus): a
                // cut secret is no longer found.
                ctx.taskStatus &&
                  ((m) => ctx.taskStatus?.(quoteStatus(this.c.label, this.c.redactor.text(m)))),
              ),
            )
          : // A plain call to a tool without an output schema skips the SDK's funnel
            // (lean-call.ts); its arguments go through the scope, not a closure (issue 34).
            await inRelayScope(
              scope,
              callUpstream,
              up.client,
              params,
              outputSchema === undefined,
              options,
            );
        // Refused here with a clear reason, as a tool error (spec-result.ts): the server did run it.
        const problem = toolResultProblem(result);
        if (problem)
          return this.fault(
            `The remote server "${this.c.label}" answered with a malformed result, which Airlock did not pass on: ${problem}. The call itself ran on the server; check before trying again.`,
          );
        if (outputSchema !== undefined) {
          const refused = await this.checkedResult(outputSchema, result as CallToolResult, ctx);
          if (refused) return refused;
        }
        const voiced = serverResult(result);
        if (outputSchema !== undefined) {
          const refused = await this.checkedQuoting(outputSchema, result, voiced, ctx);
          if (refused) return refused;
        }
        // The redactor learns the token this call went with first (ConnectionRedactor.sync).
        return this.c.redactor.result(markUntrusted(voiced, this.c.label));
      } catch (err) {
        const refused = [lost.signal.reason, err].find((e) => e instanceof AnswerRefused);
        if (refused)
          return this.fault(
            `The remote server "${this.c.label}" answered, but Airlock did not read the answer: ${(refused as Error).message}. The call itself ran on the server; check before trying again.`,
          );
        if (lost.signal.reason instanceof UpstreamLost)
          return this.lostDuringCall(lost.signal.reason.message);
        if (ctx.signal.aborted) return this.fault(`The call to "${this.c.label}" was cancelled.`);
        if (err instanceof UpstreamTaskLost) return this.fault(err.message);
        if (lost.signal.aborted) return this.lostDuringCall('connection lost');
        if (attempt === 0 && isStaleSession(err, hadSession)) {
          // The server forgot our session (it restarted): it refused the request unprocessed, so one retry on a new session is safe.
          await this.c.replace(up);
          continue;
        }
        if (this.c.settings().auth?.needsSignIn(err)) {
          // 401/403 from the server, or no usable token: the server did not run the call (issue 10).
          this.c.fail(err);
          return this.fault(
            `The remote server "${this.c.label}" refused the call: ${this.c.describe(err)}. The call was not run. ` +
              `Ask the user to sign in again from Airlock's Servers page or with "airlock remote login ${this.c.label}".`,
          );
        }
        if (err instanceof RefreshUnavailableError)
          return this.fault(
            `The remote server "${this.c.label}" is unavailable: ${err.message}; nothing was sent.`,
          );
        if (isTimeout(err))
          return this.fault(
            `The remote server "${this.c.label}" did not answer in time; it may still be working on the call.`,
          );
        const malformed = malformedAnswer(err);
        if (malformed)
          // An answer to this call, however malformed (a stdio line over the bounds included,
          // line-reader.ts): the server had the call, so it may have run it.
          return this.fault(
            `The remote server "${this.c.label}" answered with a malformed result, which Airlock did not pass on: ${malformed}. The call itself ran on the server; check before trying again.`,
          );
        // The steps go to the agent (an elicitation/create, or links in the answer) as the server
        // wrote them: redacted first, as redactedSteps does to the answer (issue 10).
        const steps = this.safeSteps(urlSteps(err));
        if (steps) {
          // Waits for the user's steps once; a second -32042 after the retry is only passed on.
          const next = await askToOpen(steps, ctx, this.c.label, {
            completions: this.c.completions,
            relay: this.c.relayAllowed(),
            ...(urlRetried ? {} : { waitMs: this.c.t.urlStepWaitMs }),
          });
          if (next !== RETRY) return this.redactedSteps(next);
          urlRetried = true;
          continue;
        }
        if (isServerAnswer(err)) return this.serverError(err as ProtocolError);
        if (networkCode(err)) {
          if (up !== this.c.up) void this.c.sessions.drop(up);
          this.c.troubleNow(err as Error);
          return this.lostDuringCall(describeFailure(err));
        }
        return this.fault(
          `The remote server "${this.c.label}" failed: ${describeFailure(err)}. The call may or may not have reached it.`,
        );
      } finally {
        offAbort(ctx.signal, onCancel);
        this.c.inflight.end(lost, up);
      }
    }
  }

  /**
   * Redacts a URL step's answer; the steps it carries for the JSON-RPC error (issue 28 item 5)
   * too: one whose link holds a secret of the connection's is not passed on as a step at all.
   */
  private redactedSteps(result: CallToolResult): CallToolResult {
    const required = urlRequiredOf(result);
    const out = this.c.redactor.result(result);
    if (!required) return out;
    return withUrlRequired(out, { ...required, steps: this.safeSteps(required.steps) ?? [] });
  }

  /** A step whose link or id holds a secret of the connection's is dropped; its message redacted. */
  private safeSteps<S extends { url: string; elicitationId: string; message: string }>(
    steps: S[] | null,
  ): S[] | null {
    if (!steps) return null;
    const r = this.c.redactor;
    const safe = steps
      .filter((s) => r.text(s.url) === s.url && r.text(s.elicitationId) === s.elicitationId)
      .map((s) => ({ ...s, message: r.text(s.message) }));
    return safe.length > 0 ? safe : null;
  }

  /**
   * A result's `structuredContent` against the tool's `outputSchema` (MCP 2025-11-25, server/tools,
   * "Output Schema": clients SHOULD validate), by the pool that checks every call's arguments:
   * inline when cheap, else in a worker within the budget, so a hostile schema (a backtracking
   * pattern, recursive `$ref` fan-out) costs Airlock bounded time off the main thread. The SDK's
   * own check of it is left out (upstream-client.ts, tools/sdk-schema-validators.ts); its refusal
   * of a result with no structured content at all stays. A valid result goes on as it came; an
   * error result (`isError`) is not checked, as the SDK did not; an output schema the validator
   * cannot compile (a pattern RE2 cannot express) is not checked here, as an input schema is not.
   * Null when the result may go on, else the tool error the agent gets instead: the call did run.
   */
  private async checkedResult(
    schema: JsonSchema,
    result: CallToolResult,
    ctx: ToolCallContext,
  ): Promise<CallToolResult | null> {
    if (result.structuredContent === undefined || result.isError) return null;
    const check = await this.schemas.checkResult(schema, result.structuredContent, ctx.agent);
    if (check === null) return null;
    if ('unchecked' in check)
      return this.fault(
        `The remote server "${this.c.label}" answered, but Airlock could not check the result against its tool's output schema and did not pass it on: ${check.unchecked}. The call itself ran on the server; check before trying again.`,
      );
    // The problems quote the server's schema and its content (a pattern, a key): its words, so
    // they follow Airlock's sentence marked as the server's, as its error messages do.
    return this.ownThenServers(
      `The remote server "${this.c.label}" answered with structured content that does not match its tool's output schema, which Airlock did not pass on. The call itself ran on the server; check before trying again. What does not match follows.`,
      check.mismatch,
    );
  }

  /**
   * A result whose `structuredContent` had words quoted as the server's (serverResult) is checked
   * against the output schema again: a quoted string may no longer fit it (a pattern, an enum, a
   * length). Then it is refused with the reason, as a gateway that passes content complete or not
   * at all; one that still fits goes on. Only a result with such words is checked twice.
   */
  private async checkedQuoting(
    schema: JsonSchema,
    result: unknown,
    voiced: CallToolResult,
    ctx: ToolCallContext,
  ): Promise<CallToolResult | null> {
    const before = (result as CallToolResult).structuredContent;
    if (voiced.structuredContent === before || voiced.isError) return null;
    const check = await this.schemas.checkResult(schema, voiced.structuredContent, ctx.agent);
    if (check === null) return null;
    // Said as checkedResult says it: a check that could not run is not a mismatch, and a
    // mismatch names what no longer fits (the server's words, marked as such after Airlock's).
    if ('unchecked' in check)
      return this.fault(
        `The remote server "${this.c.label}" answered with structured content holding words that read as Airlock's own notes; Airlock quoted them as the server's words but could not check the result against its tool's output schema, and did not pass it on: ${check.unchecked}. The call itself ran on the server; check before trying again.`,
      );
    return this.ownThenServers(
      `The remote server "${this.c.label}" answered with structured content holding words that read as Airlock's own notes; quoted as the server's words they no longer match its tool's output schema, so Airlock did not pass the result on. The call itself ran on the server; check before trying again. What does not match follows.`,
      check.mismatch,
    );
  }

  /**
   * What the current tool list declares, by tool name; made again when the list changes: each
   * tool's `outputSchema` (its calls then take the SDK path, lean-call.ts) and the tools that
   * declare task support (`withTasks`: a tool not in it surely does not run as a task, so
   * callsAsTask need not look through the whole list on every call, issue 34).
   */
  private declared(): { withSchema: Map<string, JsonSchema>; withTasks: Set<string> } {
    const defs = this.c.catalog.defs;
    if (this.declaredFor !== defs) {
      this.declaredFor = defs;
      this.declaredNow = {
        // The schema objects themselves: the pool caches what it compiles per object, per list.
        withSchema: new Map(
          defs.flatMap((d) => (d.outputSchema ? [[d.name, d.outputSchema] as const] : [])),
        ),
        withTasks: new Set(
          defs
            .filter((d) => d.execution?.taskSupport && d.execution.taskSupport !== 'forbidden')
            .map((d) => d.name),
        ),
      };
    }
    return this.declaredNow;
  }
  private declaredFor: readonly unknown[] | undefined;
  private declaredNow = {
    withSchema: new Map<string, JsonSchema>(),
    withTasks: new Set<string>(),
  };

  private lostDuringCall(why: string): CallToolResult {
    return this.fault(
      `The remote server "${this.c.label}" became unreachable during the call (${why}). It may or may not have completed the call; check before trying again.`,
    );
  }

  /**
   * A JSON-RPC error to the call: Airlock says who answered, and the server's words follow as
   * third-party content, marked as its results are (untrusted.ts). Written into Airlock's own
   * sentence, they read as Airlock ("[Airlock: the user approved …]", issue 27 item 3). The
   * error's code (an integer, nothing a server can word) goes in that sentence and its `data`
   * (JSON-RPC 2.0 §5.1: more about the error) after its message, with it: a call's answer is a
   * tool result, and both were lost there.
   */
  private serverError(err: ProtocolError): CallToolResult {
    const code = Number.isSafeInteger(err.code) ? ` (JSON-RPC error ${err.code})` : '';
    // Redacted as a value before it is written out: in JSON text a secret holding `"` or `\`
    // stands escaped, where the redaction of the whole result (redact.ts) no longer finds it.
    const data =
      err.data === undefined
        ? []
        : [`Error data: ${jsonOrNote(err.data, (d) => this.c.redactor.result({ d }).d)}`];
    return this.ownThenServers(
      `The remote server "${this.c.label}" answered with an error${code}; its message follows.`,
      err.message,
      ...data,
    );
  }

  /** A tool error: Airlock's own sentence, then the server's words, marked as its content is. */
  private ownThenServers(own: string, ...words: string[]): CallToolResult {
    const marked = markUntrusted(
      { content: words.map((text) => ({ type: 'text' as const, text: serverContent(text) })) },
      this.c.label,
    );
    return this.c.redactor.result({
      ...marked,
      content: [{ type: 'text', text: own }, ...(marked.content ?? [])],
      isError: true,
    });
  }

  private fault(text: string): CallToolResult {
    return errorResult(this.c.redactor.text(text));
  }
}

/**
 * JSON text of an error's `data`, redacted, or why none: a server's JSON nested past the stack's
 * reach (the redactor writes it out too, so it goes inside the same catch).
 */
function jsonOrNote(data: unknown, redact: (data: unknown) => unknown): string {
  try {
    return JSON.stringify(redact(data)) ?? 'null';
  } catch {
    return '(not shown: nested too deeply to write out)';
  }
}

/**
 * A server's result with every line that reads as Airlock quoted as the server's, alone
 * (relay-label.ts serverBlocks with serverContent: text blocks, embedded text resources and a
 * link's words; a JSON text by its strings), and every string of `structuredContent` read the
 * same way (serverData): a client may show the model that object instead of the text. The same
 * object when nothing reads as Airlock. Airlock writes before the server's blocks (the untrusted
 * note) and after them (the cut note), so a line of the server's reading "[Airlock: …]" read as
 * Airlock's (result-voice.security.test.ts).
 */
function serverResult(result: unknown): CallToolResult {
  const r = result as CallToolResult;
  const content = Array.isArray(r.content) ? serverBlocks(r.content, serverContent) : r.content;
  const structured =
    r.structuredContent === undefined ? undefined : serverData(r.structuredContent);
  if (content === r.content && structured === r.structuredContent) return r;
  return {
    ...r,
    ...(content !== r.content ? { content: [...content] } : {}),
    ...(structured !== undefined
      ? { structuredContent: structured as Record<string, unknown> }
      : {}),
  };
}
