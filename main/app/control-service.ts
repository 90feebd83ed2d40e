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
  ToolView,
} from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import type { AgentService } from '../agents/agent-service.js';
import { clientSetups } from '../agents/client-setup.js';
import type { ApprovalEngine } from '../approvals/engine.js';
import type { GrantService } from '../approvals/grants.js';
import {
  defaultApproval,
  needsDestructiveConfirmation,
  resolvePolicy,
} from '../approvals/policy.js';
import type { ActivityLog } from '../store/activity.js';
import type { PolicyChanges } from '../gateway/policy-changes.js';
import type { ToolEntry, ToolRegistry } from '../tools/registry.js';
import { isDestructive, isReadOnly } from '../tools/types.js';
import type { CoreEvents } from '../platform/events.js';
import type { SettingsStore } from '../platform/settings.js';
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

const vaultField = (v: VaultView | null) => (v ? { vault: v } : {});

/** The core's implementation of ControlApi; every transport calls into this. */
export class ControlService implements ControlApi {
  constructor(private readonly d: ControlServiceDeps) {}

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

  async listPending(): Promise<ApprovalView[]> {
    return this.d.approvals.listPending();
  }

  async getApproval(id: string): Promise<ApprovalView> {
    return this.d.approvals.get(id);
  }

  async decide(id: string, decision: Decision): Promise<ApprovalView> {
    if (
      !decision ||
      typeof decision !== 'object' ||
      !['deny', 'allow_once', 'allow_edited', 'always_allow'].includes(decision.kind)
    ) {
      throw new ControlError(
        'INVALID',
        'decision.kind must be deny, allow_once, allow_edited or always_allow.',
      );
    }
    return this.d.approvals.decide(id, decision);
  }

  async listGrants(filter?: { agent?: string; includeInactive?: boolean }): Promise<GrantView[]> {
    return this.d.grants.list(filter ?? {});
  }

  async revokeGrant(id: string): Promise<GrantView> {
    return this.d.grants.revoke(id);
  }

  async listTools(agent?: string): Promise<ToolView[]> {
    if (agent === null) agent = undefined;
    const agentSettings = agent === undefined ? undefined : this.d.agents.get(agent);
    if (agent !== undefined && !agentSettings)
      throw new ControlError('NOT_FOUND', `No agent named "${agent}".`);
    return this.d.registry.entries().map((e) => this.toolView(e, agent));
  }

  // Issue 17.7: policy changes asked for outside the window. Over HTTP, ControlRoutes decides
  // who may call decidePolicyChange; over IPC the caller is the window itself.
  async listPolicyChanges(): Promise<PolicyChangeView[]> {
    return this.d.policyChanges?.list() ?? [];
  }

  async decidePolicyChange(id: string, confirm: boolean): Promise<PolicyChangeView> {
    if (!this.d.policyChanges) throw new ControlError('NOT_FOUND', `No policy change ${id}.`);
    return this.d.policyChanges.decide(id, confirm === true);
  }

  async waitPolicyChange(id: string): Promise<PolicyChangeView> {
    if (!this.d.policyChanges) throw new ControlError('NOT_FOUND', `No policy change ${id}.`);
    return this.d.policyChanges.wait(id);
  }

  async setToolPolicy(name: string, patch: ToolPolicyPatch): Promise<ToolView> {
    const entry = this.d.registry.get(name);
    if (!entry)
      throw new ControlError(
        'NOT_FOUND',
        `No tool named "${name}". Run "airlock tools list" to see the names.`,
      );
    if (patch.approval !== undefined && patch.approval !== 'auto' && patch.approval !== 'ask') {
      throw new ControlError('INVALID', 'approval must be "auto" or "ask".');
    }
    if (patch.enabled !== undefined && typeof patch.enabled !== 'boolean')
      throw new ControlError('INVALID', 'enabled must be true or false.');
    if (needsDestructiveConfirmation(entry, patch.approval) && patch.confirmDestructive !== true) {
      throw new ControlError(
        'CONFIRM_REQUIRED',
        `${name} can send, change or delete things. Making it run without asking needs explicit confirmation (--confirm-destructive).`,
      );
    }
    const change = {
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      ...(patch.approval ? { approval: patch.approval } : {}),
    };
    if (patch.agent !== undefined) {
      this.d.agents.update(patch.agent, (a) => {
        a.overrides[entry.key] = { ...a.overrides[entry.key], ...change };
      });
      // Going back to "ask" also ends any standing "always allow" of this agent.
      if (patch.approval === 'ask') this.d.grants.revokeFor(patch.agent, entry.key);
    } else {
      this.d.settings.update((s) => {
        s.tools[entry.key] = { ...s.tools[entry.key], ...change };
      });
    }
    this.afterPolicyChange();
    return this.toolView(entry, patch.agent);
  }

