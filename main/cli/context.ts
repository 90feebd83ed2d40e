import type { ControlApi } from '../../common/contract/index.js';
import { httpControlClient } from '../../common/http-control-client.js';
import { App, readControlToken } from '../app/app.js';
import { InstanceLock, readServerInfo, type ServerInfo } from '../platform/instance.js';
import { Logger } from '../platform/log.js';
import { dataPaths, resolveDataDir } from '../platform/paths.js';
import { KeyringVault } from '../platform/vault/keyring-vault.js';
import { refuseLoosening } from './confirm-in-window.js';

export interface CliContext {
  api: ControlApi;
  /** The URL agents use: the running server's, or the one `serve` will use. */
  mcpUrl: string;
  running: boolean;
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
): Promise<T> {
  const dataDir = resolveDataDir(dataDirFlag);
  const info = runningServer(dataDir);
  if (info) {
    const token = await readControlToken(new KeyringVault({ dataDir }));
    if (!token) throw new Error("The running server's control token is missing from the keychain.");
    return fn({ api: httpControlClient(info.url, token), mcpUrl: info.mcpUrl, running: true });
  }
  const app = new App({
    dataDir,
    port: 0,
    logger: new Logger({ dir: dataPaths(dataDir).logs, stderr: false }),
  });
  await app.start();
  try {
    const port = app.settings.get().port;
    // Issue 17.7: no window to confirm loosening in, so the in-process core refuses it.
    const api = refuseLoosening(app.control);
    return await fn({ api, mcpUrl: `http://127.0.0.1:${port}/mcp`, running: false });
  } finally {
    await app.stop();
  }
}
