import { app } from 'electron';
import type { Logger } from '../platform/log.js';

/** `airlock://…` links (registered as the app's URL scheme in electron-builder.yml `protocols`). */
export const DEEP_LINK_SCHEME = 'airlock';

export type DeepLink = { kind: 'approval'; id: string } | { kind: 'page'; route: string };

/** Pages a link may open (renderer/src/shell/routes.tsx); anything else opens the main window. */
const PAGES = new Set(['approvals', 'activity', 'tools', 'agents', 'accounts', 'servers']);
const APPROVAL_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Reads a deep link strictly: it comes from whatever program opened the
 * URL, so only `airlock://approval/<id>` and `airlock://open/<page>` mean
 * anything; every other shape is refused (null).
 */
export function parseDeepLink(raw: string): DeepLink | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:`) return null;
  const parts = [url.host, ...url.pathname.split('/')].filter(Boolean);
  const [kind, arg, ...rest] = parts;
  if (rest.length) return null;
  if (kind === 'approval' && arg && APPROVAL_ID.test(arg)) return { kind: 'approval', id: arg };
  if (kind === 'open' && !arg) return { kind: 'page', route: '/approvals' };
  if (kind === 'open' && arg && PAGES.has(arg)) return { kind: 'page', route: `/${arg}` };
  return null;
}

/** Deep links on a command line (Windows and Linux hand them over as arguments). */
export function deepLinksIn(argv: readonly string[]): DeepLink[] {
  return argv
    .filter((a) => a.startsWith(`${DEEP_LINK_SCHEME}://`))
    .map(parseDeepLink)
    .filter((l): l is DeepLink => l !== null);
}

export type Activation = (links: DeepLink[]) => void;

/**
 * One Airlock per user (issue 9, item 1): a second launch hands its deep
 * links to the first and exits; the first focuses its window. Activations
 * that arrive before the shell is ready (macOS sends `open-url` early)
 * wait until `ready()` gives them a handler.
 */
export class SingleInstance {
  private handler: Activation | null = null;
  private readonly waiting: DeepLink[][] = [];

  constructor(private readonly deps: { logger?: Pick<Logger, 'info'> } = {}) {}

  /** False when another instance holds the lock: this process should quit at once. */
  claim(): boolean {
    if (!app.requestSingleInstanceLock()) return false;
    app.on('second-instance', (_event, argv) => this.activate(deepLinksIn(argv)));
    app.on('open-url', (event, url) => {
      event.preventDefault();
      const link = parseDeepLink(url);
      this.activate(link ? [link] : []);
    });
    return true;
  }

  /** Registers `airlock://` with the OS; from source, Electron needs the app path as an argument. */
  registerScheme(): void {
    if (app.isPackaged) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
    else app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [app.getAppPath()]);
  }

  ready(handler: Activation): void {
    this.handler = handler;
    for (const links of this.waiting.splice(0)) handler(links);
  }

  private activate(links: DeepLink[]): void {
    this.deps.logger?.info('activated by another launch', { links: links.length });
    if (this.handler) this.handler(links);
    else this.waiting.push(links);
  }
}
