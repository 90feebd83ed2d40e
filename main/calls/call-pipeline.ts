import type { Tool } from '@modelcontextprotocol/server';
import type { ActivityView } from '../../common/contract/index.js';
import type { AgentService } from '../agents/agent-service.js';
import { argsDigest } from '../approvals/canonical.js';
import type { ApprovalEngine, AskOutcome } from '../approvals/engine.js';
import type { GrantService } from '../approvals/grants.js';
import { waitingApprovalId } from '../approvals/messages.js';
import { resolvePolicy } from '../approvals/policy.js';
import type { ActivityLog } from '../store/activity.js';
import type { ToolEntry, ToolRegistry } from '../tools/registry.js';
import { precheckOf } from '../tools/precheck.js';
import { callContentOf, mayHaveCallContent } from '../tools/call-content.js';
import { capText } from '../tools/result-shaping.js';
import { withPublicLinks } from '../tools/resource-links.js';
import type { SchemaWorkerPool } from '../tools/schema-worker-pool.js';
import type { CallContent, CallOptions, CallToolResult, ToolCallContext } from '../tools/types.js';
import { errorResult, isReadOnly } from '../tools/types.js';
import {
  PROVENANCE_META_KEY,
  type ProvenanceMetaItem,
  type ProvenanceService,
} from '../provenance/provenance-service.js';
import type { CallFacts, TaintReport } from '../provenance/taint-check.js';
import type { CoreEvents } from '../platform/events.js';
import { CallsInFlight } from '../gateway/budgets.js';
import type { AgentToolCalls } from '../gateway/mcp-endpoint.js';
import type { WaitingApproval } from '../gateway/mcp-handlers/approval-url.js';
import type { Logger } from '../platform/log.js';
import type { SettingsStore } from '../platform/settings.js';
import { toMcpTool, withoutProvenance } from './agent-view.js';
import { recordCall } from './call-record.js';
import { effectOf } from './effect-text.js';

export interface CallPipelineDeps {
  registry: ToolRegistry;
  settings: SettingsStore;
  agents: AgentService;
  approvals: ApprovalEngine;
  grants: GrantService;
  activity: ActivityLog;
  /** Budgeted, off-thread validation: tool schemas may come from a hostile server (issue 17.3). */
  validator: SchemaWorkerPool;
  events: CoreEvents;
  logger: Logger;
  /** The taint check (issue 22); absent in tests that do not need it. */
  provenance?: ProvenanceService;
  /** The gateway's base URL once it listens (for approval links), or '' before. */
  baseUrl?: () => string;
  /** Overrides the web page link (the desktop app's deep link). */
  approvalLink?: (id: string) => string;
  /** Bounds on a source's reads before asking (ReadBounds); the defaults unless a test sets them. */
  readBounds?: ReadBounds;
}

/**
 * How long a source's reads before a call is asked may take: the checks and the call's content
 * (`checkMs`, main/tools/precheck.ts, default PRECHECK_MS) and the approval's effect text
 * (`effectMs`, effect-text.ts, default EFFECT_LOOKUP_MS). A test hook (AppOptions.readBounds):
 * a test of what a read shows passes bounds no read reaches, so a loaded machine cannot turn
 * the read into "slow, go without it" (issue 29 item 2).
 */
export interface ReadBounds {
  checkMs?: number;
  effectMs?: number;
}

/**
 * One tool call, end to end (docs/architecture.md "A tool call"): public name
 * → policy → (approval) → source → shaped result → activity log.
 */
export class CallPipeline implements AgentToolCalls {
  /** Each agent's calls in flight, capped at `limits.callsInFlightPerAgent` (budgets.ts). */
  readonly inFlight = new CallsInFlight();

  constructor(private readonly deps: CallPipelineDeps) {}

  /**
   * The approval view of one request on the web page (`#/approve/<id>`), for URL
   * elicitation. No token in it: the page uses the one its tab already holds.
   */
  approvalUrl(id: string): string | null {
    if (this.deps.approvalLink) return this.deps.approvalLink(id);
    const base = this.deps.baseUrl?.() ?? '';
    return base ? `${base}/#/approve/${encodeURIComponent(id)}` : null;
  }

  /** The request a "waiting for approval" answer names, with its approval view (AgentToolCalls). */
  waitingApproval(result: CallToolResult): WaitingApproval | null {
    const id = waitingApprovalId(result);
    const url = id ? this.approvalUrl(id) : null;
    return id && url ? { id, url } : null;
  }

