import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { App, type Started } from '../main/app/app.js';
import { Logger, type LogLevel } from '../main/platform/log.js';
import type { RemoteTimings } from '../main/remote/remote-source.js';
import type { Resolver } from '../main/remote/http/address-guard.js';
import { MemoryVault } from '../main/platform/vault/vault.js';
import type { ClientsEnv } from '../main/clients/client-defs.js';
import type { SandboxHost } from '../main/remote/stdio/sandbox/host-facts.js';
import type { SchemaWorkerPoolOptions } from '../main/tools/schema-worker-pool.js';
import { PATIENT_SCHEMA_CHECKS, watchGetStream } from './harness.js';
import { tempDir } from './temp-dir.js';

/** A bound no test waits for: past any test's timeout. */
export const NEVER_MS = 10 * 60_000;

/**
 * Remote-server timings for tests (issue 29 item 2): a restarted upstream is back within half a
 * second (short backoff and health interval), while no bound a working server could trip on a
 * slow machine ever runs out (connect, list, ready, health). A test about a bound passes a short
 * one (`timings`) for a server that never answers, the only thing that can trip it.
 */
export const FAST_REMOTE: Partial<RemoteTimings> = {
  connectMs: NEVER_MS,
  listMs: NEVER_MS,
  readyMs: NEVER_MS,
  healthMs: NEVER_MS,
  callIdleMs: NEVER_MS,
  healthIntervalMs: 500,
  backoffInitialMs: 100,
  backoffMaxMs: 400,
};

export interface RemoteTestApp {
  app: App;
  started: Started;
  dataDir: string;
  vault: MemoryVault;
  /** Token of the agent "test" (empty when the agent existed already). */
  token: string;
  stop: () => Promise<void>;
}

/** A real App (gateway, SQLite, approvals, remote servers) on a free loopback port. Reuse dataDir+vault to "restart". */
export async function startRemoteApp(
  o: {
    dataDir?: string;
    vault?: MemoryVault;
    logLevel?: LogLevel;
    clientsEnv?: ClientsEnv;
    /** The local servers' sandbox (issue 35); their own folders go to a temp folder by default. */
    sandbox?: Partial<SandboxHost>;
    /** Over FAST_REMOTE: a short bound, for a test about that bound. */
    timings?: Partial<RemoteTimings>;
    /** The resolver remote servers connect by (address-guard.ts): a name made to answer anything. */
    resolve?: Resolver;
    /** Over PATIENT_SCHEMA_CHECKS: a budget the test runs out itself (a budgetTimer). */
    schemaPool?: SchemaWorkerPoolOptions;
    /** Off: a 2026-07-28 agent's everyday calls take the SDK path (mcp-handlers/modern-lone-call.ts). */
    loneCalls?: boolean;
  } = {},
): Promise<RemoteTestApp> {
  const dataDir = o.dataDir ?? tempDir('airlock-remote-');
  // Beside the data directory, never inside it: no sandbox may see the data directory.
  const homesRoot = o.sandbox?.homesRoot ?? tempDir('airlock-homes-');
  const vault = o.vault ?? new MemoryVault();
  const app = new App({
    dataDir,
    port: 0,
    vault,
    skipLock: true,
    remoteTimings: { ...FAST_REMOTE, ...o.timings },
    // A remote server's schema checked off-thread (a $ref, a large argument) finishes, however
    // slow the machine (harness.ts).
    schemaPool: { ...PATIENT_SCHEMA_CHECKS, ...o.schemaPool },
    sandbox: { ...o.sandbox, homesRoot },
    ...(o.clientsEnv ? { clientsEnv: o.clientsEnv } : {}),
    ...(o.resolve ? { remoteResolve: o.resolve } : {}),
    ...(o.loneCalls !== undefined ? { loneCalls: o.loneCalls } : {}),
    logger: new Logger({ dir: join(dataDir, 'logs'), stderr: false, level: o.logLevel ?? 'info' }),
  });
  const started = await app.start();
  const token = app.agents.get('test') ? '' : (await app.control.addAgent('test')).token;
  return { app, started, dataDir, vault, token, stop: () => app.stop() };
}

/**
 * Resolves once the registry offers every one of these tools: a server's tools come with its
 * first connection (or, like server-everything's get-roots-list, a list_changed after it), which
 * may outlast addRemote's bounded wait on a loaded machine.
 */
export function toolsOffered(app: App, names: string[]): Promise<void> {
  return new Promise((resolve) => {
    let off = () => {};
    const check = () => {
      if (!names.every((n) => app.registry.get(n))) return;
      off();
      resolve();
    };
    off = app.registry.onChange(check);
    check();
  });
}

/** An agent's SDK client; getStreamOpen (harness.ts) tells when its GET stream is open. */
export async function agentClient(mcpUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: 'remote-test-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
      fetch: watchGetStream(client),
    }),
  );
  return client;
}

// Kept here too for the remote tests that import it from this file.
export { nextEvent } from './core-events.js';

/** Waits until `check` holds, re-checking on every core event (no polling sleeps). */
export function until(app: App, check: () => boolean | Promise<boolean>): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = false;
    const test = () =>
      void Promise.resolve(check()).then((ok) => {
        if (ok && !done) {
          done = true;
          off();
          resolve();
        }
      }, reject);
    const off = app.events.subscribe(test);
    test();
  });
}
