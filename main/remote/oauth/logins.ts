import type { RemoteLoginStart, RemoteLoginView } from '../../../common/contract/index.js';
import { ControlError } from '../../../common/contract/index.js';
import type { CoreEvents } from '../../platform/events.js';
import type { Logger } from '../../platform/log.js';
import { openSignInPage, SignInFlows } from '../../platform/sign-in-flows.js';
import { LoginError } from './errors.js';
import { LoginFlow, type LoginFlowOptions } from './login-flow.js';
import type { Resolver } from '../http/address-guard.js';

export interface RemoteLoginsDeps {
  events?: CoreEvents;
  logger?: Logger;
  /** The resolver sign-ins connect by (address-guard.ts); the system's by default. */
  resolve?: Resolver;
  /** After a sign-in saved its tokens: reconnect that server. */
  onSignedIn: (name: string) => Promise<void>;
}

/** How long a sign-in may take (the same 5 minutes the Google consent gets). */
export const LOGIN_TIMEOUT_MS = 5 * 60_000;

/**
 * The running sign-ins of remote servers: at most one per server (a new one
 * cancels the one still waiting, closing its listener), long-poll waits for
 * the CLI, `remote.login` events for UIs.
 */
export class RemoteLogins {
  private readonly flows = new SignInFlows<LoginFlow>(
    (flowId) =>
      `No sign-in ${JSON.stringify(flowId)} (it finished more than 10 minutes ago, or Airlock restarted).`,
  );
  /** Finished flows whose follow-up (reconnect) is over: a wait returns only then, so the tools are there. */
  private readonly announced = new Set<string>();

  constructor(private readonly d: RemoteLoginsDeps) {}

  async start(
    o: Omit<LoginFlowOptions, 'onUpdate' | 'logger'>,
    openBrowser?: (url: string) => void | Promise<void>,
  ): Promise<RemoteLoginStart> {
    this.flows.cancelWhere(
      (f) => f.name === o.name,
      'A newer sign-in was started; this one was cancelled.',
    );
    const flow: LoginFlow = new LoginFlow({
      ...o,
      ...(this.d.logger ? { logger: this.d.logger } : {}),
      ...(this.d.resolve ? { resolve: this.d.resolve } : {}),
      onUpdate: (f) => this.updated(f),
    });
    try {
      await flow.start();
    } catch (err) {
      if (err instanceof LoginError)
        throw new ControlError('INVALID', `${err.message} [${err.code}]`);
      throw err;
    }
    this.flows.add(flow);
    this.emit(flow);
    const browserOpened = await openSignInPage(openBrowser, flow.authUrl, (error) =>
      this.d.logger?.warn('could not open the browser for a remote sign-in', {
        server: o.name,
        error,
      }),
    );
    return {
      flowId: flow.id,
      name: o.name,
      authUrl: flow.authUrl,
      redirectUri: flow.redirectUri,
      expiresAt: flow.expiresAt,
      browserOpened,
    };
  }

  async wait(flowId: string, waitMs = 25_000): Promise<RemoteLoginView> {
    return view(await this.flows.wait(flowId, waitMs, (f) => this.pending(f)));
  }

  async cancel(flowId: string): Promise<RemoteLoginView> {
    const flow = this.flows.get(flowId);
    flow.cancel();
    return view(flow);
  }

  stop(): void {
    this.flows.stop('Airlock is shutting down; nothing changed.');
  }

  private updated(flow: LoginFlow): void {
    if (running(flow)) return this.emit(flow);
    const finish = async () => {
      if (flow.status === 'signed-in') await this.d.onSignedIn(flow.name).catch(() => {});
      this.announced.add(flow.id);
      this.flows.settled(flow, () => this.announced.delete(flow.id));
      this.emit(flow);
    };
    void finish();
  }

  private emit(flow: LoginFlow): void {
    this.d.events?.emit({ type: 'remote.login', flow: view(flow) });
    if (flow.status === 'signed-in') this.d.events?.emit({ type: 'state.changed' });
  }

  private pending(f: LoginFlow): boolean {
    return running(f) || !this.announced.has(f.id);
  }
}

function running(f: LoginFlow): boolean {
  return f.status === 'waiting' || f.status === 'exchanging';
}

function view(f: LoginFlow): RemoteLoginView {
  return {
    flowId: f.id,
    name: f.name,
    state: f.status,
    ...(f.error ? { error: { ...f.error } } : {}),
  };
}
