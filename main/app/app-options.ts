import type { ClientsEnv } from '../clients/client-defs.js';
import type { GoogleHooks } from '../google/google-service.js';
import type { ReadBounds } from '../calls/call-pipeline.js';
import type { Logger } from '../platform/log.js';
import type { VaultChoice } from '../platform/vault/select.js';
import type { Vault } from '../platform/vault/vault.js';
import type { Resolver } from '../remote/http/address-guard.js';
import type { RemoteTimings } from '../remote/remote-source.js';
import type { SandboxHost } from '../remote/stdio/sandbox/host-facts.js';
import type { SchemaWorkerPoolOptions } from '../tools/schema-worker-pool.js';
import type { ToolSource } from '../tools/types.js';

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
  /** Test hook: the resolver remote servers are connected by (a name made to answer a LAN address). */
  remoteResolve?: Resolver;
  /** Test hook: the local servers' sandbox facts (a temporary home, no bubblewrap, …; issue 35). */
  sandbox?: Partial<SandboxHost>;
  /** Test hook: the schema checks' budget and its timer (a trigger the test pulls; issue 29 item 2). */
  schemaPool?: SchemaWorkerPoolOptions;
  /**
   * Test hook: bounds on a source's reads before a call is asked (checks, the call's content, the
   * approval's effect text; main/calls/call-pipeline.ts ReadBounds). Default 5 s / 3 s.
   */
  readBounds?: ReadBounds;
  /**
   * Test hook: false turns off the 2026-07-28 lone call (McpEndpointOptions.loneCalls), so a test
   * can drive the same client against both paths. Default: on.
   */
  loneCalls?: boolean;
  /** Google accounts (issue 5): browser opener from the shell; test hooks (consent deadline, endpoint env). */
  google?: GoogleHooks;
  /** Test hook: where the MCP clients' config files are (a temp home); default: this user's. */
  clientsEnv?: ClientsEnv;
  /**
   * The CLI's in-process core (main/cli/context.ts), which listens on a spare port for one command:
   * MCP clients' entries then get the configured port (where `airlock serve` listens by default),
   * not this core's. Otherwise they get the URL this core answers on (issue 29.1).
   */
  shortLived?: boolean;
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
