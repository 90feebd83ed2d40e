import type {
  ActivityFilter,
  AgentView,
  ApprovalView,
  ControlApi,
  Decision,
  GrantView,
  NewAgent,
  PolicyChangeView,
  SettingsPatch,
  SettingsView,
  StatusView,
  ToolPolicyPatch,
  ToolRef,
  ToolView,
} from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import { resolvePolicy } from '../approvals/policy.js';
import type { RemoteControl } from '../remote/remote-control.js';
import type {
  RemoteInput,
  RemotePatch,
  RemoteProbeResult,
  RemoteView,
} from '../../common/contract/index.js';
import type {
  RemoteLoginOptions,
  RemoteLoginStart,
  RemoteLoginView,
  RemoteLogoutResult,
} from '../../common/contract/index.js';
import type { GoogleControl } from '../google/google-control.js';
import type {
  ClientId,
  ClientsApi,
  ClientView,
  ConnectOptions,
  ConnectResult,
  ImportOptions,
  ImportResult,
} from '../../common/contract/index.js';
import type {
  GoogleAccountView,
  GoogleClientInput,
  GoogleClientView,
  GoogleConnectOptions,
  GoogleConnectStart,
  GoogleConnectView,
  GoogleDisconnectResult,
  VaultView,
} from '../../common/contract/index.js';
import { AgentsControl } from './agents-control.js';
import { ApprovalsControl } from './approvals-control.js';
import type { ControlServiceDeps } from './control-deps.js';
import { ToolsControl } from './tools-control.js';

export type { ControlServiceDeps } from './control-deps.js';

const vaultField = (v: VaultView | null) => (v ? { vault: v } : {});

/** The core's implementation of ControlApi; every transport calls into this. */
export class ControlService implements ControlApi {
  private readonly approvals: ApprovalsControl;
  private readonly tools: ToolsControl;
  private readonly agents: AgentsControl;

  constructor(private readonly d: ControlServiceDeps) {
    this.approvals = new ApprovalsControl(d);
    this.tools = new ToolsControl(d);
    this.agents = new AgentsControl(d);
  }

  async getStatus(): Promise<StatusView> {
    const settings = this.d.settings.get();
    const entries = this.d.registry.entries();
    const policies = entries.map((e) => resolvePolicy(settings, e, undefined));
    return {
      version: this.d.version,
      running: true,
      mcpUrl: this.d.mcpUrl(),
      dataDir: this.d.dataDir,
      paused: settings.paused,
      agentsConnected: this.d.connectedAgents().size,
      pendingApprovals: this.d.approvals.listPending().length,
      tools: {
        total: policies.filter((p) => p.enabled).length,
        needApproval: policies.filter((p) => p.enabled && p.approval === 'ask').length,
      },
      sources: this.d.registry.listSources().map((s) => {
        const st = s.status();
        return {
          id: s.id,
          kind: s.kind,
          label: s.label,
          state: st.state,
          ...(st.state === 'error' ? { detail: st.detail } : {}),
          toolCount: s.tools().length,
        };
      }),
      ...vaultField(this.d.vault?.() ?? null),
    };
  }

  async setPaused(paused: boolean): Promise<StatusView> {
    if (typeof paused !== 'boolean')
      throw new ControlError('INVALID', '"paused" must be true or false.');
    this.d.settings.update((s) => void (s.paused = paused));
    this.d.events.emit({ type: 'state.changed' });
    return this.getStatus();
  }

  listPending(): Promise<ApprovalView[]> {
    return this.approvals.listPending();
  }
  getApproval(id: string): Promise<ApprovalView> {
    return this.approvals.getApproval(id);
  }
  decide(id: string, decision: Decision): Promise<ApprovalView> {
    return this.approvals.decide(id, decision);
  }
  listGrants(filter?: { agent?: string; includeInactive?: boolean }): Promise<GrantView[]> {
    return this.approvals.listGrants(filter);
  }
  revokeGrant(id: string): Promise<GrantView> {
    return this.approvals.revokeGrant(id);
  }

  listTools(agent?: string): Promise<ToolView[]> {
    return this.tools.listTools(agent);
  }
  setToolPolicy(name: string, patch: ToolPolicyPatch): Promise<ToolView> {
    return this.tools.setToolPolicy(name, patch);
  }
  listPolicyChanges(): Promise<PolicyChangeView[]> {
    return this.tools.listPolicyChanges();
  }
  decidePolicyChange(id: string, confirm: boolean): Promise<PolicyChangeView> {
    return this.tools.decidePolicyChange(id, confirm);
  }
  waitPolicyChange(id: string): Promise<PolicyChangeView> {
    return this.tools.waitPolicyChange(id);
  }

  listAgents(): Promise<AgentView[]> {
    return this.agents.listAgents();
  }
  addAgent(name: string): Promise<NewAgent> {
    return this.agents.addAgent(name);
  }
  revokeAgent(name: string): Promise<void> {
    return this.agents.revokeAgent(name);
  }
  setAgentTools(name: string, tools: (string | ToolRef)[] | null): Promise<AgentView> {
    return this.agents.setAgentTools(name, tools);
  }