  /** The tools this agent may see, as MCP `Tool` objects. */
  async listTools(agent: string): Promise<Tool[]> {
    await this.deps.registry.whenReady();
    const settings = this.deps.settings.get();
    const agentSettings = this.deps.agents.get(agent);
    const out: Tool[] = [];
    const offered: ToolEntry[] = [];
    for (const entry of this.deps.registry.entries()) {
      if (entry.def.unavailable || !resolvePolicy(settings, entry, agentSettings).enabled) continue;
      out.push(toMcpTool(entry));
      offered.push(entry);
    }
    // A third-party tool's description is content the model reads (docs/provenance.md).
    this.deps.provenance?.observeTools(
      agent,
      offered.map((e) => ({
        name: e.name,
        description: e.def.description,
        inputSchema: e.def.inputSchema,
        sourceKind: e.source.kind,
        sourceLabel: e.source.label,
      })),
    );
    return out;
  }

  /** The tool's declared task support as this agent is offered it (AgentToolCalls.taskSupport). */
  async taskSupport(
    agent: string,
    name: string,
  ): Promise<'forbidden' | 'optional' | 'required' | null> {
    await this.deps.registry.whenReady();
    const entry = this.deps.registry.get(name);
    if (!entry || entry.def.unavailable) return null;
    const policy = resolvePolicy(this.deps.settings.get(), entry, this.deps.agents.get(agent));
    return policy.enabled ? (entry.def.execution?.taskSupport ?? 'forbidden') : null;
  }

  async call(
    agent: string,
    name: string,
    args: unknown,
    opts: CallOptions,
  ): Promise<CallToolResult> {
    const started = performance.now();
    // Everyday calls await nothing before the source is called (issue 34): each await of an
    // already settled promise is microtask turns and promise hooks, for nothing.
    if (!this.deps.registry.ready) await this.deps.registry.whenReady();
    const entry = this.deps.registry.get(name);
    const settings = this.deps.settings.get();
    const policy = entry && resolvePolicy(settings, entry, this.deps.agents.get(agent));
    if (!entry) {
      const down = this.deps.registry.downSourceFor(name);
      if (down) {
        const why = down.status();
        return errorResult(
          `The server "${down.label}" is unavailable (${why.state === 'error' ? why.detail : 'still connecting'}); nothing was sent.`,
        );
      }
    }
    // Same answer for disabled and unknown: an agent learns nothing about tools it may not use.
    if (!entry || !policy?.enabled) return refused(`Unknown tool: ${name}`);
    if (entry.def.unavailable)
      // Never offered; a caller that knows the name gets the reason instead of an approval that cannot run.
      return refused(`${name} is not available through Airlock: it ${entry.def.unavailable}.`);
    const input = args ?? {};
    // A remote source only serializes the arguments it is given (remote-calls.ts), so their digest
    // can be made with the Activity row, after the answer is out (call-record.ts, issue 34); a
    // local tool's is made now, before the tool could touch them.
    const digest = entry.source.kind === 'remote' ? { late: input } : { made: argsDigest(input) };
    // The row of a call that does not run at once (rowLog); one that does is recorded below
    // without it. Made where a row is written, not for every call (issue 34, wave 3 session 32:
    // a closure, and the context its variables were kept in, on every call that ran at once).

    // The per-agent cap on calls in flight, taken before any work is done for the call and given
    // back in the `finally` below, whatever ends it (budgets.ts CallsInFlight). A refusal is a
    // tool error, as the other per-agent budgets on calls are: the model reads it and can wait.
    // After the tool is known, so an unknown tool's answer stays the same and the row names it.
    if (opts.admitted) this.inFlight.reenter(agent);
    else {
      const over = this.inFlight.enter(agent, settings.limits.callsInFlightPerAgent);
      if (over) {
        const result = errorResult(over);
        const log = rowLog(this.deps, agent, entry, digest, started);
        log('rejected', result, { outcome: 'not_run', decisionKind: 'budget' });
        return result;
      }
    }
    try {
      if (typeof input !== 'object' || Array.isArray(input)) {
        const result = errorResult('Arguments must be a JSON object.');
        rowLog(this.deps, agent, entry, digest, started)('rejected', result);
        return result;
      }
      let record = input as Record<string, unknown>;
      const schema = entry.def.inputSchema;
      const inline = this.deps.validator.validateInline(schema, record);
      const problem =
        (inline === undefined
          ? await this.deps.validator.validate(schema, record, agent)
          : inline) ??
        entry.source.validateArgs?.(entry.def.name, record) ??
        null;
      if (problem) {
        // A tool-execution error (not a protocol error) lets the model correct itself (MCP 2025-11-25, tools).
        const result = errorResult(`Invalid arguments for ${entry.name}: ${problem}`);
        rowLog(this.deps, agent, entry, digest, started)('rejected', result);
        return result;
      }

      // What the call sends beyond its arguments (a draft's recipients, attached files), read first
      // so the taint check and a grant judge what goes out (issue 33 item 2).
      const sends =
        isReadOnly(entry.def) || !mayHaveCallContent(entry)
          ? null
          : await callContentOf(entry, record, opts.signal, this.deps.readBounds?.checkMs);
      // The version the read found becomes part of the call (CallContent.bind): the grant, the
      // approval (its card and its stored arguments) and the run all hold to it.
      if (sends?.bind) record = { ...sends.bind, ...record };

      // Issue 22: does the call carry a stranger's destination, or the user's private data out?
      // A flagged call always asks, whatever the policy, unless a grant was opted into them.
      const taint = this.deps.provenance?.check(agent, checkedCall(entry, record, sends)) ?? null;

      // A standing side effect (a filter that forwards or deletes future mail), or a call whose
      // reach the read above could not see, asks every time.
      const standing = entry.source.alwaysAsk?.(entry.def.name, record) ?? null;

      if (policy.approval === 'auto' && !taint && !standing) {
        // One literal (issue 34); an absent relay or task status is undefined, which sources read
        // as none (ToolCallContext).
        const result = await this.execute(entry, record, {
          agent,
          signal: opts.signal,
          progress: opts.progress,
          startedAt: started,
          relay: opts.relay,
          taskStatus: opts.taskStatus,
        });
        // The row as `log` writes it, without its call (issue 34: every everyday call).
        recordCall(this.deps, {
          agent,
          tool: entry.name,
          decision: 'auto',
          digest,
          started,
          result,
        });
        return result;
      }

      return await this.asked(
        agent,
        entry,
        record,
        opts,
        started,
        taint,
        standing,
        rowLog(this.deps, agent, entry, digest, started),
      );
    } finally {
      this.inFlight.leave(agent);
    }
  }

