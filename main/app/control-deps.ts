import type { ClientsApi, VaultView } from '../../common/contract/index.js';
import type { AgentService } from '../agents/agent-service.js';
import type { ApprovalEngine } from '../approvals/engine.js';
import type { GrantService } from '../approvals/grants.js';
import type { PolicyChanges } from '../gateway/policy-changes.js';
import type { GoogleControl } from '../google/google-control.js';
import type { CoreEvents } from '../platform/events.js';
import type { SettingsStore } from '../platform/settings.js';
import type { RemoteControl } from '../remote/remote-control.js';
import type { ActivityLog } from '../store/activity.js';
import type { ToolRegistry } from '../tools/registry.js';

/** What ControlService and the domain controls it delegates to are built from. */
export interface ControlServiceDeps {
  version: string;
  dataDir: string;
  settings: SettingsStore;
  registry: ToolRegistry;
  agents: AgentService;
  approvals: ApprovalEngine;
  grants: GrantService;
  activity: ActivityLog;
  events: CoreEvents;
  mcpUrl: () => string;
  connectedAgents: () => Set<string>;
  /** Which vault holds the secrets (issue 19); null before the first vault operation. */
  vault?: () => VaultView | null;
  /** Remote MCP servers (issue 4); absent in cores built without them. */
  remotes?: RemoteControl;
  /** Google accounts (issue 5); absent in cores built without them. */
  google?: GoogleControl;
  /** The MCP clients' config files (issue 15), loaded on first use. */
  clients?: () => Promise<ClientsApi>;
  /** Loosening changes waiting for the window (issue 17.7). */
  policyChanges?: PolicyChanges;
}
