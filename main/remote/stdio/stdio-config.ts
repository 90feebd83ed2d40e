import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import type {
  SandboxPermissions,
  SandboxView,
  StdioInput,
  StdioView,
} from '../../../common/contract/index.js';
import { ControlError } from '../../../common/contract/index.js';
import type { Logger } from '../../platform/log.js';
import type { RemoteSettings } from '../../platform/settings.js';
import type { Vault } from '../../platform/vault/vault.js';
import type { RemoteConnection } from '../connection/timings.js';
import type { StdioTarget } from './connect-stdio.js';
import { childEnv, passedThrough, proxyPasswords } from './env.js';
import { StdioProcessLog } from './process-log.js';
import { groupRunning, groupsGone, signalGroup } from './process-group.js';
import type { SandboxLauncher } from './sandbox/launcher.js';
import {
  defaultPermissions,
  importedPermissions,
  notGranted,
  type GrantContext,
} from './sandbox/permissions.js';

/**
 * A local server's configuration (issue 15): validation, where its secret
 * environment lives, and the connection RemoteSource gets.
 *
 * Vault: `remote:<name>:env` — JSON object of the secret variables.
 * Settings: command, args, cwd, plain env, and the names of the secret ones.
 */
export const envKey = (name: string) => `remote:${name}:env`;

export type StdioSettings = NonNullable<RemoteSettings['stdio']>;

