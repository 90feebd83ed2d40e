import type { ClientsApi } from '../../common/contract/index.js';
import { AgentService } from '../agents/agent-service.js';
import type { ApprovalEngine } from '../approvals/engine.js';
import type { LooseningGate } from '../gateway/loosening-gate.js';
import type { ServerLoosening } from '../gateway/loosening.js';
import { ControlRoutes } from '../gateway/control-routes.js';
import type { ControlSocket } from '../gateway/control-socket.js';
import { OpenCodes } from '../gateway/control-open-codes.js';
import { Gateway } from '../gateway/http-server.js';
import { DEFAULT_UI_DIR } from '../gateway/static-files.js';
import { ActivityLog } from '../store/activity.js';
import { openDatabase, type Db } from '../store/db.js';
import { PolicyChanges } from '../gateway/policy-changes.js';
import { ToolRegistry } from '../tools/registry.js';
import { SchemaWorkerPool } from '../tools/schema-worker-pool.js';
import { pinAskingRemoteTools } from '../tools/hint-baseline.js';
import { SelectedVault } from '../platform/vault/select.js';
import type { Vault } from '../platform/vault/vault.js';
import type { LazyMcpEndpoint } from '../gateway/lazy-mcp.js';
import { ControlService } from './control-service.js';
import { CoreEvents } from '../platform/events.js';
import { InstanceLock } from '../platform/instance.js';
import { Logger } from '../platform/log.js';
import { dataPaths, tightenDataDir, type DataPaths } from '../platform/paths.js';
import { SettingsStore } from '../platform/settings.js';
import { appVersion } from '../platform/version.js';
import type { RemoteLoader } from '../remote/remote-loader.js';
import type { RemoteManager } from '../remote/remote-manager.js';
import { GoogleService } from '../google/google-service.js';
import type { AppOptions, Started } from './app-options.js';
import { newCallPath } from './call-path-wiring.js';
import { loadClients } from './clients-wiring.js';
import { loadControlToken, newLooseningGate, startControlSocket } from './control-access.js';
import { startProvenance } from './provenance-wiring.js';
import { newRemoteLoader } from './remote-wiring.js';
import { serverLooseningOf } from './server-loosening.js';
import { statusReport } from './status-report.js';
import { addToolSources } from './tool-sources.js';

