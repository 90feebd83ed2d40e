import type { Session, WebContents, WebPreferences } from 'electron';
import type { Logger } from '../platform/log.js';
import type { ExternalLinkGate } from './link-gate.js';
import { isAppUrl } from './protocol.js';

/**
 * Every BrowserWindow gets these and nothing looser (issue 9, item 4;
 * electronjs.org/docs/latest/tutorial/security #2 #3 #4 #6 #8 #9 #10). Most
 * are Electron's defaults already; they are spelled out so a test can
 * check them and a later edit cannot silently drop one.
 */
export function secureWebPreferences(
  preload: string,
  opts: { devTools?: boolean } = {},
): WebPreferences {
  return {
    preload,
    // DevTools only when running from source, never in a packaged build.
    devTools: opts.devTools ?? false,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
  };
}

/**
 * The one browser permission the UI uses (issue 21, item 1): Chromium asks
 * for it on `navigator.clipboard.writeText`, which every Copy button calls
 * (renderer/src/lib/clipboard.ts). Refusing it broke every Copy button. A
 * sanitized write needs a focused page and a user gesture (Chromium's own
 * rule) and can only put text on the clipboard; clipboard *read* stays refused.
 */
export const ALLOWED_PERMISSION = 'clipboard-sanitized-write';

/** Only our own page's top frame, on app://airlock, gets the one permission. */
const fromOurPage = (isMainFrame: boolean | undefined, url: string | undefined) =>
  isMainFrame === true && isAppUrl(url);

/**
 * Every other permission request and check is refused (checklist #5):
 * camera, notifications (the shell raises native ones itself),
 * geolocation, clipboard read, … Some web APIs only request (a clipboard
 * write: blink's ClipboardPromise::RequestPermission), others only check
 * (`navigator.permissions.query`), others check and then request: both
 * handlers hold the same rule.
 *
 * The check handler gets the origin as Chromium's url::Origin turned back
 * into a URL (electron_permission_manager.cc: `GetLastCommittedOrigin().GetURL()`),
 * which is `app://airlock/` — with a slash — so it is parsed, never compared
 * as a string (issue 32, item 4: comparing with `app://airlock` never matched).
 */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_wc, permission, callback, details) =>
    callback(
      permission === ALLOWED_PERMISSION && fromOurPage(details.isMainFrame, details.requestingUrl),
    ),
  );
  session.setPermissionCheckHandler(
    (_wc, permission, requestingOrigin, details) =>
      permission === ALLOWED_PERMISSION &&
      isAppOrigin(requestingOrigin) &&
      fromOurPage(details.isMainFrame, details.requestingUrl),
  );
}

/** `app://airlock/` or `app://airlock`: our origin as a URL, nothing more (no path, query or credentials). */
export function isAppOrigin(origin: string | undefined): boolean {
  if (!isAppUrl(origin)) return false;
  const u = new URL(origin!);
  return (u.pathname === '/' || u.pathname === '') && !u.search && !u.hash && !u.username;
}

/**
 * Navigation and new windows are denied for every webContents (checklist
 * #13, #14); an http(s) link the user clicked goes to the system browser
 * through the one link gate (#15). Hash-route changes are in-page
 * navigations and never reach `will-navigate`.
 */
const hardened = new WeakSet<WebContents>();

export function hardenWebContents(
  contents: WebContents,
  links: ExternalLinkGate,
  logger?: Pick<Logger, 'warn'>,
): void {
  // Both the window manager and the app-wide 'web-contents-created' hook call this; listeners go on once.
  if (hardened.has(contents)) return;
  hardened.add(contents);
  contents.setWindowOpenHandler(({ url }) => {
    links.open(url);
    return { action: 'deny' };
  });
  const refuse = (event: { preventDefault(): void }, url: string) => {
    event.preventDefault();
    if (!links.open(url)) logger?.warn('navigation refused');
  };
  contents.on('will-navigate', (event) => refuse(event, event.url));
  contents.on('will-redirect', (event) => refuse(event, event.url));
  // No <webview> anywhere (webviewTag is off); refuse one even if something turns it on (#11, #12).
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
