import type { CoreEvents } from '../platform/events.js';
import type { Logger } from '../platform/log.js';
import type { SettingsStore } from '../platform/settings.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { SchemaWorkerPool } from '../tools/schema-worker-pool.js';
import type { Vault } from '../platform/vault/vault.js';
import { RemoteSource, type RemoteTimings } from './remote-source.js';
import { connectionOf, readSecrets, secretValues } from './secrets.js';
import { joinUrlSecrets, urlSecretValues } from '../platform/url-secrets.js';
import { RemoteLogins } from './oauth/logins.js';
import { OAuthSession } from './oauth/session.js';
import { OAuthStore } from './oauth/store.js';
import { isStdio, StdioServers } from './stdio/stdio-config.js';
import { moveUrlSecrets } from './url-control.js';
import type { SandboxHost } from './stdio/sandbox/host-facts.js';
import { SandboxLauncher } from './stdio/sandbox/launcher.js';
import type { Resolver } from './http/address-guard.js';
import { AddressPin } from './http/address-pin.js';
import type { RemoteSettings } from '../platform/settings.js';

interface Live {
  source: RemoteSource;
  off: () => void;
  /** In the registry yet? A server added at run time joins once its first attempt is over. */
  registered: boolean;
}

export interface RemoteManagerDeps {
  settings: SettingsStore;
  vault: Vault;
  registry: ToolRegistry;
  logger: Logger;
  events: CoreEvents;
  version: string;
  /** Issue 35: this machine's facts for the local servers' sandbox. */
  sandbox: SandboxHost;
  /** Test hook: shorter connect timeouts and backoff. */
  timings?: Partial<RemoteTimings>;
  /** Checks tool results against their output schemas: the pool that checks arguments too. */
  schemaChecks: SchemaWorkerPool;
  /**
   * The resolver connections and sign-ins connect by (remote/http/address-guard.ts): tests make a
   * name resolve to loopback with it. The system's by default.
   */
  resolve?: Resolver;
}

/**
 * Keeps one RemoteSource per enabled connection in settings, in the
 * registry (issue 4, "Hot reload"): `sync(name)` after any change adds,
 * reconfigures or removes that server's source without a restart. Changes
 * are applied one at a time, so a quick add-then-edit cannot interleave.
 */
export class RemoteManager {
  private readonly live = new Map<string, Live>();
  /** OAuth sign-in state per server name (issue 10); kept while the server exists, enabled or not. */
  private readonly sessions = new Map<string, OAuthSession>();
  /** Where each server named by a host name was first reached (address-pin.ts), per URL. */
  private readonly pins = new Map<string, { url: string; pin: AddressPin }>();
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * Set when stop() is called, before its turn in the queue: a sync, refresh or sign-in queued
   * behind the stop (a settings change or a finished OAuth sign-in while Airlock shuts down)
   * would otherwise start a server again after its end, a process nobody stops.
   */
  private stopped = false;
  /** Running OAuth sign-ins; a completed one reconnects its server. */
  readonly logins: RemoteLogins;
  /** Local (stdio) servers' launch and process logs (issue 15). */
  readonly stdio: StdioServers;

  constructor(private readonly d: RemoteManagerDeps) {
    this.stdio = new StdioServers(
      d.vault,
      d.logger,
      new SandboxLauncher(d.sandbox, d.logger),
      d.timings?.connectMs,
    );
    this.logins = new RemoteLogins({
      events: d.events,
      logger: d.logger,
      ...(d.resolve ? { resolve: d.resolve } : {}),
      onSignedIn: (name) => this.signedIn(name),
    });
  }

