import type { ActivityApi } from './activity.js';
import type { AgentsApi } from './agents.js';
import type { ApprovalsApi } from './approvals.js';
import type { ClientsApi } from './clients.js';
import type { CoreEvent } from './events.js';
import type { GoogleApi } from './google.js';
import type { PolicyApi } from './policy.js';
import type { ServersApi } from './servers.js';
import type { SettingsApi, StatusApi } from './status.js';
import type { ToolsApi } from './tools.js';

/** The whole contract: one interface per domain, joined. */
export interface ControlApi
  extends
    StatusApi,
    ApprovalsApi,
    ToolsApi,
    AgentsApi,
    ActivityApi,
    SettingsApi,
    ServersApi,
    ClientsApi,
    GoogleApi,
    PolicyApi {}

export type ControlMethod = keyof ControlApi;

/**
 * What the Electron preload exposes as `window.airlock`: ControlApi plus the
 * IPC counterpart of `GET /api/events`. The renderer uses it when present and
 * falls back to the HTTP transport otherwise (renderer/src/lib/transport.ts).
 */
export interface ControlBridge extends ControlApi {
  /** Calls `listener` for every core event until the returned function is called. */
  onEvent(listener: (event: CoreEvent) => void): () => void;
}

/**
 * Every method, once. A `Record` over ControlMethod, so the contract and this list cannot
 * drift: a method added to an interface above and missing here, or a name here that is no
 * method, fails to typecheck (issue 31) — before it could silently vanish from IPC, HTTP, the
 * control socket and the CLI.
 */
const METHODS = {
  getStatus: true,
  setPaused: true,
  listPending: true,
  getApproval: true,
  decide: true,
  listGrants: true,
  revokeGrant: true,
  listTools: true,
  setToolPolicy: true,
  listAgents: true,
  addAgent: true,
  revokeAgent: true,
  setAgentTools: true,
  listActivity: true,
  getSettings: true,
  updateSettings: true,
  listRemotes: true,
  addRemote: true,
  updateRemote: true,
  removeRemote: true,
  refreshRemote: true,
  testRemote: true,
  getGoogleClient: true,
  setGoogleClient: true,
  listGoogleAccounts: true,
  startGoogleConnect: true,
  waitGoogleConnect: true,
  cancelGoogleConnect: true,
  disconnectGoogle: true,
  setDefaultGoogleAccount: true,
  loginRemote: true,
  waitRemoteLogin: true,
  cancelRemoteLogin: true,
  logoutRemote: true,
  listClients: true,
  importClients: true,
  connectClient: true,
  listPolicyChanges: true,
  decidePolicyChange: true,
  waitPolicyChange: true,
} satisfies Record<ControlMethod, true>;

/** Every method name, for transports that must check a name arrived from outside. */
export const CONTROL_METHODS: readonly ControlMethod[] = Object.keys(METHODS) as ControlMethod[];