export type { AppOptions, Started } from './app-options.js';
export { readControlToken } from './control-access.js';

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
  /** `airlock open`'s codes: minted over the control socket, redeemed by the page's route. */
  private readonly openCodes = new OpenCodes();
  private gate: LooseningGate | null = null;
  /**
   * Untrusted schemas are evaluated off the main thread, within a budget (issue 17.3): a tool's
   * input schema against an agent's arguments, and a remote tool's output schema against its
   * result. Made here, before anything that takes it is built; workers start only when needed.
   */
  private readonly schemaPool: SchemaWorkerPool;
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
        onFallback: (message, keychainError) => {
          this.logger.warn(message);
          this.logger.debug('why the OS keychain is not used', { error: keychainError });
        },
      });
    this.google = new GoogleService({
      settings: this.settings,
      vault: this.vault,
      events: this.events,
      logger: this.logger,
      ...(options.google ? { hooks: options.google } : {}),
    });
    this.lock = new InstanceLock(this.paths.lock, this.paths.serverInfo);
    this.schemaPool = new SchemaWorkerPool(options.schemaPool);
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
    // A start after a stop gets a fresh remote loader; the stopped one stays in place until here,
    // so a control call that arrives after the stop is refused instead of starting every server
    // again (remote-loader.ts).
    this.remoteLoader = null;
    tightenDataDir(this.paths.dir);
    // No separate vault.check() first: reading the control token proves the vault usable (a value),
    // or the vault checks itself before answering "none" (Vault.get). One Secret Service write and
    // one blocking keyring entry fewer on every start (issue 20: 15–110 ms here).
    // Issue 34 (cold start): the keychain answers in 60–90 ms on a first start, most of it waiting on
    // the Secret Service, not CPU; the database, the call path and the tool sources are set up
    // meanwhile. The token is awaited before anything reaches out (remote servers connect, the
    // gateway listens), so a locked vault still stops the start before any of that.
    const tokenLoad = loadControlToken(this.vault, logger);
    tokenLoad.catch(() => {}); // awaited below; a synchronous throw before then must not leave it unhandled
    this.db = openDatabase(this.paths.database);
    const schemaPool = this.schemaPool;
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

    const provenance = startProvenance(
      this,
      this.options,
      this.db,
      this.offs,
      (tool) => registry.get(tool)?.def.inputSchema,
      (tool, args) => {
        const entry = registry.get(tool);
        // A third party's own account of its call is not trusted (as callContent).
        if (!entry || entry.source.kind === 'remote') return undefined;
        return entry.source.argsReach?.(entry.def.name, args)?.args;
      },
    );
    let mcpUrl = '';
    const agents = this.agents;
    const { grants, approvals, mcp } = newCallPath({
      db: this.db,
      registry,
      settings,
      agents,
      activity,
      events,
      logger,
      schemaPool,
      provenance,
      version: this.version,
      mcpUrl: () => mcpUrl,
      approvalLink: this.options.approvalLink,
      readBounds: this.options.readBounds,
      loneCalls: this.options.loneCalls,
    });
    this.approvals = approvals;
    this.mcp = mcp;
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
      clients: () => (this.clientsControl ??= loadClients(this, this.options)),
      policyChanges,
    });
    // Issue 17.7: one gate for every control transport (HTTP and the local socket).
    this.gate = newLooseningGate({
      api: this.control,
      policyChanges,
      registry,
      grants,
      approvals,
      servers: this.serverLoosening,
    });

    // Issue 17.2: before any source's tools arrive, so no call sees a server-loosened tool.
    this.offs.push(
      registry.onToolsChanged(() => pinAskingRemoteTools(registry.entries(), settings)),
    );
    addToolSources(registry, this.google, this.options.sources ?? [], (agent) =>
      statusReport(this, agent),
    );
    const controlToken = await tokenLoad;
    if (settings.get().remotes.length > 0) await this.remoteLoaderFor().load();
    this.offs.push(registry.onToolsChanged(() => mcp.toolsChanged()));
    this.offs.push(events.subscribe((e) => e.type === 'tools.changed' && mcp.toolsChanged()));
    approvals.start();
    // Every change, not only onToolsChanged: an account or server change alters what a call runs
    // (runFingerprint) without changing the public tool list; refreshPending sends only what changed.
    // A failure here must not keep the registry's later listeners (tools/list_changed) from running.
    this.offs.push(
      registry.onChange(() => {
        try {
          approvals.refreshPending();
        } catch (err) {
          logger.warn('pending requests could not be refreshed', { error: String(err) });
        }
      }),
    );
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
        openCodes: this.openCodes,
      }),
      // The methods themselves, not arrows around them: one function fewer each on every
      // request's path (issue 34, docs/performance.md "The code one call runs, counted").
      // `agents` is this start's service, as `this.agents` is until the next start.
      authenticateAgent: agents.authenticate.bind(agents),
      credentialOf: AgentService.credentialOf,
      logger,
      version: this.version,
      maxBodyBytes: () => settings.get().limits.maxBodyBytes,
      uiDir: this.options.uiDir ?? DEFAULT_UI_DIR,
    });
    const port = await this.gateway.start(this.options.port ?? settings.get().port);
    const url = `http://127.0.0.1:${port}`;
    mcpUrl = `${url}/mcp`;
    this.startedInfo = { port, url, mcpUrl, controlUrl: `${url}/#token=${controlToken}` };
    const started = this.options.skipLock
      ? null
      : await startControlSocket({
          api: this.control,
          logger: this.logger,
          controlToken,
          gate: this.gate,
          dataDir: this.paths.dir,
          openCodes: this.openCodes,
        });
    this.socket = started?.socket ?? null;
    const controlSocket = started?.path ?? null;
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
    await this.schemaPool.close();
    this.activity?.close();
    this.activity = null;
    this.google.stop();
    // A remote server's stop that fails is logged, not thrown: the database must still close and
    // the instance lock still be released, or the next start would find both held.
    try {
      await this.remoteLoader?.stop();
    } catch (err) {
      this.logger.warn('remote servers did not stop cleanly', { error: String(err) });
    }
    // The sources left (built-in ones) stop side by side; one failing does not keep the rest.
    const sources = this.registry.listSources();
    const removed = await Promise.allSettled(sources.map((s) => this.registry.remove(s.id)));
    removed.forEach((r, i) => {
      if (r.status === 'rejected')
        this.logger.warn('tool source did not stop cleanly', {
          source: sources[i]!.id,
          error: String(r.reason),
        });
    });
    this.db?.close();
    this.db = null;
    this.lock.release();
    this.startedInfo = null;
  }

  private clientsControl: Promise<ClientsApi> | undefined;

  /** Issue 17.7: how much a server change loosens, for the gate and the CLI (server-loosening.ts). */
  readonly serverLoosening: ServerLoosening = serverLooseningOf(
    () => this.settings.get(),
    () => this.remoteLoaderFor(),
  );

  /** The remote-server manager once loaded (tests and the status tool read it). */
  get remotes(): RemoteManager | null {
    return this.remoteLoader?.manager ?? null;
  }

  private remoteLoaderFor(): RemoteLoader {
    this.remoteLoader ??= newRemoteLoader(this, this.options, this.schemaPool);
    return this.remoteLoader;
  }
}
