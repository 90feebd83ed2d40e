import type {
  RemoteInput,
  RemoteLoginOptions,
  RemoteLoginStart,
  RemoteLoginView,
  RemoteLogoutResult,
  RemotePatch,
  RemoteProbeResult,
  RemoteView,
} from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import type { CoreEvents } from '../platform/events.js';
import type { RemoteSettings, SettingsStore } from '../platform/settings.js';
import type { Vault } from '../platform/vault/vault.js';
import { probeRemote } from './probe.js';
import type { RemoteManager } from './remote-manager.js';
import { deleteSecrets, readSecrets } from './secrets.js';
import { Redactor } from './connection/redact.js';
import { urlSecretValues } from '../platform/url-secrets.js';
import { addUrl, updateUrl } from './url-control.js';
import {
  validateHeaders,
  validateRemoteName,
  validateRemoteUrl,
  validateToken,
} from './validate.js';
import { userClient } from './oauth/login-support.js';
import { LOGIN_TIMEOUT_MS } from './oauth/logins.js';
import { validateLoginOptions } from './oauth/validate-login.js';
import {
  addLocal,
  localView,
  refuseSignIn,
  removeLocal,
  updateLocal,
} from './stdio/stdio-control.js';

export interface RemoteControlDeps {
  settings: SettingsStore;
  vault: Vault;
  manager: RemoteManager;
  events: CoreEvents;
  version: string;
  probeTimeoutMs?: number;
  /** Opens the system browser for an OAuth sign-in (the Electron shell's shell.openExternal); absent → the caller shows the URL. */
  openBrowser?: (url: string) => void | Promise<void>;
  /** How long a sign-in may take (default 5 minutes). */
  loginTimeoutMs?: number;
}

/**
 * The remote-server part of ControlApi (issue 4, "Connections"). Secrets go
 * to the vault before settings change, so a keychain failure leaves both as
 * they were; views carry header names and `hasToken`, never a value.
 */
export class RemoteControl {
  constructor(private readonly d: RemoteControlDeps) {}

  async listRemotes(): Promise<RemoteView[]> {
    // A freshly started core (the CLI without a running server) has sources still connecting.
    await this.d.manager.whenSettled(3000);
    return this.d.settings.get().remotes.map((r) => this.view(r));
  }

  async addRemote(input: RemoteInput): Promise<RemoteView> {
    if (!input || typeof input !== 'object')
      throw new ControlError('INVALID', 'addRemote expects { name, url, headers?, bearerToken? }.');
    const name = validateRemoteName(input.name);
    if (input.stdio !== undefined) {
      await addLocal(this.d, name, input);
      return this.added(name);
    }
    await addUrl(this.d, name, input);
    return this.added(name);
  }

  /** Starts the new or changed server and returns its view once its first attempt is over. */
  private async added(name: string): Promise<RemoteView> {
    await this.d.manager.sync(name);
    this.d.events.emit({ type: 'state.changed' });
    return this.view(this.find(name));
  }

  async updateRemote(name: string, patch: RemotePatch): Promise<RemoteView> {
    const cfg = this.find(name);
    if (!patch || typeof patch !== 'object')
      throw new ControlError('INVALID', 'updateRemote expects a patch object.');
    if (patch.relay !== undefined && typeof patch.relay !== 'boolean')
      throw new ControlError('INVALID', 'relay must be true or false.');
    // Read when each request arrives (relay-scope.ts): no reconnect needed for it alone.
    if (Object.keys(patch).every((k) => k === 'relay')) return this.setRelay(cfg, patch.relay);
    if (cfg.stdio || patch.stdio !== undefined || patch.sandbox !== undefined) {
      await updateLocal(this.d, cfg, patch);
      if (patch.relay !== undefined) this.setRelay(cfg, patch.relay);
      return this.added(cfg.name);
    }
    await updateUrl(this.d, cfg, patch);
    await this.d.manager.sync(cfg.name);
    this.d.events.emit({ type: 'state.changed' });
    return this.view(this.find(cfg.name));
  }

  private setRelay(cfg: RemoteSettings, relay: boolean | undefined): RemoteView {
    if (relay !== undefined)
      this.d.settings.update((s) => {
        s.remotes.find((x) => x.name === cfg.name)!.relay = relay;
      });
    this.d.events.emit({ type: 'state.changed' });
    return this.view(this.find(cfg.name));
  }

  async removeRemote(name: string): Promise<void> {
    const cfg = this.find(name);
    // Signed in with OAuth: revoke at the server too (best effort, bounded) before the tokens are deleted.
    const session = await this.d.manager.session(cfg.name).catch(() => undefined);
    await session?.logout({ timeoutMs: 3000 }).catch(() => {});
    this.d.settings.update((s) => {
      s.remotes = s.remotes.filter((r) => r.name !== cfg.name);
    });
    await this.d.manager.sync(cfg.name);
    // Per-tool settings (`remote:<name>/…`) stay: re-adding the server keeps the user's choices.
    await deleteSecrets(this.d.vault, cfg.name);
    await removeLocal(this.d, cfg.name);
    this.d.manager.forgetSession(cfg.name);
    this.d.events.emit({ type: 'state.changed' });
  }