export interface ValidStdio {
  /** Without `sandbox`: the caller applies the input's permissions (stdio-control.ts). */
  settings: StdioSettings;
  /** Secret values to store; undefined = keep what is stored (patch without secretEnv). */
  secretEnv: Record<string, string> | undefined;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function validateStdioInput(raw: unknown): ValidStdio {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new ControlError('INVALID', 'stdio expects { command, args?, cwd?, env?, secretEnv? }.');
  const i = raw as StdioInput;
  if (typeof i.command !== 'string' || i.command.trim() === '' || i.command.includes('\0'))
    throw new ControlError(
      'INVALID',
      'A local server needs a command, e.g. "npx" (arguments go in args, one per entry).',
    );
  const command = i.command.trim();
  if (/\s/.test(command) && (i.args ?? []).length === 0 && !isAbsolute(command))
    throw new ControlError(
      'INVALID',
      `"${command}" looks like a whole command line. Give the program as the command and each argument separately ` +
        `(airlock remote add NAME -- npx -y some-server); Airlock never runs a shell string.`,
    );
  const args = i.args ?? [];
  if (!Array.isArray(args) || args.some((a) => typeof a !== 'string' || a.includes('\0')))
    throw new ControlError('INVALID', 'args must be a list of strings.');
  let cwd: string | undefined;
  if (i.cwd !== undefined && i.cwd !== '') {
    if (typeof i.cwd !== 'string' || !isAbsolute(i.cwd))
      throw new ControlError(
        'INVALID',
        `The working directory must be an absolute path (got ${JSON.stringify(i.cwd)}).`,
      );
    if (!isDirectory(i.cwd))
      throw new ControlError(
        'INVALID',
        `The working directory ${i.cwd} does not exist or is not a folder.`,
      );
    cwd = i.cwd;
  }
  const env = validateEnv(i.env, 'env');
  const secretEnv = i.secretEnv === undefined ? undefined : validateEnv(i.secretEnv, 'secretEnv');
  for (const n of Object.keys(secretEnv ?? {}))
    if (n in env)
      throw new ControlError('INVALID', `${n} is given both as a plain and as a secret variable.`);
  return {
    settings: {
      command,
      args: [...args],
      ...(cwd ? { cwd } : {}),
      env,
      secretEnvNames: Object.keys(secretEnv ?? {}),
    },
    secretEnv,
  };
}

function validateEnv(raw: unknown, what: string): Record<string, string> {
  if (raw === undefined) return {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new ControlError('INVALID', `${what} must be an object of NAME → value.`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (!ENV_NAME.test(k))
      throw new ControlError('INVALID', `"${k}" is not a valid environment variable name.`);
    if (typeof v !== 'string' || v.includes('\0'))
      throw new ControlError('INVALID', `The value of ${k} must be a string.`);
    out[k] = v;
  }
  return out;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export async function readEnvSecrets(vault: Vault, name: string): Promise<Record<string, string>> {
  const raw = await vault.get(envKey(name));
  if (!raw) return {};
  try {
    return JSON.parse(raw) as Record<string, string>;
  } catch {
    return {};
  }
}

export async function writeEnvSecrets(
  vault: Vault,
  name: string,
  values: Record<string, string>,
): Promise<void> {
  if (Object.keys(values).length === 0) await vault.delete(envKey(name));
  else await vault.set(envKey(name), JSON.stringify(values));
}

export function stdioView(
  s: StdioSettings,
  sandbox: SandboxView,
  from: NodeJS.ProcessEnv = process.env,
): StdioView {
  const mine = { ...s.env, ...Object.fromEntries(s.secretEnvNames.map((n) => [n, ''])) };
  const passedEnv = passedThrough(mine, from);
  return {
    command: s.command,
    args: [...s.args],
    ...(s.cwd ? { cwd: s.cwd } : {}),
    env: { ...s.env },
    secretEnvNames: [...s.secretEnvNames],
    ...(Object.keys(passedEnv).length ? { passedEnv } : {}),
    sandbox,
  };
}

/**
 * One process log per local server, kept across reconnects and edits so the
 * server list can show its pid, start count and last exit.
 */
export class StdioServers {
  private readonly processLogs = new Map<string, StdioProcessLog>();

  constructor(
    private readonly vault: Vault,
    private readonly logger: Logger,
    /** Issue 35: the OS sandbox every local server starts in. */
    readonly sandbox: SandboxLauncher,
    private readonly startMs?: number,
  ) {}

  processLog(name: string): StdioProcessLog | undefined {
    return this.processLogs.get(name);
  }

  /** A removed server: its process log, its proxy and its own folder go. */
  async forget(name: string): Promise<void> {
    this.processLogs.delete(name);
    await this.sandbox.forget(name, { removeHome: true });
  }

  /** What a grant is checked against (issue 35). */
  grantContext(): GrantContext {
    const h = this.sandbox.host;
    return { home: h.home, guard: this.sandbox.guard(), platform: h.platform };
  }

  /** A server's permissions: stored, or (added before issue 35) the defaults for its folder. */
  permissions(s: StdioSettings): SandboxPermissions {
    return s.sandbox ?? defaultPermissions(s.cwd, this.grantContext());
  }

  /** The permissions an added server starts from: imported ones get the narrowest. */
  basePermissions(command: string, cwd: string | undefined, imported: boolean): SandboxPermissions {
    return imported ? importedPermissions(command) : defaultPermissions(cwd, this.grantContext());
  }

  sandboxView(name: string, s: StdioSettings): SandboxView {
    const perm = this.permissions(s);
    const runtime = this.sandbox.runtimeOf(name);
    return this.sandbox.view(name, perm, notGranted(s, perm, this.grantContext(), runtime));
  }

  /**
   * Safety net after every source closed its connection (RemoteManager.stop): a group still
   * alive gets SIGKILL. Only this manager's processes — another core in the same process (tests)
   * keeps its own.
   */
  async endAll(): Promise<void> {
    const names = [...this.processLogs.keys()];
    // Side by side, and one failing does not leave the others' processes running.
    const ended = await Promise.allSettled(names.map((name) => this.end(name)));
    ended.forEach((r, i) => {
      if (r.status === 'rejected')
        this.logger.warn('a local server could not be ended', {
          server: names[i],
          error: String(r.reason),
        });
    });
  }

  /**
   * Ends every process still running for `name` — including one a connection attempt is still
   * starting, which the source's stop() cannot reach — and waits until no process of theirs runs
   * (`groupsGone`; its bound is only a safety net, logged if ever reached).
   */
  async end(name: string): Promise<void> {
    const processLog = this.processLogs.get(name);
    processLog?.ended();
    if (!processLog) return;
    const kill = async () => {
      const pids = processLog.running().filter(groupRunning);
      for (const pid of pids) signalGroup(pid, 'SIGKILL');
      if (!(await groupsGone(pids)))
        this.logger.warn('a local server process outlived SIGKILL', { server: name, pids });
    };
    await kill();
    // A start-up that was under way fails now; wait for it (bounded) so it cannot leave one behind.
    await processLog.idle(2000);
    await kill();
  }

  /** After endAll on stop: the host-list proxies close. */
  async closeSandboxes(): Promise<void> {
    await this.sandbox.closeAll();
  }

  /** The connection for RemoteSource; secret env values registered with the logger's redaction. */
  async connection(cfg: RemoteSettings & { stdio: StdioSettings }): Promise<RemoteConnection> {
    const stored = await readEnvSecrets(this.vault, cfg.name);
    const secret: Record<string, string> = {};
    for (const n of cfg.stdio.secretEnvNames) if (stored[n] !== undefined) secret[n] = stored[n];
    // A proxy URL's password (passed through with it) is kept out of logs and stderr excerpts too.
    const hidden = [...Object.values(secret), ...proxyPasswords()];
    for (const v of hidden) this.logger.registerSecret(v);
    let processLog = this.processLogs.get(cfg.name);
    if (!processLog) {
      processLog = new StdioProcessLog(cfg.name, this.logger);
      this.processLogs.set(cfg.name, processLog);
    }
    processLog.setSecrets(hidden);
    const launch = {
      command: cfg.stdio.command,
      args: cfg.stdio.args,
      cwd: cfg.stdio.cwd ?? homedir(),
      env: childEnv({ ...cfg.stdio.env, ...secret }),
    };
    const perm = this.permissions(cfg.stdio);
    const target: StdioTarget = {
      launch,
      prepare: () => this.sandbox.prepare(cfg.name, launch, perm),
      processLog,
      ...(this.startMs !== undefined ? { startMs: this.startMs } : {}),
    };
    // The URL is a placeholder the HTTP code never sees: connectUpstream takes the stdio branch.
    return { name: cfg.name, url: `stdio:${cfg.name}`, headers: {}, stdio: target };
  }
}

export function isStdio(cfg: RemoteSettings): cfg is RemoteSettings & { stdio: StdioSettings } {
  return cfg.stdio !== undefined;
}