  async listAgents(): Promise<AgentView[]> {
    const connected = this.d.connectedAgents();
    return this.d.agents.list((n) => connected.has(n));
  }

  async addAgent(name: string): Promise<NewAgent> {
    const { agent, token } = await this.d.agents.add(name);
    this.d.events.emit({ type: 'state.changed' });
    const mcpUrl = this.d.mcpUrl();
    return { agent, token, mcpUrl, setup: clientSetups(mcpUrl, token) };
  }

  async revokeAgent(name: string): Promise<void> {
    await this.d.agents.revoke(name);
    // Its grants and requests end with it: an agent added later under the same name starts
    // with none, and a pending request of the revoked agent can no longer be approved into running.
    this.d.grants.revokeFor(name, null);
    this.d.approvals.forgetAgent(name);
    this.d.events.emit({ type: 'state.changed' });
  }

  async setAgentTools(name: string, tools: string[] | null): Promise<AgentView> {
    if (tools !== null && (!Array.isArray(tools) || tools.some((t) => typeof t !== 'string'))) {
      throw new ControlError(
        'INVALID',
        'tools must be a list of tool names, or null for every tool.',
      );
    }
    const keys = tools?.map((tool) => {
      const entry = this.d.registry.get(tool);
      if (!entry)
        throw new ControlError(
          'NOT_FOUND',
          `No tool named "${tool}". Run "airlock tools list" to see the names.`,
        );
      return entry.key;
    });
    this.d.agents.update(name, (a) => {
      if (keys) a.tools = keys;
      else delete a.tools;
    });
    this.afterPolicyChange();
    return (await this.listAgents()).find((a) => a.name === name)!;
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

  private afterPolicyChange(): void {
    // Enabled flags change what tools/list shows: tell connected agents.
    this.d.registry.rebuild();
    this.d.events.emit({ type: 'tools.changed' });
  }

  /** The Tools page's "always allowed for <agent>": an active grant without an argument constraint. */
  private grantOf(entry: ToolEntry, agent?: string): { grantedUntil?: string | null } {
    if (agent === undefined) return {};
    const g = this.d.grants.openGrant(agent, entry.key);
    return g
      ? { grantedUntil: g.expiresAt === null ? null : new Date(g.expiresAt).toISOString() }
      : {};
  }

  private toolView(entry: ToolEntry, agent?: string): ToolView {
    const settings = this.d.settings.get();
    const agentSettings = agent === undefined ? undefined : this.d.agents.get(agent);
    const policy = resolvePolicy(settings, entry, agentSettings);
    const tool = settings.tools[entry.key];
    const override = agentSettings?.overrides[entry.key];
    return {
      name: entry.name,
      key: entry.key,
      source: entry.source.id,
      ...(entry.def.title ? { title: entry.def.title } : {}),
      description: entry.def.description,
      readOnly: isReadOnly(entry.def),
      destructive: isDestructive(entry.def),
      enabled: policy.enabled,
      approval: policy.approval,
      customized: Boolean(
        tool?.enabled === false ||
        (tool?.approval && tool.approval !== defaultApproval(entry)) ||
        override,
      ),
      inputSchema: entry.def.inputSchema,
      ...(entry.def.unavailable ? { unavailable: entry.def.unavailable } : {}),
      ...(agent !== undefined ? { agent } : {}),
      ...this.grantOf(entry, agent),
    };
  }
}
