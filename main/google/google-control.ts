import type {
  GoogleAccountView,
  GoogleClientInput,
  GoogleClientView,
  GoogleConnectOptions,
  GoogleConnectStart,
  GoogleConnectView,
  GoogleDisconnectResult,
} from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import type { CoreEvents } from '../platform/events.js';
import type { Logger } from '../platform/log.js';
import { openSignInPage, SignInFlows } from '../platform/sign-in-flows.js';
import { GoogleToolError } from './account-access.js';
import type { GoogleAccounts } from './accounts.js';
import { ClientConfigError, parseClientFile, validateClient } from './client-config.js';
import { ClientMissingError } from './client-store.js';
import { EndpointError } from './endpoints.js';
import { ConnectFlow } from './oauth/connect-flow.js';
import { GoogleOAuth } from './oauth/google-oauth.js';
import { loadGoogleTools } from './lazy-source.js';
import { missingScopes, scopesFor } from './scopes.js';

export interface GoogleControlDeps {
  accounts: GoogleAccounts;
  events?: CoreEvents;
  logger?: Logger;
  /** Opens the system browser (the Electron shell passes shell.openExternal); absent → the caller shows the URL. */
  openBrowser?: (url: string) => void | Promise<void>;
  /** How long a consent may take (issue 5: 5 minutes). */
  connectTimeoutMs?: number;
}

/**
 * The Google part of ControlApi (issue 5). One consent runs at a time: a new
 * start cancels a flow still waiting, so at most one loopback listener is open.
 * Views carry addresses and scopes, never a token.
 */
export class GoogleControl {
  private readonly flows = new SignInFlows<ConnectFlow>(
    () => 'No such Google sign-in (it may have finished more than 10 minutes ago).',
  );

  constructor(private readonly d: GoogleControlDeps) {}

  async getGoogleClient(): Promise<GoogleClientView | null> {
    const info = this.d.accounts.client.info();
    if (!info) return null;
    return { ...info, hasSecret: await this.d.accounts.client.hasSecret() };
  }

  async setGoogleClient(input: GoogleClientInput): Promise<GoogleClientView> {
    if (!input || typeof input !== 'object')
      throw new ControlError(
        'INVALID',
        'setGoogleClient expects { json } or { clientId, clientSecret }.',
      );
    let creds;
    try {
      creds = 'json' in input ? parseClientFile(String(input.json)) : validateClient(input);
    } catch (err) {
      if (err instanceof ClientConfigError) throw new ControlError('INVALID', err.message);
      throw err;
    }
    const current = this.d.accounts.client.info();
    const bound = this.d.accounts.accounts();
    if (current && current.clientId !== creds.clientId && bound.length > 0) {
      // Refresh tokens only work with the client that obtained them.
      throw new ControlError(
        'CONFLICT',
        `Connected accounts (${bound.map((a) => a.email).join(', ')}) belong to the current client ${current.clientId}. Disconnect them first, then import the new client and connect again.`,
      );
    }
    await this.d.accounts.client.save(creds);
    this.d.events?.emit({ type: 'state.changed' });
    return (await this.getGoogleClient())!;
  }

  async listGoogleAccounts(): Promise<GoogleAccountView[]> {
    return this.views();
  }

