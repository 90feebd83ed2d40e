import { homedir } from 'node:os';
import type { ClientsApi } from '../../common/contract/index.js';
import { AgentService, newToken } from '../agents/agent-service.js';
import { clientsEnvFrom, type ClientsEnv } from '../clients/client-defs.js';
import { ApprovalEngine } from '../approvals/engine.js';
import { LooseningGate } from '../gateway/loosening-gate.js';
import { GrantService } from '../approvals/grants.js';
import { toolInfoOf } from '../approvals/tool-info.js';
import { GrantStore } from '../store/grant-store.js';
import { KnownParties } from '../provenance/known-parties.js';
import { ProvenanceService } from '../provenance/provenance-service.js';
import { KnownPartyStore } from '../store/known-party-store.js';
import { ControlRoutes } from '../gateway/control-routes.js';
import { ControlSocket, controlSocketPath } from '../gateway/control-socket.js';
import { Gateway } from '../gateway/http-server.js';
import { DEFAULT_UI_DIR } from '../gateway/static-files.js';
import { ActivityLog } from '../store/activity.js';
import { ApprovalStore } from '../store/approval-store.js';
import { openDatabase, type Db } from '../store/db.js';
import { AgentBudgets } from '../gateway/budgets.js';
import { PolicyChanges } from '../gateway/policy-changes.js';
import { ToolRegistry } from '../tools/registry.js';
import { SchemaWorkerPool } from '../tools/schema-worker-pool.js';
import { pinAskingRemoteTools } from '../tools/hint-baseline.js';
import { StatusSource } from '../tools/status-source.js';
import type { CallToolResult, ToolSource } from '../tools/types.js';
import { SelectedVault, type VaultChoice } from '../platform/vault/select.js';
import type { Vault } from '../platform/vault/vault.js';
import { CallPipeline } from './call-pipeline.js';
import { LazyMcpEndpoint } from './lazy-mcp.js';
import { loadProtocolRuntime } from '../tools/protocol-runtime.js';
import { FeatureHub } from './feature-hub.js';
import { ControlService } from './control-service.js';
import { CoreEvents } from '../platform/events.js';
import { InstanceLock } from '../platform/instance.js';
import { Logger } from '../platform/log.js';
import { dataPaths, tightenDataDir, type DataPaths } from '../platform/paths.js';
import { SettingsStore } from '../platform/settings.js';
import { appVersion } from '../platform/version.js';
import { policyFingerprint, resolvePolicy } from '../approvals/policy.js';
import { RemoteLoader } from '../remote/remote-loader.js';
import type { RemoteManager } from '../remote/remote-manager.js';
import type { RemoteTimings } from '../remote/remote-source.js';
import { GoogleService, type GoogleHooks } from '../google/google-service.js';
import { createCalendarSource } from '../google/calendar/calendar-source.js';
import { createGmailSource } from '../google/gmail/index.js';

export interface AppOptions {
  dataDir: string;
  /** Overrides the port in settings; 0 picks a free port. */
  port?: number;
  /** Test hook: a vault other than the OS keychain. */
  vault?: Vault;
  /** `--vault keychain|file|auto` (issue 19); default AIRLOCK_VAULT, then auto. */
  vaultChoice?: VaultChoice;
  /** Test hook: extra tool sources. */
  sources?: ToolSource[];
  logger?: Logger;
  uiDir?: string;
  /** Test hook: shorter approval timings etc. are set through settings; this only skips the instance lock. */
  skipLock?: boolean;
  /** Test hook: shorter remote-server timeouts and backoff. */
  remoteTimings?: Partial<RemoteTimings>;
  /** Google accounts (issue 5): browser opener from the shell; test hooks (consent deadline, endpoint env). */
  google?: GoogleHooks;
  /** Test hook: where the MCP clients' config files are (a temp home); default: this user's. */
  clientsEnv?: ClientsEnv;
  /** Test hook: the user's own addresses, as connected Google accounts would give them (issue 22). */
  ownAddresses?: string[];
  /**
   * Where loosening asked for from outside confirms (issue 17.7): 'window' when the
   * desktop shell runs (only IPC confirms), 'page' headless (Airlock's own page). Default 'page'.
   */
  policyConfirm?: 'window' | 'page';
  /**
   * The link a URL elicitation points at for one approval request (issue 16 item 1). The desktop
   * app passes its deep link (`airlock://approval/<id>`); headless, the web page `#/approve/<id>`.
   */
  approvalLink?: (id: string) => string;
}