  /** Starts an OAuth sign-in (issue 10); the user finishes it in the browser. */
  async loginRemote(name: string, options: RemoteLoginOptions = {}): Promise<RemoteLoginStart> {
    const cfg = this.find(name);
    refuseSignIn(cfg);
    const o = validateLoginOptions(options);
    const session = await this.d.manager.session(cfg.name);
    if (!session)
      throw new ControlError(
        'CONFLICT',
        `"${cfg.name}" uses a bearer token. Remove the token first (updateRemote with bearerToken: null), then sign in.`,
      );
    return this.d.manager.logins.start(
      {
        name: cfg.name,
        // The real URL (credentials in its path or query put back): discovery and the resource
        // indicator are derived from it. Error texts quoting it are redacted.
        serverUrl: session.url,
        redact: await urlRedaction(this.d.vault, cfg.name),
        store: session.store,
        hints: session.loginHints(),
        pin: this.d.manager.pinFor(cfg),
        ...(o.scope ? { scope: o.scope } : {}),
        ...userClient(o),
        timeoutMs: this.d.loginTimeoutMs ?? LOGIN_TIMEOUT_MS,
      },
      o.openBrowser === false ? undefined : this.d.openBrowser,
    );
  }

  async waitRemoteLogin(flowId: string, waitMs?: number): Promise<RemoteLoginView> {
    const v = await this.d.manager.logins.wait(flowId, waitMs);
    const cfg =
      v.state === 'signed-in'
        ? this.d.settings.get().remotes.find((r) => r.name === v.name)
        : undefined;
    return cfg ? { ...v, remote: this.view(cfg) } : v;
  }

  async cancelRemoteLogin(flowId: string): Promise<RemoteLoginView> {
    return this.d.manager.logins.cancel(flowId);
  }

  /** Forgets the OAuth tokens (revoking them where the server supports it) and disconnects. */
  async logoutRemote(name: string): Promise<RemoteLogoutResult> {
    const cfg = this.find(name);
    refuseSignIn(cfg);
    const session = await this.d.manager.session(cfg.name);
    if (!session)
      throw new ControlError(
        'CONFLICT',
        `"${cfg.name}" uses a bearer token, not an OAuth sign-in. Remove the token with updateRemote instead.`,
      );
    const r = await session.logout();
    await this.d.manager.refresh(cfg.name);
    this.d.events.emit({ type: 'state.changed' });
    return {
      name: cfg.name,
      revoked: r.revoked,
      ...(r.detail
        ? { detail: r.detail }
        : !r.hadTokens
          ? { detail: 'Airlock was not signed in to this server; nothing to forget.' }
          : {}),
    };
  }

  async refreshRemote(name?: string): Promise<RemoteView[]> {
    if (name !== undefined) this.find(name);
    await this.d.manager.refresh(name);
    return this.d.settings
      .get()
      .remotes.filter((r) => name === undefined || r.name === name)
      .map((r) => this.view(r));
  }

  async testRemote(input: Omit<RemoteInput, 'name'>): Promise<RemoteProbeResult> {
    if (!input || typeof input !== 'object')
      throw new ControlError('INVALID', 'testRemote expects { url, headers?, bearerToken? }.');
    if (input.stdio !== undefined)
      throw new ControlError(
        'INVALID',
        'testRemote takes a URL. Add a local server to see whether it starts.',
      );
    const url = validateRemoteUrl(input.url);
    const headers = validateHeaders(input.headers);
    if (input.bearerToken !== undefined)
      headers.Authorization = `Bearer ${validateToken(input.bearerToken)}`;
    const { callResult: _none, ...result } = await probeRemote({
      url,
      headers,
      timeoutMs: this.d.probeTimeoutMs ?? 10_000,
      version: this.d.version,
    });
    return result;
  }

  private find(name: string): RemoteSettings {
    const cfg = this.d.settings.get().remotes.find((r) => r.name === name);
    if (!cfg)
      throw new ControlError(
        'NOT_FOUND',
        `No remote server named "${name}". Run "airlock remote list" to see them.`,
      );
    return cfg;
  }

  private view(r: RemoteSettings): RemoteView {
    const source = this.d.manager.get(r.name);
    const st = source?.status();
    const info = source?.info() ?? {};
    return {
      name: r.name,
      url: r.url,
      enabled: r.enabled,
      relay: r.relay,
      sourceId: `remote:${r.name}`,
      headerNames: [...r.headerNames],
      hasToken: r.hasToken,
      state: !r.enabled || !st ? 'disabled' : st.state,
      ...(st?.state === 'error' ? { detail: st.detail } : {}),
      toolCount: source?.tools().length ?? 0,
      ...info,
      createdAt: r.createdAt,
      ...localView(this.d, r),
      ...(r.hasToken || r.stdio ? {} : authOf(this.d.manager.peekSession(r.name)?.view())),
    };
  }
}

function authOf(auth: RemoteView['auth']): { auth?: NonNullable<RemoteView['auth']> } {
  return auth ? { auth } : {};
}

/** Replaces a server's URL credentials (url-secrets.ts) in a text that may quote its real URL. */
async function urlRedaction(vault: Vault, name: string): Promise<(text: string) => string> {
  const r = new Redactor();
  r.set(urlSecretValues((await readSecrets(vault, name)).query));
  return (text) => r.text(text);
}
