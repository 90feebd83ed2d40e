import { ControlError } from '../../common/contract/index.js';
import type { ServerInfo } from '../platform/instance.js';
import { resolveDataDir } from '../platform/paths.js';
import { openInBrowser, systemOpener, type Opener } from './browser.js';
import { controlTokenOf, runningServer } from './context.js';
import { mintOpenCode } from './socket-client.js';

/**
 * `airlock open` and `airlock status --show-control-url` (issue 29.4): the control page's URL,
 * `<server url>/#token=<control token>` — the same the ready line printed — for when that line
 * is gone. The token is read from the vault and only ever written to this command's stdout:
 * never to a log, and in the fragment, which a browser does not send to the server.
 */
export async function controlUrl(dataDir: string, info: ServerInfo): Promise<string> {
  return `${info.url}/#token=${await controlToken(dataDir)}`;
}

async function controlToken(dataDir: string): Promise<string> {
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
  return token;
}

/**
 * What the browser is started with: `<server url>/#code=<one-time code>` (common/open-code.ts),
 * never the control token — a browser's command line is readable by every local process for
 * as long as it runs. A server whose owner-only socket answers that it does not know the method
 * gets today's `#token=` URL, with a note; a server with no socket gets no browser.
 */
export async function browserUrl(
  info: ServerInfo,
  token: string,
  mint: typeof mintOpenCode = mintOpenCode,
): Promise<string> {
  // No socket in the instance file is not proof of an old server: a current one whose socket
  // failed to start (another user owning /tmp/airlock-<uid>, a squatted Windows pipe name —
  // control-access.ts logs it and carries on) publishes none too, and whoever caused that would
  // then read the token from the browser's argv. So no socket opens nothing.
  if (!info.controlSocket) {
    process.stderr.write(
      'airlock: the server has no control socket (see its log), so it cannot give a one-time code; the browser is not handed the token.\n',
    );
    throw new Error('no control socket');
  }
  try {
    const { code } = await mint(info.controlSocket, token);
    return `${info.url}/#code=${encodeURIComponent(code)}`;
  } catch (err) {
    if (!(err instanceof ControlError && err.code === 'NOT_FOUND')) {
      process.stderr.write(
        `airlock: the server gave no one-time code (${(err as Error).message}).\n`,
      );
      throw err;
    }
  }
  process.stderr.write(
    'airlock: this server predates one-time codes; the browser gets the control token itself (update Airlock and restart it).\n',
  );
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
  const token = await controlToken(dataDir);
  process.stdout.write(`${info.url}/#token=${token}\n`);
  const opened = o.noBrowser
    ? 'skipped'
    : await openInBrowser(() => browserUrl(info, token), opener);
  process.stderr.write(
    opened === 'opened'
      ? 'Opened in your browser.\n'
      : opened === 'failed'
        ? 'Could not start a browser; open the URL above yourself.\n'
        : 'Open that URL in a browser on this computer (it carries the control token: keep it to yourself).\n',
  );
  return 0;
}