export interface Started {
  port: number;
  url: string;
  mcpUrl: string;
  /** Opens the approval page; carries the control token in the fragment (never sent to a server or logged). */
  controlUrl: string;
}

const CONTROL_TOKEN_KEY = 'control-token';
/** How long a request outlives a cancelled call, waiting for the client's retry (issue 16 item 6). */
const CANCEL_GRACE_MS = 2 * 60_000;

/**
 * The composition root (docs/architecture.md "Layers"): builds every service,
 * starts them in order and stops them in reverse. Runs in plain Node; the
 * Electron shell and `airlock serve` both drive it.
 */
export class App {
  readonly paths: DataPaths;
  readonly logger: Logger;
  readonly events = new CoreEvents();
  readonly settings: SettingsStore;
  readonly vault: Vault;
  readonly registry = new ToolRegistry();
  readonly version = appVersion();
  control!: ControlService;
  agents!: AgentService;
  private db: Db | null = null;
  private approvals: ApprovalEngine | null = null;
  private activity: ActivityLog | null = null;
  private gateway: Gateway | null = null;
  private mcp: LazyMcpEndpoint | null = null;
  private socket: ControlSocket | null = null;
  private gate: LooseningGate | null = null;
  private schemaPool: SchemaWorkerPool | null = null;
  private readonly lock: InstanceLock;
  private startedInfo: Started | null = null;
  private offs: (() => void)[] = [];
  /** Remote MCP servers (issue 4), loaded when the profile has any or the user asks for them. */
  private remoteLoader: RemoteLoader | null = null;
  /** Google accounts and consent (issue 5); `google.accounts` is what Gmail/Calendar tools use. */
  readonly google: GoogleService;

  constructor(private readonly options: AppOptions) {
    this.paths = dataPaths(options.dataDir);
    this.logger = options.logger ?? new Logger({ dir: this.paths.logs });
    this.settings = new SettingsStore(this.paths.settings);
    this.vault =
      options.vault ??
      new SelectedVault({
        dataDir: this.paths.dir,
        ...(options.vaultChoice ? { choice: options.vaultChoice } : {}),
        onFallback: (message) => this.logger.warn(message),
      });
    this.google = new GoogleService({
      settings: this.settings,
      vault: this.vault,
      events: this.events,
      logger: this.logger,
      ...(options.google ? { hooks: options.google } : {}),
    });
    this.lock = new InstanceLock(this.paths.lock, this.paths.serverInfo);
  }

  get started(): Started | null {
    return this.startedInfo;
  }

  async start(): Promise<Started> {
    if (!this.options.skipLock) this.lock.acquire();
    try {
      return await this.startServices();
    } catch (err) {
      await this.stop().catch(() => {});
      throw err;
    }
  }

