import type { RemoteLoginStart, RemoteLoginView } from '../../../common/contract/index.js';
import { ControlError } from '../../../common/contract/index.js';
import type { CoreEvents } from '../../platform/events.js';
import type { Logger } from '../../platform/log.js';
import { LoginError } from './errors.js';
import { LoginFlow, type LoginFlowOptions } from './login-flow.js';

export interface RemoteLoginsDeps {
  events?: CoreEvents;
  logger?: Logger;
  /** After a sign-in saved its tokens: reconnect that server. */
  onSignedIn: (name: string) => Promise<void>;
}

const MAX_WAIT_MS = 30_000;
/** Finished flows stay readable this long for a late waitRemoteLogin. */
const KEEP_FINISHED_MS = 10 * 60_000;
/** How long a sign-in may take (the same 5 minutes the Google consent gets). */
export const LOGIN_TIMEOUT_MS = 5 * 60_000;

/**
 * The running sign-ins of remote servers: at most one per server (a new one
 * cancels the one still waiting, closing its listener), long-poll waits for
 * the CLI, `remote.login` events for UIs.
 */
export class RemoteLogins {
  private readonly flows = new Map<string, LoginFlow>();
  private readonly waiters = new Set<() => void>();
  /** Finished flows whose follow-up (reconnect) is over: a wait returns only then, so the tools are there. */
  private readonly announced = new Set<string>();

  constructor(private readonly d: RemoteLoginsDeps) {}

  async start(
    o: Omit<LoginFlowOptions, 'onUpdate' | 'logger'>,
    openBrowser?: (url: string) => void | Promise<void>,
  ): Promise<RemoteLoginStart> {
    for (const f of this.flows.values())
      if (f.name === o.name) f.cancel('A newer sign-in was started; this one was cancelled.');
    const flow: LoginFlow = new LoginFlow({
      ...o,
      ...(this.d.logger ? { logger: this.d.logger } : {}),
      onUpdate: (f) => this.updated(f),
    });
    try {
      await flow.start();
    } catch (err) {
      if (err instanceof LoginError)
        throw new ControlError('INVALID', `${err.message} [${err.code}]`);
      throw err;
    }
    this.flows.set(flow.id, flow);
    this.emit(flow);
    let browserOpened = false;
    if (openBrowser) {
      try {
        await openBrowser(flow.authUrl);
        browserOpened = true;
      } catch (err) {
        this.d.logger?.warn('could not open the browser for a remote sign-in', {
          server: o.name,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
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
    const flow = this.flow(flowId);
    const limit = Math.max(0, Math.min(Number(waitMs) || 0, MAX_WAIT_MS));
    if (this.pending(flow)) {
      // Bounded long poll: HTTP clients give up on requests that hang for minutes.
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve();
        };
        const waiter = () => void (!this.pending(flow) && done());
        const timer = setTimeout(done, limit);
        this.waiters.add(waiter);
      });
    }
    return view(flow);
  }

  async cancel(flowId: string): Promise<RemoteLoginView> {
    const flow = this.flow(flowId);
    flow.cancel();
    return view(flow);
  }

  stop(): void {
    for (const f of this.flows.values()) f.cancel('Airlock is shutting down; nothing changed.');
    this.flows.clear();
  }

  private updated(flow: LoginFlow): void {
    if (running(flow)) return this.emit(flow);
    const finish = async () => {
      if (flow.status === 'signed-in') await this.d.onSignedIn(flow.name).catch(() => {});
      this.announced.add(flow.id);
      for (const w of [...this.waiters]) w();
      this.emit(flow);
      setTimeout(() => {
        this.flows.delete(flow.id);
        this.announced.delete(flow.id);
      }, KEEP_FINISHED_MS).unref();
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

  private flow(flowId: string): LoginFlow {
    const flow = typeof flowId === 'string' ? this.flows.get(flowId) : undefined;
    if (!flow)
      throw new ControlError(
        'NOT_FOUND',
        `No sign-in ${JSON.stringify(flowId)} (it finished more than 10 minutes ago, or Airlock restarted).`,
      );
    return flow;
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
