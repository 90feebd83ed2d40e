import { randomBytes } from 'node:crypto';
import { describeOAuthError } from '../errors.js';
import { scopesFor } from '../scopes.js';
import type { GoogleOAuth, TokenAnswer } from './google-oauth.js';
import { LoopbackListener } from '../../platform/loopback-redirect.js';
import { listenerPages, pages, type Page } from './pages.js';

export type FlowState = 'waiting' | 'exchanging' | 'connected' | 'failed' | 'cancelled';

export type FlowErrorCode =
  | 'ACCESS_DENIED'
  | 'TIMEOUT'
  | 'NO_REFRESH_TOKEN'
  | 'EXCHANGE_FAILED'
  | 'AUTHORIZATION_ERROR'
  | 'CANCELLED'
  | 'SAVE_FAILED';

export class ConnectFlowError extends Error {
  override name = 'ConnectFlowError';
  constructor(
    readonly code: FlowErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** What a successful consent yields; the caller stores it. */
export interface Grant {
  email: string;
  readOnly: boolean;
  tokens: TokenAnswer & { refreshToken: string };
  /** Scopes asked for (granted ones are in tokens.scopes). */
  asked: string[];
}

export interface ConnectFlowOptions {
  oauth: GoogleOAuth;
  readOnly: boolean;
  /** Reconnecting a known account: Google preselects it (`login_hint`). */
  loginHint?: string;
  timeoutMs: number;
  preferredPort?: number;
  /** Stores the grant (vault, settings); its failure fails the flow. */
  save: (grant: Grant) => Promise<void>;
  /** Every token the flow sees, so the logger can redact it. */
  onSecret?: (value: string) => void;
  onPortFallback?: (port: number, error: string) => void;
  onSettled?: (flow: ConnectFlow) => void;
}

const PERMISSIONS_URL = 'https://myaccount.google.com/permissions';
const CALLBACK_PATH = '/oauth2/callback';

/**
 * One loopback consent (issue 5, item 2): unguessable `state`, PKCE S256, a
 * listener that takes one valid callback, a deadline. `done` settles once:
 * with the connected address, or a ConnectFlowError saying what to do.
 */
export class ConnectFlow {
  readonly id = randomBytes(16).toString('base64url');
  // 256 bits: the callback is accepted only with this value (RFC 6749 §10.12).
  private readonly state = randomBytes(32).toString('base64url');
  private listener: LoopbackListener | null = null;
  private verifier = '';
  private redirect = '';
  private url = '';
  private timer: NodeJS.Timeout | null = null;
  private settle!: { resolve: (g: Grant) => void; reject: (e: ConnectFlowError) => void };
  readonly done: Promise<Grant>;
  status: FlowState = 'waiting';
  error: ConnectFlowError | null = null;
  grant: Grant | null = null;
  expiresAt = '';

  constructor(private readonly o: ConnectFlowOptions) {
    this.done = new Promise<Grant>((resolve, reject) => (this.settle = { resolve, reject }));
    // A flow nobody awaits must not crash the process with an unhandled rejection.
    this.done.catch(() => {});
  }

  get authUrl(): string {
    return this.url;
  }
  get redirectUri(): string {
    return this.redirect;
  }
  get rejectedCallbacks(): number {
    return this.listener?.rejected ?? 0;
  }

  /** Opens the listener and builds the consent URL; the deadline starts now. */
  async start(): Promise<void> {
    const listener = await LoopbackListener.open({
      state: this.state,
      path: CALLBACK_PATH,
      pages: listenerPages,
      onCallback: (p) => this.onCallback(p),
      ...(this.o.preferredPort ? { preferredPort: this.o.preferredPort } : {}),
      ...(this.o.onPortFallback ? { onPortFallback: this.o.onPortFallback } : {}),
    });
    this.listener = listener;
    const redirectUri = listener.redirectUri;
    this.redirect = redirectUri;
    const { verifier, challenge } = await this.o.oauth.pkce().catch((err: unknown) => {
      listener.close();
      throw err;
    });
    this.verifier = verifier;
    this.url = await this.o.oauth.authUrl({
      redirectUri,
      state: this.state,
      challenge,
      scopes: scopesFor(this.o.readOnly),
      ...(this.o.loginHint ? { loginHint: this.o.loginHint } : {}),
    });
    this.expiresAt = new Date(Date.now() + this.o.timeoutMs).toISOString();
    const minutes = Math.round(this.o.timeoutMs / 60_000);
    this.timer = setTimeout(
      () =>
        this.fail(
          new ConnectFlowError(
            'TIMEOUT',
            `No answer from Google within ${minutes >= 1 ? `${minutes} minutes` : `${Math.round(this.o.timeoutMs / 1000)} seconds`}; nothing was connected. Start again when ready.`,
          ),
        ),
      this.o.timeoutMs,
    );
  }

  /** Ends a flow still waiting for Google; one already exchanging the code runs to its end. */
  cancel(reason = 'The sign-in was cancelled; nothing was connected.'): void {
    if (this.status === 'waiting')
      this.fail(new ConnectFlowError('CANCELLED', reason), 'cancelled');
  }

  private async onCallback(q: URLSearchParams): Promise<Page> {
    if (this.status !== 'waiting') return pages.alreadyUsed();
    const p = {
      code: q.get('code') || undefined,
      error: q.get('error') || undefined,
      errorDescription: q.get('error_description') || undefined,
    };
    if (p.error) {
      const err =
        p.error === 'access_denied'
          ? new ConnectFlowError(
              'ACCESS_DENIED',
              'Google access was not granted (the consent screen was cancelled or denied). Nothing was connected; run the connection again to retry.',
            )
          : new ConnectFlowError(
              'AUTHORIZATION_ERROR',
              `Google answered "${p.error}"${p.errorDescription ? ` (${p.errorDescription})` : ''}. Nothing was connected.`,
            );
      this.fail(err);
      return pages.failed(
        err.code === 'ACCESS_DENIED' ? 'Access not granted' : 'Google reported an error',
        err.message,
      );
    }
    this.status = 'exchanging';
    // The code is in hand: the deadline was for the user, the exchange has its own timeouts.
    if (this.timer) clearTimeout(this.timer);
    try {
      const grant = await this.exchange(p.code ?? '');
      await this.o.save(grant).catch((err: unknown) => {
        throw new ConnectFlowError(
          'SAVE_FAILED',
          `Google granted access, but Airlock could not store it: ${err instanceof Error ? err.message : String(err)}`,
        );
      });
      this.succeed(grant);
      return pages.connected(grant.email);
    } catch (err) {
      const e =
        err instanceof ConnectFlowError
          ? err
          : new ConnectFlowError(
              'EXCHANGE_FAILED',
              err instanceof Error ? err.message : String(err),
            );
      this.fail(e);
      return pages.failed('Connection failed', e.message);
    }
  }

  private async exchange(code: string): Promise<Grant> {
    let tokens: TokenAnswer;
    try {
      tokens = await this.o.oauth.exchange({
        code,
        verifier: this.verifier,
        redirectUri: this.redirect,
      });
    } catch (err) {
      const f = describeOAuthError(err);
      const said = f.network
        ? `could not reach Google (${f.network})`
        : [f.error, f.description].filter(Boolean).join(': ') || `HTTP ${f.status}`;
      throw new ConnectFlowError(
        'EXCHANGE_FAILED',
        `Exchanging Google's code for tokens failed: ${said}. Nothing was connected; try again.`,
      );
    }
    this.o.onSecret?.(tokens.accessToken);
    if (tokens.refreshToken) this.o.onSecret?.(tokens.refreshToken);
    if (!tokens.refreshToken) {
      // Google sends a refresh token only on a fresh consent; without one Airlock
      // would stop working within the hour (Google, "OAuth 2.0 for installed apps").
      throw new ConnectFlowError(
        'NO_REFRESH_TOKEN',
        `Google did not send a refresh token, so Airlock could not keep access. Remove Airlock's access at ${PERMISSIONS_URL}, then connect again.`,
      );
    }
    let email: string;
    try {
      email = await this.o.oauth.email(tokens.accessToken);
    } catch (err) {
      throw new ConnectFlowError(
        'EXCHANGE_FAILED',
        `Could not learn which Google account was connected: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    return {
      email,
      readOnly: this.o.readOnly,
      tokens: { ...tokens, refreshToken: tokens.refreshToken },
      asked: scopesFor(this.o.readOnly),
    };
  }

  private succeed(grant: Grant): void {
    this.finish();
    this.status = 'connected';
    this.grant = grant;
    this.settle.resolve(grant);
    this.o.onSettled?.(this);
  }

  private fail(err: ConnectFlowError, status: FlowState = 'failed'): void {
    if (this.status === 'connected' || this.status === 'failed' || this.status === 'cancelled')
      return;
    this.finish();
    this.status = status;
    this.error = err;
    this.settle.reject(err);
    this.o.onSettled?.(this);
  }

  private finish(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // A page still being written (the accepted callback's) finishes first.
    this.listener?.close();
  }
}