  private async startServices(): Promise<Started> {
    const { logger, settings, events, registry } = this;
    tightenDataDir(this.paths.dir);
    // No separate vault.check() first: reading the control token proves the vault usable (a value),
    // or the vault checks itself before answering "none" (Vault.get). One Secret Service write and
    // one blocking keyring entry fewer on every start (issue 20: 15–110 ms here).
    const controlToken = await this.controlToken();
    this.db = openDatabase(this.paths.database);
    // Issue 17.3: untrusted schemas are evaluated off the main thread, within a budget.
    const schemaPool = (this.schemaPool = new SchemaWorkerPool());
    const activity = new ActivityLog(this.db, {
      onChange: (a, kind) =>
        events.emit({
          type: kind === 'added' ? 'activity.added' : 'activity.updated',
          activity: a,
        }),
    });
    this.activity = activity;
    this.agents = new AgentService(settings, this.vault, logger);
    await this.agents.load();

    const provenance = this.startProvenance(this.db);
    let mcpUrl = '';
    const approvalStore = new ApprovalStore(this.db);
    const budgets = new AgentBudgets();
    const agents = this.agents;
    const grants = new GrantService({
      store: new GrantStore(this.db),
      activity,
      fingerprint: (agent, key) => {
        const e = registry.getByKey(key);
        return e ? policyFingerprint(settings.get(), e, agents.get(agent)) : null;
      },
      changed: () => events.emit({ type: 'state.changed' }),
    });
    const approvals: ApprovalEngine = new ApprovalEngine({
      store: approvalStore,
      admit: (agent, args) => budgets.admitPending(agent, args, approvalStore.pendingUsage(agent)),
      events,
      activity,
      grants,
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
        // Upstream sampling/elicitation during an approved call goes to the agent's open request, if any.
        const relay = this.mcp?.relayFor(row.agent);
        return pipeline.execute(entry, args, relay ? { ...ctx, relay } : ctx);
      },
      toolInfo: (key) => {
        const e = registry.getByKey(key);
        return e && toolInfoOf(e);
      },
      validate: (key, args) => {
        const e = registry.getByKey(key);
        return e ? schemaPool.validate(e.def.inputSchema, args) : 'the tool is no longer available';
      },
      isPaused: () => settings.get().paused,
    });
    this.approvals = approvals;
    const pipeline: CallPipeline = new CallPipeline({
      registry,
      settings,
      agents: this.agents,
      approvals,
      grants,
      activity,
      validator: schemaPool,
      events,
      logger,
      baseUrl: () => (mcpUrl ? new URL(mcpUrl).origin : ''),
      provenance,
      ...(this.options.approvalLink ? { approvalLink: this.options.approvalLink } : {}),
    });
    const features = new FeatureHub({
      registry,
      settings,
      activity,
      events,
      logger,
      agentTools: (agent) => this.agents.get(agent)?.tools,
      resourcesChanged: () => this.mcp?.resourcesChanged(),
      promptsChanged: () => this.mcp?.promptsChanged(),
      provenance,
    });
    // Loaded by the first /mcp request, with the MCP server SDK (issue 20; lazy-mcp.ts).
    const maxBodyBytes = settings.get().limits.maxBodyBytes;
    this.mcp = new LazyMcpEndpoint(async () => {
      const [{ McpEndpoint }] = await Promise.all([
        import('../gateway/mcp-endpoint.js'),
        loadProtocolRuntime(),
      ]);
      return new McpEndpoint({
        pipeline,
        features,
        logger,
        version: this.version,
        maxBodyBytes,
        budgets,
      });
    });
    const mcp = this.mcp;
    const policyChanges = new PolicyChanges(events);
    this.control = new ControlService({
      version: this.version,
      dataDir: this.paths.dir,
      settings,
      registry,
      agents: this.agents,
      approvals,
      grants,
      activity,
      events,
      mcpUrl: () => mcpUrl,
      connectedAgents: () => mcp.connectedAgents(),
      vault: () => (this.vault instanceof SelectedVault ? this.vault.info() : null),
      google: this.google.control,
      remotes: this.remoteLoaderFor().control(),
      clients: () => (this.clientsControl ??= this.loadClients()),
      policyChanges,
    });
    // Issue 17.7: one gate for every control transport (HTTP and the local socket).
    this.gate = new LooseningGate({
      api: this.control,
      policyChanges,
      grant: (view, decision) => {
        const e = registry.get(view.tool);
        if (!e) throw new Error(`${view.tool} is no longer available.`);
        grants.create({
          agent: view.agent,
          toolKey: e.key,
          tool: view.tool,
          args: view.arguments,
          ...(decision.hours !== undefined ? { hours: decision.hours } : {}),
          ...(decision.until !== undefined ? { until: decision.until } : {}),
          ...(decision.constraint !== undefined ? { constraint: decision.constraint } : {}),
          approvalId: view.id,
        });
      },
    });

