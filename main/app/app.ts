import { AgentService, newToken } from '../agents/agent-service.js';
import { ApprovalEngine } from '../approvals/engine.js';
import { ControlRoutes } from '../gateway/control-routes.js';
import { Gateway } from '../gateway/http-server.js';
import { McpEndpoint } from '../gateway/mcp-endpoint.js';
import { DEFAULT_UI_DIR } from '../gateway/static-files.js';
import { ActivityLog } from '../store/activity.js';
import { ApprovalStore } from '../store/approval-store.js';
import { openDatabase, type Db } from '../store/db.js';
import { ToolRegistry } from '../tools/registry.js';
import { SchemaValidator } from '../tools/schema-validator.js';
import { StatusSource } from '../tools/status-source.js';
import type { CallToolResult, ToolSource } from '../tools/types.js';
import { KeyringVault } from '../platform/vault/keyring-vault.js';
import type { Vault } from '../platform/vault/vault.js';
import { CallPipeline } from './call-pipeline.js';
import { FeatureHub } from './feature-hub.js';
import { ControlService } from './control-service.js';
import { CoreEvents } from '../platform/events.js';
import { InstanceLock } from '../platform/instance.js';
import { Logger } from '../platform/log.js';
import { dataPaths, type DataPaths } from '../platform/paths.js';
import { SettingsStore } from '../platform/settings.js';
import { appVersion } from '../platform/version.js';
import { resolvePolicy } from '../approvals/policy.js';
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
}

export interface Started {
  port: number;
  url: string;
  mcpUrl: string;
  /** Opens the approval page; carries the control token in the fragment (never sent to a server or logged). */
  controlUrl: string;
}

const CONTROL_TOKEN_KEY = 'control-token';

/**
 * The composition root (DESIGN "Runtimes and layout"): builds every service,
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
  private gateway: Gateway | null = null;
  private mcp: McpEndpoint | null = null;
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
    this.vault = options.vault ?? new KeyringVault({ dataDir: this.paths.dir });
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
    await this.vault.check();
    const controlToken = await this.controlToken();
    this.db = openDatabase(this.paths.database);
    const activity = new ActivityLog(this.db);
    const validator = new SchemaValidator();
    this.agents = new AgentService(settings, this.vault, logger);
    await this.agents.load();

    let mcpUrl = '';
    const approvals: ApprovalEngine = new ApprovalEngine({
      store: new ApprovalStore(this.db),
      events,
      timings: () => {
        const a = settings.get().approvals;
        return {
          waitMs: a.waitSeconds * 1000,
          expireMs: a.expireMinutes * 60_000,
          outcomeWindowMs: a.outcomeWindowMinutes * 60_000,
          progressIntervalMs: a.progressIntervalSeconds * 1000,
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
        return (
          e && {
            name: e.name,
            inputSchema: e.def.inputSchema,
            ...(e.def.title ? { title: e.def.title } : {}),
          }
        );
      },
      validate: (key, args) => {
        const e = registry.getByKey(key);
        return e ? validator.validate(e.def.inputSchema, args) : 'the tool is no longer available';
      },
      grant: (agent, key, until) => this.control.grant(agent, key, until),
      isPaused: () => settings.get().paused,
    });
    this.approvals = approvals;
    const pipeline: CallPipeline = new CallPipeline({
      registry,
      settings,
      agents: this.agents,
      approvals,
      activity,
      validator,
      events,
      logger,
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
    });
    this.mcp = new McpEndpoint({
      pipeline,
      features,
      logger,
      version: this.version,
      maxBodyBytes: settings.get().limits.maxBodyBytes,
    });
    const mcp = this.mcp;
    this.control = new ControlService({
      version: this.version,
      dataDir: this.paths.dir,
      settings,
      registry,
      agents: this.agents,
      approvals,
      activity,
      events,
      mcpUrl: () => mcpUrl,
      connectedAgents: () => mcp.connectedAgents(),
      google: this.google.control,
      remotes: this.remoteLoaderFor().control(),
    });

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

    this.gateway = new Gateway({
      mcp,
      control: new ControlRoutes({
        api: this.control,
        events,
        logger,
        controlToken,
        isAgentToken: (t) => this.agents.authenticate(t) !== null,
      }),
      authenticateAgent: (t) => this.agents.authenticate(t),
      logger,
      version: this.version,
      maxBodyBytes: () => settings.get().limits.maxBodyBytes,
      uiDir: this.options.uiDir ?? DEFAULT_UI_DIR,
    });
    const port = await this.gateway.start(this.options.port ?? settings.get().port);
    const url = `http://127.0.0.1:${port}`;
    mcpUrl = `${url}/mcp`;
    this.startedInfo = { port, url, mcpUrl, controlUrl: `${url}/#token=${controlToken}` };
    if (!this.options.skipLock)
      this.lock.publish({
        url,
        mcpUrl,
        pid: process.pid,
        version: this.version,
        startedAt: new Date().toISOString(),
      });
    logger.info('airlock started', { mcpUrl, dataDir: this.paths.dir, version: this.version });
    return this.startedInfo;
  }

  /** Waits for the HTTP server to close, then the database; safe to call twice. */
  async stop(): Promise<void> {
    for (const off of this.offs.splice(0)) off();
    await this.gateway?.stop();
    this.gateway = null;
    this.approvals?.stop();
    this.google.stop();
    await this.remoteLoader?.stop();
    this.remoteLoader = null;
    for (const s of this.registry.listSources()) await this.registry.remove(s.id);
    this.db?.close();
    this.db = null;
    this.lock.release();
    this.startedInfo = null;
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