  /**
   * Creates every enabled server's source and registers it at once, so the
   * registry's start-up readiness gate (bounded) covers them; connections
   * proceed in the background.
   */
  async start(): Promise<void> {
    await moveUrlSecrets(this.d);
    for (const r of this.d.settings.get().remotes)
      await this.serial(() => this.apply(r.name, { register: 'now' }));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.logins.stop();
    await this.serial(async () => {
      const entries = [...this.live];
      this.live.clear();
      // All at once: each local server's own end (SIGTERM, grace, SIGKILL, wait for its group) runs
      // side by side, so stopping takes as long as the slowest server, not the sum. One failing
      // must not keep the others running.
      const dropped = await Promise.allSettled(entries.map(([, entry]) => this.drop(entry)));
      dropped.forEach((r, i) => {
        if (r.status === 'rejected')
          this.d.logger.warn('remote server did not stop cleanly', {
            server: entries[i]![0],
            error: String(r.reason),
          });
      });
      // A safety net for any straggler's process group (each server's, side by side too); the
      // sandboxes' proxies close whatever it met.
      try {
        await this.stdio.endAll();
      } finally {
        await this.stdio.closeSandboxes();
      }
    });
  }

  get(name: string): RemoteSource | undefined {
    return this.live.get(name)?.source;
  }

  /**
   * The OAuth session of a configured server, created (and its vault record
   * loaded) on first use. Servers with a static bearer token have none.
   */
  async session(name: string): Promise<OAuthSession | undefined> {
    const cfg = this.d.settings.get().remotes.find((r) => r.name === name);
    if (!cfg || cfg.hasToken || cfg.stdio) return undefined;
    // The URL the sign-in, its discovery (RFC 9728 derives the metadata's address from the path),
    // the resource indicator (RFC 8707), refresh and revocation act on: settings' URL with its
    // vault values put back, as the connection's is (docs/security.md, "No credentials of a server URL").
    const url = await this.actingUrl(cfg);
    let s = this.sessions.get(name);
    if (!s) {
      const store = new OAuthStore(this.d.vault, name, (v) => this.d.logger.registerSecret(v));
      s = new OAuthSession({
        store,
        serverUrl: url,
        logger: this.d.logger,
        ...(this.d.resolve ? { resolve: this.d.resolve } : {}),
        pin: this.pinFor(cfg),
        onChange: () => this.d.events.emit({ type: 'state.changed' }),
      });
      this.sessions.set(name, s);
    }
    // A record bound to the masked URL (signed in before the session got the real one) is the
    // same server: kept, and bound to the real URL.
    await s.load(url, cfg.url, this.pinFor(cfg));
    return s;
  }

