import type { CoreEvents } from '../platform/events.js';
import type { Logger } from '../platform/log.js';
import type { SettingsStore } from '../platform/settings.js';
import type { Vault } from '../platform/vault/vault.js';
import { dirname } from 'node:path';
import { controlSocketPath } from '../gateway/control-socket.js';
import { keySource } from '../platform/vault/file-vault.js';
import { RemoteLoader } from '../remote/remote-loader.js';
import { sandboxHost } from '../remote/stdio/sandbox/host-facts.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { SchemaWorkerPool } from '../tools/schema-worker-pool.js';
import type { AppOptions } from './app-options.js';

/** The remote MCP servers' loader (issue 4); the servers themselves load when first needed. */
export function newRemoteLoader(
  app: {
    readonly settings: SettingsStore;
    readonly vault: Vault;
    readonly registry: ToolRegistry;
    readonly logger: Logger;
    readonly events: CoreEvents;
    readonly version: string;
  },
  options: AppOptions,
  /** The pool that checks arguments also checks remote tools' results (remote-calls.ts). */
  schemaChecks: SchemaWorkerPool,
): RemoteLoader {
  const key = keySource(options.dataDir);
  // Issue 35: what no local server's sandbox may ever contain, and where their own folders live.
  const sandbox = sandboxHost(
    {
      dataDir: options.dataDir,
      controlSocket: dirname(controlSocketPath(options.dataDir)),
      ...(key.kind === 'key-file' ? { vaultKeyFile: key.path } : {}),
    },
    options.sandbox,
  );
  return new RemoteLoader(
    {
      sandbox,
      settings: app.settings,
      vault: app.vault,
      registry: app.registry,
      logger: app.logger,
      events: app.events,
      version: app.version,
      ...(options.remoteTimings ? { timings: options.remoteTimings } : {}),
      ...(options.remoteResolve ? { resolve: options.remoteResolve } : {}),
      schemaChecks,
    },
    {
      settings: app.settings,
      vault: app.vault,
      events: app.events,
      version: app.version,
      // The shell's browser opener serves remote-server sign-ins (issue 10) as well as Google consent.
      ...(options.google?.openBrowser ? { openBrowser: options.google.openBrowser } : {}),
    },
  );
}
