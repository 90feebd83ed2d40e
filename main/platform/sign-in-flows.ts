import { ControlError } from '../../common/contract/index.js';

/** What the registry needs of a browser sign-in (Google's ConnectFlow, a remote's LoginFlow). */
export interface SignInFlow {
  readonly id: string;
  cancel(reason?: string): void;
}

/** Longest a wait call is held (HTTP clients give up on requests that hang for minutes). */
const MAX_WAIT_MS = 30_000;
/** Finished flows stay readable this long for a late wait. */
const KEEP_FINISHED_MS = 10 * 60_000;

/**
 * The running browser sign-ins of one kind — Google consents (google/google-control.ts) and
 * remote servers' OAuth logins (remote/oauth/logins.ts), both on the loopback redirect listener
 * (loopback-redirect.ts): lookup by id, bounded long-poll waits for the CLI, finished flows kept
 * readable for 10 minutes, everything cancelled on stop (issue 31: two copies before).
 */
export class SignInFlows<F extends SignInFlow> {
  private readonly flows = new Map<string, F>();
  private readonly waiters = new Set<() => void>();

  constructor(private readonly notFound: (flowId: unknown) => string) {}

  add(flow: F): void {
    this.flows.set(flow.id, flow);
  }

  /** The flow, or NOT_FOUND with the kind's own wording. */
  get(flowId: unknown): F {
    const flow = typeof flowId === 'string' ? this.flows.get(flowId) : undefined;
    if (!flow) throw new ControlError('NOT_FOUND', this.notFound(flowId));
    return flow;
  }

  /** Cancels every flow `which` picks (a new sign-in replaces the one still waiting). */
  cancelWhere(which: (f: F) => boolean, reason: string): void {
    for (const f of this.flows.values()) if (which(f)) f.cancel(reason);
  }

  /**
   * Waits until `pending(flow)` is false — checked again on every `settled` — or `waitMs` (at
   * most 30 s) has passed, then returns the flow.
   */
  async wait(flowId: unknown, waitMs: unknown, pending: (f: F) => boolean): Promise<F> {
    const flow = this.get(flowId);
    const limit = Math.max(0, Math.min(Number(waitMs) || 0, MAX_WAIT_MS));
    if (pending(flow)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve();
        };
        const waiter = () => void (!pending(flow) && done());
        const timer = setTimeout(done, limit);
        this.waiters.add(waiter);
      });
    }
    return flow;
  }

  /** A flow is over: waiters look again; it stays readable for 10 minutes. */
  settled(flow: F, forget?: () => void): void {
    for (const w of [...this.waiters]) w();
    setTimeout(() => {
      this.flows.delete(flow.id);
      forget?.();
    }, KEEP_FINISHED_MS).unref();
  }

  /** Cancels every flow and closes their listeners. */
  stop(reason: string): void {
    this.cancelWhere(() => true, reason);
    this.flows.clear();
  }
}

/**
 * Opens the sign-in page in the system browser when there is a way to; true when it did. A
 * failure is the caller's to log: the URL is also in the answer, for the user to open.
 */
export async function openSignInPage(
  open: ((url: string) => void | Promise<void>) | undefined,
  url: string,
  onError: (message: string) => void,
): Promise<boolean> {
  if (!open) return false;
  try {
    await open(url);
    return true;
  } catch (err) {
    onError(err instanceof Error ? err.message : String(err));
    return false;
  }
}