  /**
   * A call that does not run at once: a grant's, or one asked about (or refused before asking).
   * Its own method, not the tail of `call` (issue 34): a suspended async function keeps a slot for
   * every register of its body, so an everyday call's frame is smaller without this part in it.
   */
  private async asked(
    agent: string,
    entry: ToolEntry,
    record: Record<string, unknown>,
    opts: CallOptions,
    started: number,
    taint: TaintReport | null,
    standing: string | null,
    log: CallLog,
  ): Promise<CallToolResult> {
    // A standing grant the user made for this agent, tool and (optionally) these arguments.
    const grant = standing ? null : this.deps.grants.match(agent, entry.key, record);
    if (grant && (!taint || grant.includeTainted)) {
      const result = await this.execute(entry, record, {
        agent,
        signal: opts.signal,
        progress: opts.progress,
        startedAt: started,
        // The call's relay, as on the auto path: a server's requests during a granted call reach
        // its agent request (or task) rather than being refused for want of one.
        ...(opts.relay ? { relay: opts.relay } : {}),
        ...(opts.taskStatus ? { taskStatus: opts.taskStatus } : {}),
      });
      log('grant', result, { decisionKind: 'grant', grantId: grant.id });
      return result;
    }

    // Never ask about a call the source can already tell will fail (issue 33 item 4).
    const refusal = await precheckOf(entry, record, opts.signal, this.deps.readBounds?.checkMs);
    if (refusal) {
      const result = errorResult(refusal);
      log('rejected', result);
      return result;
    }

    const outcome: AskOutcome = await this.deps.approvals.ask({
      agent,
      toolKey: entry.key,
      tool: entry.name,
      args: record,
      effect: () => effectOf(entry, record, this.deps.readBounds?.effectMs),
      ...(taint ? { taint } : {}),
      signal: opts.signal,
      progress: opts.progress,
      ...(opts.relay ? { relay: opts.relay } : {}),
      // A task's call (only tasks.ts gives taskStatus): no waiting ticks (engine-types.ts quiet).
      ...(opts.taskStatus ? { quiet: true } : {}),
      ...(opts.noWait ? { noWait: true } : {}),
      ...(opts.withdrawOnCancel ? { withdrawOnCancel: true } : {}),
    });
    // A request owns its Activity row and moves it along itself; only calls refused before one
    // existed (paused) are logged here.
    if (!outcome.approvalId)
      log(outcome.decision, outcome.result, { outcome: 'not_run', decisionKind: 'paused' });
    return outcome.result;
  }

