import type { AgentService } from '../agents/agent-service.js';
import type { ApprovalEngine } from '../approvals/engine.js';
import type { GrantService } from '../approvals/grants.js';
import { AgentBudgets } from '../gateway/budgets.js';
import type { CoreEvents } from '../platform/events.js';
import type { Logger } from '../platform/log.js';
import type { SettingsStore } from '../platform/settings.js';
import type { ProvenanceService } from '../provenance/provenance-service.js';
import type { ActivityLog } from '../store/activity.js';
import { ApprovalStore } from '../store/approval-store.js';
import type { Db } from '../store/db.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { SchemaWorkerPool } from '../tools/schema-worker-pool.js';
import { newApprovalEngine, newGrantService } from './approvals-wiring.js';
import { CallPipeline, type ReadBounds } from '../calls/call-pipeline.js';
import { FeatureHub } from '../calls/feature-hub.js';
import { lazyMcpEndpoint, type LazyMcpEndpoint } from '../gateway/lazy-mcp.js';

/** What an agent's requests go through, from /mcp to the sources, with the approvals between. */
export interface CallPath {
  grants: GrantService;
  approvals: ApprovalEngine;
  mcp: LazyMcpEndpoint;
}

/**
 * The call path (docs/architecture.md "A tool call"): grants, the approval engine, the
 * CallPipeline, the FeatureHub and the lazily loaded /mcp endpoint, wired to one another.
 */
export function newCallPath(o: {
  db: Db;
  registry: ToolRegistry;
  settings: SettingsStore;
  agents: AgentService;
  activity: ActivityLog;
  events: CoreEvents;
  logger: Logger;
  schemaPool: SchemaWorkerPool;
  provenance: ProvenanceService;
  version: string;
  /** The gateway's /mcp URL once it listens, or '' before. */
  mcpUrl: () => string;
  approvalLink?: ((id: string) => string) | undefined;
  readBounds?: ReadBounds | undefined;
  loneCalls?: boolean | undefined;
}): CallPath {
  const { registry, settings, agents, activity, events, logger, schemaPool, provenance } = o;
  // Set last: the closures below reach /mcp only once it exists (before, nothing listens).
  let mcp: LazyMcpEndpoint | null = null;
  const approvalStore = new ApprovalStore(o.db);
  const budgets = new AgentBudgets();
  const grants = newGrantService({ db: o.db, registry, settings, agents, activity, events });
  const approvals: ApprovalEngine = newApprovalEngine({
    store: approvalStore,
    budgets,
    events,
    activity,
    grants,
    registry,
    settings,
    schemaPool,
    run: (entry, row, args, ctx) => {
      // Upstream sampling/elicitation during an approved call goes to the relay of the call waiting
      // on it (approvals/engine.ts), else to the agent's open request, if any.
      const relay = ctx.relay ?? mcp?.relayFor(row.agent);
      return pipeline.execute(entry, args, relay ? { ...ctx, relay } : ctx);
    },
  });
  const pipeline: CallPipeline = new CallPipeline({
    registry,
    settings,
    agents,
    approvals,
    grants,
    activity,
    validator: schemaPool,
    events,
    logger,
    baseUrl: () => {
      const mcpUrl = o.mcpUrl();
      return mcpUrl ? new URL(mcpUrl).origin : '';
    },
    provenance,
    ...(o.approvalLink ? { approvalLink: o.approvalLink } : {}),
    ...(o.readBounds ? { readBounds: o.readBounds } : {}),
  });
  const features = new FeatureHub({
    registry,
    settings,
    activity,
    events,
    logger,
    agentTools: (agent) => agents.get(agent)?.tools,
    resourcesChanged: () => mcp?.resourcesChanged(),
    promptsChanged: () => mcp?.promptsChanged(),
    provenance,
  });
  // Loaded by the first /mcp request, with the MCP server SDK (issue 20; lazy-mcp.ts).
  const maxBodyBytes = settings.get().limits.maxBodyBytes;
  mcp = lazyMcpEndpoint({
    pipeline,
    features,
    logger,
    version: o.version,
    maxBodyBytes,
    budgets,
    ...(o.loneCalls === false ? { loneCalls: false } : {}),
    self: {
      origin: () => {
        const mcpUrl = o.mcpUrl();
        return mcpUrl ? new URL(mcpUrl).origin : '';
      },
    },
  });
  return { grants, approvals, mcp };
}