    // Issue 17.2: before any source's tools arrive, so no call sees a server-loosened tool.
    this.offs.push(
      registry.onToolsChanged(() => pinAskingRemoteTools(registry.entries(), settings)),
    );
    registry.add(new StatusSource((agent) => this.statusReport(agent)));
    // Google tools appear per connected account (an enum `account` argument) and follow account changes.
    const extra = this.options.sources ?? [];
    for (const builtin of [
      createGmailSource(this.google.accounts),
      createCalendarSource(this.google.accounts),
    ]) {
      // A test source with the same id stands in for the built-in one.
      if (!extra.some((s) => s.id === builtin.id)) registry.add(builtin);
    }
    for (const source of extra) registry.add(source);
    if (settings.get().remotes.length > 0) await this.remoteLoaderFor().load();
    this.offs.push(registry.onToolsChanged(() => mcp.toolsChanged()));
    this.offs.push(events.subscribe((e) => e.type === 'tools.changed' && mcp.toolsChanged()));
    approvals.start();
    // Issue 17.8: a revoked agent's sessions end and its waiting requests are withdrawn.
    this.offs.push(
      this.agents.onRevoked((name) => {
        approvals.withdrawAgent(name);
        mcp.closeSessionsOf(name);
        provenance.forget(name);
      }),
    );