  /** Runs a call on its source; used for auto calls and by the approval engine. */
  async execute(
    entry: ToolEntry,
    args: Record<string, unknown>,
    ctx: ToolCallContext,
  ): Promise<CallToolResult> {
    let result: CallToolResult;
    try {
      result = withPublicLinks(await entry.source.call(entry.def.name, args, ctx), entry.source);
    } catch (err) {
      this.deps.logger.warn('tool call failed', {
        tool: entry.name,
        error: err instanceof Error ? err.message : String(err),
      });
      result = errorResult(
        `${entry.name} failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const shaped = capText(result, this.deps.settings.get().limits.resultChars);
    // What the agent now has read: indexed off the answer path (docs/provenance.md).
    this.deps.provenance?.observe({
      agent: ctx.agent,
      tool: entry.name,
      sourceKind: entry.source.kind,
      sourceLabel: entry.source.label,
      result: shaped,
    });
    // withoutProvenance's own first test, here: a result no source described (every remote one)
    // is the agent's as it is, without the call (issue 34).
    return shaped._meta && PROVENANCE_META_KEY in shaped._meta ? withoutProvenance(shaped) : shaped;
  }
}

/** Writes a call's Activity row (call-record.ts), with what `call` knows of it. */
type CallLog = (
  decision: ActivityView['decision'],
  result: CallToolResult | null,
  extra?: Partial<ActivityView>,
) => void;

/**
 * The Activity row writer of a call that does not run at once (call-pipeline's `call`, `asked`).
 * The closure `call` made for every call, made where a row is written (issue 34, wave 3 session
 * 32). No `extra` (every call that runs at once): no empty object to spread (issue 34).
 */
function rowLog(
  deps: CallPipelineDeps,
  agent: string,
  entry: ToolEntry,
  digest: Parameters<typeof recordCall>[1]['digest'],
  started: number,
): CallLog {
  // The entry's name read when the row is written, as the closure in `call` read it.
  return (decision, result, extra) =>
    recordCall(
      deps,
      extra === undefined
        ? { agent, tool: entry.name, decision, digest, started, result }
        : { agent, tool: entry.name, decision, digest, started, result, ...extra },
    );
}

/**
 * Refuses a tool the agent may not call as the SDK's protocol error. The SDK is imported here, not
 * at the top: it loads with the first /mcp request, not at start (issue 20;
 * main/app/lazy-start.test.ts), and is in the module cache by now.
 */
async function refused(message: string): Promise<never> {
  const { ProtocolError, ProtocolErrorCode } = await import('@modelcontextprotocol/server');
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

/**
 * What the taint check judges of a call (CallFacts). The members the call's content adds are set
 * only when present, in the order the spreads of conditional objects had set them, without an
 * empty object made for each absent one (issue 34: every call builds this).
 */
export function checkedCall(
  entry: ToolEntry,
  record: Record<string, unknown>,
  sends: CallContent | null,
): CallFacts {
  const facts: CallFacts = {
    tool: entry.name,
    sourceKind: entry.source.kind,
    sourceLabel: entry.source.label,
    readOnly: isReadOnly(entry.def),
    args: sends?.args ?? record,
    schema: entry.def.inputSchema,
  };
  if (!sends) return facts;
  if (sends.carried?.length) facts.carried = [...sends.carried] as unknown as ProvenanceMetaItem[];
  if (sends.refs?.length) facts.refs = [...sends.refs];
  if (sends.forwards) facts.forwards = true;
  if (sends.selects) facts.selects = { ...sends.selects };
  if (sends.shows) facts.shows = { ...sends.shows };
  if (sends.effect) facts.effect = sends.effect;
  return facts;
}
