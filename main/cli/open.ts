import type { ServerInfo } from '../platform/instance.js';
import { resolveDataDir } from '../platform/paths.js';
import { openInBrowser, systemOpener, type Opener } from './browser.js';
import { controlTokenOf, runningServer } from './context.js';

/**
 * `airlock open` and `airlock status --show-control-url` (issue 29.4): the control page's URL,
 * `<server url>/#token=<control token>` — the same the ready line printed — for when that line
 * is gone. The token is read from the vault and only ever written to this command's stdout:
 * never to a log, and in the fragment, which a browser does not send to the server.
 */
export async function controlUrl(dataDir: string, info: ServerInfo): Promise<string> {
  let token: string | null;
  try {
    token = await controlTokenOf(dataDir);
  } catch (err) {
    throw new Error(
      `Could not read the control token from the vault (${(err as Error).message}). ` +
        'Run this where Airlock runs (its keychain, or --vault file), or use the URL of its ready line.',
      { cause: err },
    );
  }
  if (!token) throw new Error("The running server's control token is missing from the vault.");
  return `${info.url}/#token=${token}`;
}

export async function openCommand(
  o: { dataDir?: string; noBrowser?: boolean },
  opener: Opener = systemOpener,
): Promise<number> {
  const dataDir = resolveDataDir(o.dataDir);
  const info = runningServer(dataDir);
  if (!info) {
    process.stderr.write(
      `airlock: Airlock is not running for ${dataDir}. Start it with: airlock serve${o.dataDir ? ` --data-dir ${o.dataDir}` : ''}\n`,
    );
    return 1;
  }
  const url = await controlUrl(dataDir, info);
  process.stdout.write(url + '\n');
  const opened = o.noBrowser ? 'skipped' : await openInBrowser(url, opener);
  process.stderr.write(
    opened === 'opened'
      ? 'Opened in your browser.\n'
      : opened === 'failed'
        ? 'Could not start a browser; open the URL above yourself.\n'
        : 'Open that URL in a browser on this computer (it carries the control token: keep it to yourself).\n',
  );
  return 0;
}
