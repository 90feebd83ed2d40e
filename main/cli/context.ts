import type { ControlApi } from '../../common/contract/index.js';
import { httpControlClient } from '../../common/http-control-client.js';
import { App, readControlToken } from '../app/app.js';
import { InstanceLock, readServerInfo, type ServerInfo } from '../platform/instance.js';
import { Logger } from '../platform/log.js';
import { dataPaths, resolveDataDir } from '../platform/paths.js';
import { parseVaultChoice, SelectedVault, type VaultChoice } from '../platform/vault/select.js';
import { SocketUnreachableError, socketControlClient } from './socket-client.js';
import { refuseLoosening } from './confirm-in-window.js';

/** `--vault` for this CLI run (set once by main/cli.ts; AIRLOCK_VAULT otherwise). */
let cliVaultChoice: VaultChoice | undefined;
export function setCliVaultChoice(choice: VaultChoice | undefined): void {
  cliVaultChoice = choice;
}
/** The vault this CLI run was told to use: `--vault`, else AIRLOCK_VAULT, else auto. */
export function cliVault(env: NodeJS.ProcessEnv = process.env): VaultChoice {
  return cliVaultChoice ?? parseVaultChoice(env.AIRLOCK_VAULT);
}

export interface CliContext {
  api: ControlApi;
  /** The URL agents use: the running server's, or the one `serve` will use. */
  mcpUrl: string;
  running: boolean;
}

/**
 * The control token of a data directory, from its vault (as the CLI's HTTP fallback reads it):
 * what `airlock open` puts in the control page's URL fragment.
 */
export async function controlTokenOf(dataDir: string): Promise<string | null> {
  const vault = new SelectedVault({
    dataDir,
    ...(cliVaultChoice ? { choice: cliVaultChoice } : {}),
  });
  return readControlToken(vault);
}

export function runningServer(dataDir: string): ServerInfo | null {
  const paths = dataPaths(dataDir);
  const pid = new InstanceLock(paths.lock, paths.serverInfo).holder();
  if (pid === null) return null;
  const info = readServerInfo(paths.serverInfo);
  return info && info.pid === pid ? info : null;
}

/**
 * Runs `fn` against ControlApi. With a server running, commands go through
 * its control API, so the server is the only writer of settings and a
 * revoke takes effect at once. Without one, an in-process core is started on
 * a spare loopback port for the duration of the command.
 */
export async function withControl<T>(
  dataDirFlag: string | undefined,
  fn: (ctx: CliContext) => Promise<T>,
  vaultChoice: VaultChoice | undefined = cliVaultChoice,
): Promise<T> {
  const dataDir = resolveDataDir(dataDirFlag);
  const info = runningServer(dataDir);
  if (info) {
    // The local control socket needs no keychain (issue 19, item 3); on Windows it also wants the token.
    if (info.controlSocket && process.platform !== 'win32') {
      const api = socketControlClient(info.controlSocket);
      try {
        await api.getStatus();
        return await fn({ api, mcpUrl: info.mcpUrl, running: true });
      } catch (err) {
        if (!(err instanceof SocketUnreachableError)) throw err;
      }
    }
    const vault = new SelectedVault({ dataDir, ...(vaultChoice ? { choice: vaultChoice } : {}) });
    const token = await readControlToken(vault);
    if (!token) throw new Error("The running server's control token is missing from the vault.");
    const api = info.controlSocket
      ? socketControlClient(info.controlSocket, token)
      : httpControlClient(info.url, token);
    return fn({ api, mcpUrl: info.mcpUrl, running: true });
  }
  const app = new App({
    dataDir,
    port: 0,
    shortLived: true,
    logger: new Logger({ dir: dataPaths(dataDir).logs, stderr: false }),
    ...(vaultChoice ? { vaultChoice } : {}),
  });
  await app.start();
  try {
    const port = app.settings.get().port;
    // Issue 17.7: no window to confirm loosening in, so the in-process core refuses it.
    const api = refuseLoosening(app.control, app.serverLoosening);
    return await fn({ api, mcpUrl: `http://127.0.0.1:${port}/mcp`, running: false });
  } finally {
    await app.stop();
  }
}