  async listActivity(filter?: ActivityFilter) {
    return this.d.activity.list(filter ?? {});
  }

  async getSettings(): Promise<SettingsView> {
    const s = this.d.settings.get();
    return {
      port: s.port,
      approvals: {
        waitSeconds: s.approvals.waitSeconds,
        expireMinutes: s.approvals.expireMinutes,
        outcomeWindowMinutes: s.approvals.outcomeWindowMinutes,
      },
      resultChars: s.limits.resultChars,
    };
  }

  async updateSettings(patch: SettingsPatch): Promise<SettingsView> {
    try {
      this.d.settings.update((s) => {
        if (patch.waitSeconds !== undefined) s.approvals.waitSeconds = patch.waitSeconds;
        if (patch.expireMinutes !== undefined) s.approvals.expireMinutes = patch.expireMinutes;
        if (patch.outcomeWindowMinutes !== undefined)
          s.approvals.outcomeWindowMinutes = patch.outcomeWindowMinutes;
        if (patch.resultChars !== undefined) s.limits.resultChars = patch.resultChars;
      });
    } catch (err) {
      throw new ControlError('INVALID', err instanceof Error ? err.message : String(err));
    }
    this.d.events.emit({ type: 'state.changed' });
    return this.getSettings();
  }

  async listRemotes(): Promise<RemoteView[]> {
    return this.remotes().listRemotes();
  }
  async addRemote(input: RemoteInput): Promise<RemoteView> {
    return this.remotes().addRemote(input);
  }
  async updateRemote(name: string, patch: RemotePatch): Promise<RemoteView> {
    return this.remotes().updateRemote(name, patch);
  }
  async removeRemote(name: string): Promise<void> {
    return this.remotes().removeRemote(name);
  }
  async refreshRemote(name?: string): Promise<RemoteView[]> {
    return this.remotes().refreshRemote(name);
  }
  async testRemote(input: Omit<RemoteInput, 'name'>): Promise<RemoteProbeResult> {
    return this.remotes().testRemote(input);
  }
  loginRemote(name: string, options?: RemoteLoginOptions): Promise<RemoteLoginStart> {
    return this.remotes().loginRemote(name, options);
  }
  waitRemoteLogin(flowId: string, waitMs?: number): Promise<RemoteLoginView> {
    return this.remotes().waitRemoteLogin(flowId, waitMs);
  }
  cancelRemoteLogin(flowId: string): Promise<RemoteLoginView> {
    return this.remotes().cancelRemoteLogin(flowId);
  }
  logoutRemote(name: string): Promise<RemoteLogoutResult> {
    return this.remotes().logoutRemote(name);
  }

  async listClients(projectDir?: string): Promise<ClientView[]> {
    return (await this.clients()).listClients(projectDir);
  }
  async importClients(options?: ImportOptions): Promise<ImportResult> {
    return (await this.clients()).importClients(options);
  }
  async connectClient(client: ClientId, options?: ConnectOptions): Promise<ConnectResult> {
    return (await this.clients()).connectClient(client, options);
  }

  getGoogleClient(): Promise<GoogleClientView | null> {
    return this.google().getGoogleClient();
  }
  setGoogleClient(input: GoogleClientInput): Promise<GoogleClientView> {
    return this.google().setGoogleClient(input);
  }
  listGoogleAccounts(): Promise<GoogleAccountView[]> {
    return this.google().listGoogleAccounts();
  }
  startGoogleConnect(options?: GoogleConnectOptions): Promise<GoogleConnectStart> {
    return this.google().startGoogleConnect(options);
  }
  waitGoogleConnect(flowId: string, waitMs?: number): Promise<GoogleConnectView> {
    return this.google().waitGoogleConnect(flowId, waitMs);
  }
  cancelGoogleConnect(flowId: string): Promise<GoogleConnectView> {
    return this.google().cancelGoogleConnect(flowId);
  }
  disconnectGoogle(email: string): Promise<GoogleDisconnectResult> {
    return this.google().disconnectGoogle(email);
  }
  setDefaultGoogleAccount(email: string): Promise<GoogleAccountView[]> {
    return this.google().setDefaultGoogleAccount(email);
  }

  private google(): GoogleControl {
    if (!this.d.google)
      throw new ControlError('INTERNAL', 'Google accounts are not available in this core.');
    return this.d.google;
  }

  private clients(): Promise<ClientsApi> {
    if (!this.d.clients)
      throw new ControlError('INTERNAL', 'Client configuration is not available in this core.');
    return this.d.clients();
  }

  private remotes(): RemoteControl {
    if (!this.d.remotes)
      throw new ControlError('INTERNAL', 'Remote servers are not available in this core.');
    return this.d.remotes;
  }
}