    this.gateway = new Gateway({
      mcp,
      control: new ControlRoutes({
        api: this.control,
        events,
        logger,
        controlToken,
        isAgentToken: (t) => this.agents.authenticate(t) !== null,
        gate: this.gate,
        confirmIn: this.options.policyConfirm ?? 'page',
      }),
      authenticateAgent: (t) => this.agents.authenticate(t),
      credentialOf: (t) => AgentService.credentialOf(t),
      logger,
      version: this.version,
      maxBodyBytes: () => settings.get().limits.maxBodyBytes,
      uiDir: this.options.uiDir ?? DEFAULT_UI_DIR,
    });
    const port = await this.gateway.start(this.options.port ?? settings.get().port);
    const url = `http://127.0.0.1:${port}`;
    mcpUrl = `${url}/mcp`;
    this.startedInfo = { port, url, mcpUrl, controlUrl: `${url}/#token=${controlToken}` };
    const controlSocket = this.options.skipLock
      ? null
      : await this.startControlSocket(controlToken);
    if (!this.options.skipLock)
      this.lock.publish({
        url,
        mcpUrl,
        pid: process.pid,
        version: this.version,
        startedAt: new Date().toISOString(),
        ...(controlSocket ? { controlSocket } : {}),
      });
    logger.info('airlock started', { mcpUrl, dataDir: this.paths.dir, version: this.version });
    return this.startedInfo;
  }

  /** Waits for the HTTP server to close, then the database; safe to call twice. */
  async stop(): Promise<void> {
    for (const off of this.offs.splice(0)) off();
    await this.socket?.stop();
    this.socket = null;
    await this.gateway?.stop();
    this.gateway = null;
    this.approvals?.stop();
    await this.schemaPool?.close();
    this.activity?.close();
    this.activity = null;
    this.google.stop();
    await this.remoteLoader?.stop();
    this.remoteLoader = null;
    for (const s of this.registry.listSources()) await this.registry.remove(s.id);
    this.db?.close();
    this.db = null;
    this.lock.release();
    this.startedInfo = null;
  }

  private clientsControl: Promise<ClientsApi> | undefined;

  /** The clients' config files (issue 15); jsonc-parser and the TOML parser load only when asked. */
  private async loadClients(): Promise<ClientsApi> {
    const { ClientsControl } = await import('../clients/clients-control.js');
    const settings = this.settings;
    return new ClientsControl({
      env: this.options.clientsEnv ?? clientsEnvFrom(process.env, homedir(), process.platform),
      logger: this.logger,
      // The configured port: the CLI's own core may run on a spare one, `airlock serve` uses this.
      mcpUrl: () => `http://127.0.0.1:${settings.get().port}/mcp`,
      listServers: () => this.control.listRemotes(),
      addServer: (input) => this.control.addRemote(input),
      agentToken: async (agent, create) => {
        if (this.agents.get(agent)) return this.agents.token(agent);
        if (!create) return null;
        const { token } = await this.agents.add(agent);
        this.events.emit({ type: 'state.changed' });
        return token;
      },
    });
  }

  /** The remote-server manager once loaded (tests and the status tool read it). */
  get remotes(): RemoteManager | null {
    return this.remoteLoader?.manager ?? null;
  }

  private remoteLoaderFor(): RemoteLoader {
    this.remoteLoader ??= new RemoteLoader(
      {
        settings: this.settings,
        vault: this.vault,
        registry: this.registry,
        logger: this.logger,
        events: this.events,
        version: this.version,
        ...(this.options.remoteTimings ? { timings: this.options.remoteTimings } : {}),
      },
      {
        settings: this.settings,
        vault: this.vault,
        events: this.events,
        version: this.version,
        // The shell's browser opener serves remote-server sign-ins (issue 10) as well as Google consent.
        ...(this.options.google?.openBrowser
          ? { openBrowser: this.options.google.openBrowser }
          : {}),
      },
    );
    return this.remoteLoader;
  }

  /** The CLI's keychain-free way in (issue 19); without it the CLI falls back to HTTP + token. */
  /**
   * The taint check (issue 22, docs/provenance.md): the user's circle is their Google accounts
   * (and organisation domain) plus every destination they approved a call to, kept in the
   * database; approvals the user gives teach it.
   */
  private startProvenance(db: Db): ProvenanceService {
    const store = new KnownPartyStore(db);
    const known = new KnownParties((kind, value) => store.add(kind, value));
    for (const k of store.all()) known.seed(k.kind, k.value);
    const provenance = new ProvenanceService({ known });
    const own = () => {
      for (const a of this.google.accounts.accounts()) known.addOwnAccount(a.email);
      for (const a of this.options.ownAddresses ?? []) known.addOwnAccount(a);
    };
    own();
    this.offs.push(this.google.accounts.onChange(own));
    this.offs.push(
      this.events.subscribe((e) => {
        // Learned once the user said yes (learning twice is a no-op).
        if (e.type !== 'approval.updated' || e.approval.state === 'pending') return;
        if (e.approval.decisionKind !== 'once' && e.approval.decisionKind !== 'edited') return;
        provenance.learnFrom(e.approval.editedArguments ?? e.approval.arguments);
      }),
    );
    return provenance;
  }

  private async startControlSocket(controlToken: string): Promise<string | null> {
    const socket = new ControlSocket({
      api: this.control,
      logger: this.logger,
      controlToken,
      ...(this.gate ? { gate: this.gate } : {}),
    });
    try {
      const path = await socket.start(controlSocketPath(this.paths.dir));
      this.socket = socket;
      return path;
    } catch (err) {
      this.logger.warn('control socket not started; the CLI will use HTTP and the vault', {
        error: err instanceof Error ? err.message : String(err),
      });
      return null;
    }
  }

  private async controlToken(): Promise<string> {
    let token = await this.vault.get(CONTROL_TOKEN_KEY);
    if (!token) {
      token = newToken('alc');
      await this.vault.set(CONTROL_TOKEN_KEY, token);
    }
    this.logger.registerSecret(token);
    return token;
  }

  private statusReport(agent: string) {
    const settings = this.settings.get();
    const agentSettings = this.agents.get(agent);
    const visible = this.registry
      .entries()
      .map((e) => ({ e, p: resolvePolicy(settings, e, agentSettings) }))
      .filter((x) => x.p.enabled);
    return {
      version: this.version,
      paused: settings.paused,
      accounts: this.google.statusAccounts(),
      servers: this.registry
        .listSources()
        .filter((s) => s.kind === 'remote')
        .map((s) => {
          const st = s.status();
          return {
            name: s.label,
            state: st.state,
            ...(st.state === 'error' ? { detail: st.detail } : {}),
            tools: s.tools().length,
          };
        }),
      tools: {
        total: visible.length,
        needApproval: visible.filter((x) => x.p.approval === 'ask').map((x) => x.e.name),
      },
    };
  }
}

/** Reads the control token of a profile (for the CLI talking to a running server). */
export async function readControlToken(vault: Vault): Promise<string | null> {
  return vault.get(CONTROL_TOKEN_KEY);
}
