import type { AgentService } from '../agents/agent-service.js';
import { ApprovalEngine } from '../approvals/engine.js';
import { GrantService } from '../approvals/grants.js';
import { policyFingerprint, runFingerprint, toolFingerprint } from '../approvals/policy.js';
import { toolInfoOf } from '../approvals/tool-info.js';
import type { AgentBudgets } from '../gateway/budgets.js';
import type { CoreEvents } from '../platform/events.js';
import type { SettingsStore } from '../platform/settings.js';
import type { ActivityLog } from '../store/activity.js';
import type { ApprovalRow, ApprovalStore } from '../store/approval-store.js';
import type { Db } from '../store/db.js';
import { GrantStore } from '../store/grant-store.js';
import type { ToolEntry, ToolRegistry } from '../tools/registry.js';
import type { SchemaWorkerPool } from '../tools/schema-worker-pool.js';
import type { CallToolResult, ToolCallContext } from '../tools/types.js';

/** How long a request outlives a cancelled call, waiting for the client's retry (issue 16 item 6). */
const CANCEL_GRACE_MS = 2 * 60_000;

/** Standing "always allow" grants, bound to the policy they were given under. */
export function newGrantService(o: {
  db: Db;
  registry: ToolRegistry;
  settings: SettingsStore;
  agents: AgentService;
  activity: ActivityLog;
  events: CoreEvents;
}): GrantService {
  const { registry, settings, agents, events } = o;
  return new GrantService({
    store: new GrantStore(o.db),
    activity: o.activity,
    fingerprint: (agent, key, form) => {
      const e = registry.getByKey(key);
      return e ? policyFingerprint(settings.get(), e, agents.get(agent), form) : null;
    },
    shape: (key) => {
      const e = registry.getByKey(key);
      return e?.source.grantShape?.(e.def.name);
    },
    changed: () => events.emit({ type: 'state.changed' }),
  });
}

/** The approval engine, with timings from settings and tools looked up by key when used. */
export function newApprovalEngine(o: {
  store: ApprovalStore;
  budgets: AgentBudgets;
  events: CoreEvents;
  activity: ActivityLog;
  grants: GrantService;
  registry: ToolRegistry;
  settings: SettingsStore;
  schemaPool: SchemaWorkerPool;
  /** Runs an approved call on the tool now registered under its key. */
  run: (
    entry: ToolEntry,
    row: ApprovalRow,
    args: Record<string, unknown>,
    ctx: ToolCallContext,
  ) => Promise<CallToolResult>;
}): ApprovalEngine {
  const { store: approvalStore, budgets, registry, settings, schemaPool } = o;
  return new ApprovalEngine({
    store: approvalStore,
    admit: (agent, args) => budgets.admitPending(agent, args, approvalStore.pendingUsage(agent)),
    events: o.events,
    activity: o.activity,
    grants: o.grants,
    timings: () => {
      const a = settings.get().approvals;
      return {
        waitMs: a.waitSeconds * 1000,
        expireMs: a.expireMinutes * 60_000,
        outcomeWindowMs: a.outcomeWindowMinutes * 60_000,
        progressIntervalMs: a.progressIntervalSeconds * 1000,
        cancelGraceMs: Math.min(CANCEL_GRACE_MS, a.expireMinutes * 60_000),
      };
    },
    execute: async (row, args, ctx): Promise<CallToolResult> => {
      const entry = registry.getByKey(row.toolKey);
      if (!entry)
        throw new Error(
          `${row.tool} is no longer available (its source was removed or is down); nothing was sent.`,
        );
      return o.run(entry, row, args, ctx);
    },
    toolInfo: (key) => {
      const e = registry.getByKey(key);
      return e && toolInfoOf(e);
    },
    // Edited arguments get the checks the agent's own arguments got (call-pipeline.ts): the schema,
    // then the tool's own parser (Gmail's composer, Calendar's guests), so an edit the tool would
    // refuse is refused while the request can still be edited again, not after it was approved.
    validate: async (key, args) => {
      const e = registry.getByKey(key);
      if (!e) return 'the tool is no longer available';
      return (
        (await schemaPool.validate(e.def.inputSchema, args)) ??
        e.source.validateArgs?.(e.def.name, args) ??
        null
      );
    },
    toolFingerprint: (key, form) => {
      const e = registry.getByKey(key);
      return e ? toolFingerprint(e, form) : null;
    },
    bound: (key) => {
      const e = registry.getByKey(key);
      return e && e.source.kind !== 'remote' ? e.source.boundArgs?.(e.def.name) : undefined;
    },
    runFingerprint: (key, args, form) => {
      const e = registry.getByKey(key);
      return e ? runFingerprint(e, args, form) : null;
    },
    isPaused: () => settings.get().paused,
  });
}