  async startGoogleConnect(options: GoogleConnectOptions = {}): Promise<GoogleConnectStart> {
    const bad = (v: unknown, type: string) => v !== undefined && v !== null && typeof v !== type;
    if (
      options === null ||
      typeof options !== 'object' ||
      bad(options.readOnly, 'boolean') ||
      bad(options.openBrowser, 'boolean') ||
      bad(options.account, 'string')
    ) {
      throw new ControlError(
        'INVALID',
        'startGoogleConnect expects { readOnly?: boolean, account?: string, openBrowser?: boolean }.',
      );
    }
    const known = options.account
      ? this.d.accounts.accounts().find((a) => a.email === String(options.account).toLowerCase())
      : undefined;
    if (options.account && !known)
      throw new ControlError(
        'NOT_FOUND',
        `${options.account} is not a connected account; connect it without --account.`,
      );
    const readOnly = options.readOnly ?? known?.readOnly ?? false;
    let oauth: GoogleOAuth;
    try {
      oauth = new GoogleOAuth({
        client: await this.d.accounts.client.credentials(),
        endpoints: this.d.accounts.endpoints(),
      });
    } catch (err) {
      if (err instanceof ClientMissingError || err instanceof EndpointError)
        throw new ControlError('INVALID', err.message);
      throw err;
    }
    this.flows.cancelWhere(() => true, 'A newer sign-in was started; this one was cancelled.');
    const logger = this.d.logger;
    const callbackPort = this.d.accounts.settingsPort();
    const flow: ConnectFlow = new ConnectFlow({
      oauth,
      readOnly,
      ...(known ? { loginHint: known.email } : {}),
      timeoutMs: this.d.connectTimeoutMs ?? 5 * 60_000,
      ...(callbackPort ? { preferredPort: callbackPort } : {}),
      // Gmail's and Calendar's modules first (issue 34, lazy-source.ts): the account's tools are
      // listed the moment it is; a failed load is the sources' own error, shown on the Tools page.
      save: async (grant) => {
        await loadGoogleTools().catch(() => undefined);
        await this.d.accounts.saveGrant(grant);
      },
      ...(logger ? { onSecret: (v: string) => logger.registerSecret(v) } : {}),
      onPortFallback: (port, error) =>
        logger?.warn('google callback port taken; using another', {
          wanted: callbackPort,
          port,
          error,
        }),
      onSettled: (f) => this.settled(f),
    });
    await flow.start();
    this.flows.add(flow);
    logger?.info('google consent started', {
      flowId: flow.id,
      readOnly,
      redirectUri: flow.redirectUri,
    });
    this.emit(flow);
    const browserOpened = await openSignInPage(
      options.openBrowser === false ? undefined : this.d.openBrowser,
      flow.authUrl,
      (error) => logger?.warn('could not open the browser for google consent', { error }),
    );
    return {
      flowId: flow.id,
      authUrl: flow.authUrl,
      redirectUri: flow.redirectUri,
      expiresAt: flow.expiresAt,
      browserOpened,
    };
  }

  async waitGoogleConnect(flowId: string, waitMs = 25_000): Promise<GoogleConnectView> {
    const flow = await this.flows.wait(
      flowId,
      waitMs,
      (f) => f.status === 'waiting' || f.status === 'exchanging',
    );
    return this.flowView(flow);
  }

  async cancelGoogleConnect(flowId: string): Promise<GoogleConnectView> {
    const flow = this.flows.get(flowId);
    flow.cancel();
    return this.flowView(flow);
  }

  async disconnectGoogle(email: string): Promise<GoogleDisconnectResult> {
    if (typeof email !== 'string' || !email)
      throw new ControlError('INVALID', 'disconnectGoogle expects an e-mail address.');
    try {
      const result = await this.d.accounts.disconnect(email);
      this.d.events?.emit({ type: 'state.changed' });
      return result;
    } catch (err) {
      if (err instanceof GoogleToolError && err.code === 'NO_ACCOUNT')
        throw new ControlError('NOT_FOUND', err.message);
      throw err;
    }
  }

  async setDefaultGoogleAccount(email: string): Promise<GoogleAccountView[]> {
    if (typeof email !== 'string' || !email)
      throw new ControlError('INVALID', 'setDefaultGoogleAccount expects an e-mail address.');
    try {
      this.d.accounts.setDefault(email);
    } catch (err) {
      if (err instanceof GoogleToolError && err.code === 'NO_ACCOUNT')
        throw new ControlError('NOT_FOUND', err.message);
      throw err;
    }
    this.d.events?.emit({ type: 'state.changed' });
    return this.views();
  }

  /** Cancels flows still waiting and closes their listeners. */
  stop(): void {
    this.flows.stop('Airlock is shutting down; nothing was connected.');
  }

  views(): GoogleAccountView[] {
    const def = this.d.accounts.defaultAccount()?.email;
    return this.d.accounts.accountSettings().map((a) => ({
      email: a.email,
      readOnly: a.readOnly,
      scopes: a.scopes,
      missingScopes: missingScopes(scopesFor(a.readOnly), a.scopes),
      state: a.state,
      ...(a.detail ? { detail: a.detail } : {}),
      connectedAt: a.connectedAt,
      isDefault: a.email === def,
      hasToken: true as const,
    }));
  }

  private settled(flow: ConnectFlow): void {
    this.flows.settled(flow);
    this.emit(flow);
    const state = flow.status;
    this.d.logger?.info('google consent finished', {
      flowId: flow.id,
      state,
      ...(flow.error ? { code: flow.error.code } : {}),
    });
  }

  private emit(flow: ConnectFlow): void {
    this.d.events?.emit({ type: 'google.connect', flow: this.flowView(flow) });
    if (flow.status === 'connected') this.d.events?.emit({ type: 'state.changed' });
  }

  private flowView(flow: ConnectFlow): GoogleConnectView {
    const account = flow.grant
      ? this.views().find((a) => a.email === flow.grant!.email)
      : undefined;
    return {
      flowId: flow.id,
      state: flow.status,
      ...(account ? { account } : {}),
      ...(flow.error ? { error: { code: flow.error.code, message: flow.error.message } } : {}),
    };
  }
}
