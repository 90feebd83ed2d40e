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

/**
 * How Airlock was asked to come forward: a second launch ('second-instance', Windows/Linux and
 * macOS from a terminal), a URL ('open-url', macOS), or macOS 'activate' — which Electron emits for
 * a Dock or Finder re-launch *and* for the launch itself (docs/api/app.md "Event: 'activate'":
 * "launching the application for the first time"), possibly before 'ready'.
 */
export interface ActivationRequest {
  links: DeepLink[];
  source: 'second-instance' | 'open-url' | 'activate';
}
export type Activation = (request: ActivationRequest) => void;

/**
 * One Airlock per user (issue 9, item 1): a second launch hands its deep
 * links to the first and exits; the first focuses its window. Activations
 * that arrive before the shell is ready (macOS sends `open-url` and may send
 * `activate` early) are kept, and handed to the shell as part of its launch.
 */
export class SingleInstance {
  private handler: Activation | null = null;
  private readonly waiting: ActivationRequest[] = [];

  constructor(private readonly deps: { logger?: Pick<Logger, 'info'> } = {}) {}

  /** False when another instance holds the lock: this process should quit at once. */
  claim(): boolean {
    if (!app.requestSingleInstanceLock()) return false;
    app.on('second-instance', (_event, argv) =>
      this.activate({ links: deepLinksIn(argv), source: 'second-instance' }),
    );
    // Before 'ready' on purpose: a URL that launched Airlock comes early (docs/api/app.md
    // "Event: 'open-url'": "If you register the listener in response to a `ready` event, you'll
    // miss URLs that trigger the launch of your application").
    app.on('open-url', (event, url) => {
      event.preventDefault();
      const link = parseDeepLink(url);
      this.activate({ links: link ? [link] : [], source: 'open-url' });
    });
    app.on('activate', () => this.activate({ links: [], source: 'activate' }));
    return true;
  }

  /**
   * From now on activations go to `handler`; returns those that came before (during start-up),
   * for the shell to fold into its launch (issue 32, item 3).
   */
  ready(handler: Activation): ActivationRequest[] {
    this.handler = handler;
    return this.waiting.splice(0);
  }

  private activate(request: ActivationRequest): void {
    this.deps.logger?.info('activated', { source: request.source, links: request.links.length });
    if (this.handler) this.handler(request);
    else this.waiting.push(request);
  }
}
