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

/** Every method name, for transports that must check a name arrived from outside. */
export const CONTROL_METHODS: readonly ControlMethod[] = [
  'getStatus',
  'setPaused',
  'listPending',
  'getApproval',
  'decide',
  'listGrants',
  'revokeGrant',
  'listTools',
  'setToolPolicy',
  'listAgents',
  'addAgent',
  'revokeAgent',
  'setAgentTools',
  'listActivity',
  'getSettings',
  'updateSettings',
  'listRemotes',
  'addRemote',
  'updateRemote',
  'removeRemote',
  'refreshRemote',
  'testRemote',
  'getGoogleClient',
  'setGoogleClient',
  'listGoogleAccounts',
  'startGoogleConnect',
  'waitGoogleConnect',
  'cancelGoogleConnect',
  'disconnectGoogle',
  'setDefaultGoogleAccount',
  'loginRemote',
  'waitRemoteLogin',
  'cancelRemoteLogin',
  'logoutRemote',
  'listClients',
  'importClients',
  'connectClient',
  'listPolicyChanges',
  'decidePolicyChange',
  'waitPolicyChange',
] as const;
