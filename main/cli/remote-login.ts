import type { ControlApi, RemoteLoginOptions } from '../../common/contract/index.js';
import { openInBrowser, waitOutFlow } from './browser.js';
import { note, out } from './terminal.js';

export interface LoginCliOptions {
  browser: boolean;
  json: boolean;
  options: RemoteLoginOptions;
}

/**
 * `airlock remote login NAME` (issue 10): starts the sign-in in the core
 * (running server or in-process), prints the URL, opens the browser unless
 * --no-browser or headless, and waits for the loopback redirect.
 */
export async function loginCommand(
  api: ControlApi,
  name: string,
  o: LoginCliOptions,
): Promise<number> {
  const start = await api.loginRemote(name, { ...o.options, openBrowser: false });
  if (o.json) out(JSON.stringify({ event: 'auth_url', ...start }));
  else {
    out(`Open this page in your browser to sign in to "${name}":\n\n  ${start.authUrl}\n`);
    note(
      `Waiting for the sign-in until ${new Date(start.expiresAt).toLocaleTimeString()} (Ctrl-C to cancel)…`,
    );
  }
  const view = await waitOutFlow(
    (waitMs) => api.waitRemoteLogin(start.flowId, waitMs),
    () => api.cancelRemoteLogin(start.flowId),
    async () => o.browser && (await openInBrowser(start.authUrl)),
  );
  if (o.json) out(JSON.stringify({ event: 'done', ...view }));
  if (view.state === 'signed-in') {
    if (!o.json) {
      const r = view.remote;
      const state = r
        ? r.state === 'error'
          ? `error: ${r.detail ?? ''}`
          : `${r.state}, ${r.toolCount} tools`
        : 'signed in';
      out(`Signed in to "${name}" (${state}).`);
    }
    return 0;
  }
  if (!o.json)
    note(
      `airlock: ${view.error?.code ?? 'FAILED'}: ${view.error?.message ?? 'The sign-in did not complete.'}`,
    );
  return 1;
}

export async function logoutCommand(api: ControlApi, name: string, json: boolean): Promise<number> {
  const r = await api.logoutRemote(name);
  if (json) out(JSON.stringify(r));
  else
    out(
      `Signed out of "${r.name}": its tokens are gone from the keychain${r.revoked ? ' and the server revoked them' : ''}.${r.detail ? `\n${r.detail}` : ''}`,
    );
  return 0;
}