  /**
   * The server's pin (address-pin.ts): one per server and URL, shared by its connection, its
   * agents' sessions, its token refreshes and its sign-ins, so what one of them learns binds
   * them all. A new URL (settings cleared `reach` with it) starts a new one. Its first successful
   * connection's class is written to settings — to the entry with this URL only, so a URL edited
   * meanwhile is not given the old one's class.
   */
  pinFor(cfg: RemoteSettings): AddressPin {
    const kept = this.pins.get(cfg.name);
    if (kept && kept.url === cfg.url) return kept.pin;
    const pin = new AddressPin(cfg.reach, (reach) => {
      try {
        this.d.settings.update((s) => {
          const r = s.remotes.find((x) => x.name === cfg.name && x.url === cfg.url);
          if (r && r.reach === undefined) r.reach = reach;
        });
        this.d.logger.info('remote server address class recorded', { server: cfg.name, reach });
      } catch (err) {
        // Not kept this time (settings not writable): the pin holds for this run, and the next
        // run records it again at its first connection.
        this.d.logger.warn('could not record where a remote server was reached', {
          server: cfg.name,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    });
    this.pins.set(cfg.name, { url: cfg.url, pin });
    return pin;
  }

  /**
   * A configured server's URL as the things that act on it need it: the masked URL of settings
   * with its credentials from the vault put back (url-secrets.ts). Views show `cfg.url`. The
   * values are registered with the logger's redaction first.
   */
  async actingUrl(cfg: RemoteSettings): Promise<string> {
    const { query } = await readSecrets(this.d.vault, cfg.name);
    for (const v of urlSecretValues(query)) this.d.logger.registerSecret(v);
    return joinUrlSecrets(cfg.url, query);
  }

  /** The session if it exists already (for synchronous views). */
  peekSession(name: string): OAuthSession | undefined {
    return this.sessions.get(name);
  }

  /** Forgets a removed server's session (its vault entry is deleted by the caller). */
  forgetSession(name: string): void {
    this.sessions.delete(name);
    this.pins.delete(name);
  }

  /**
   * Brings the live source of `name` in line with settings. With `wait`, resolves
   * once its connection attempt has finished (bounded by the connect timeout).
   */
  async sync(name: string, o: { wait?: boolean } = {}): Promise<void> {
    // Wrapped so the queue does not wait for the connection itself (a returned promise would be adopted).
    const { attempt } = await this.serial(() => this.apply(name, { register: 'when-settled' }));
    if (o.wait !== false) await attempt;
  }

  /** Reconnects one server, or all, and waits for the attempts to finish. */
  async refresh(name?: string): Promise<void> {
    if (this.stopped) return;
    const targets =
      name === undefined
        ? [...this.live.values()]
        : [this.live.get(name)].filter((x) => x !== undefined);
    await Promise.all(targets.map((t) => t.source.reconnect()));
  }

  /** Waits (bounded) for sources that are still on their first attempt. */
  async whenSettled(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.live.values()].map((l) => l.source.settled())),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
  }

  /** Returns the connection attempt it started, if any. */
  private async apply(
    name: string,
    o: { register: 'now' | 'when-settled' },
  ): Promise<{ attempt: Promise<void> }> {
    if (this.stopped) return { attempt: Promise.resolve() };
    const cfg = this.d.settings.get().remotes.find((r) => r.name === name);
    const current = this.live.get(name);
    if (!cfg || !cfg.enabled) {
      if (current) {
        this.live.delete(name);
        await this.drop(current);
        // A local server may have a process still starting (an attempt the source could not reach).
        await this.stdio.end(name);
        this.d.logger.info('remote server removed', { server: name });
      }
      return { attempt: Promise.resolve() };
    }
    const conn = isStdio(cfg) ? await this.stdio.connection(cfg) : await this.urlConnection(cfg);
    if (current) return { attempt: current.source.reconfigure(conn) };
    const source = new RemoteSource(conn, {
      logger: this.d.logger,
      version: this.d.version,
      relayAllowed: () =>
        this.d.settings.get().remotes.find((r) => r.name === name)?.relay !== false,
      ...(this.d.timings ? { timings: this.d.timings } : {}),
      schemaChecks: this.d.schemaChecks,
      ...(this.d.resolve ? { resolve: this.d.resolve } : {}),
    });
    const entry: Live = {
      source,
      off: source.onChange(() => this.d.events.emit({ type: 'state.changed' })),
      registered: false,
    };
    this.live.set(name, entry);
    source.start();
    const register = () => {
      if (this.live.get(name) !== entry || entry.registered) return;
      entry.registered = true;
      this.d.registry.add(source);
    };
    if (o.register === 'now') {
      register();
      return { attempt: source.settled() };
    }
    // Added at run time: the current tool set stays as it is until this server's first attempt is over
    // (issue 4, "Hot reload"), so a slow new server never holds up tools/list.
    return { attempt: source.settled().then(register) };
  }

  private async urlConnection(cfg: RemoteSettings) {
    const secrets = await readSecrets(this.d.vault, cfg.name);
    for (const v of secretValues(secrets)) this.d.logger.registerSecret(v);
    const auth = await this.session(cfg.name);
    return { ...connectionOf(cfg, secrets), ...(auth ? { auth } : {}), pin: this.pinFor(cfg) };
  }

  /** A sign-in saved new tokens: clear the "sign-in required" state and reconnect now. */
  private async signedIn(name: string): Promise<void> {
    this.sessions.get(name)?.signedIn();
    await this.refresh(name);
  }

  private async drop(entry: Live): Promise<void> {
    entry.off();
    if (!entry.registered) return entry.source.stop();
    try {
      await this.d.registry.remove(entry.source.id);
    } catch (err) {
      // The registry may fail before it reached the source's stop (a change listener threw). A
      // source left running would take the SIGKILL of StdioServers.end/endAll for a crash and
      // start its server again (ServerConnection.fail); stopping twice is harmless.
      await entry.source.stop();
      throw err;
    }
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => {});
    return run;
  }
}
