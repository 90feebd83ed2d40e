/**
 * Abort hooks without an EventTarget listener (issue 34, docs/performance.md "The code one call
 * runs, counted"). A plain tools/call joins two signals by two `abort` listeners (the agent's
 * cancel into the call's cut-off, remote-calls.ts; that into the upstream request's cancel,
 * lean-call.ts), and Node's `addEventListener` / `removeEventListener` run ≈ 14 functions of
 * node:internal/event_target (the listener's validation and options, its `Listener` record and
 * weak-ref flags, the list's removal) that nothing else on that path runs.
 *
 * A CallAbortController's signal keeps its hooks in a plain set instead: `onAbort` adds one,
 * `offAbort` takes it off, and `abort()` runs them once, right after the signal's own dispatch
 * (WHATWG DOM "signal abort": the signal is aborted with its reason before any listener runs, so
 * a hook sees what a listener would). Any other signal (the SDK's own controllers, a caller's)
 * gets an ordinary `{ once: true }` listener, as before. A hook that throws is reported as a
 * throwing listener is, an uncaught exception on the next tick (Node's event_target.js
 * `emitUncaughtException`), and does not keep the others from running. As for listeners, a hook
 * taken off while the hooks run does not run, and one added then (or later) never does.
 * Unlike listeners, hooks run after all of the signal's listeners, whenever they were added.
 */
const HOOKS = Symbol('abort hooks');

type Hook = () => void;
type Hooked = AbortSignal & { [HOOKS]?: Set<Hook> };

/** An AbortController whose signal takes abort hooks (onAbort) without a listener. */
export class CallAbortController extends AbortController {
  constructor() {
    super();
    (this.signal as Hooked)[HOOKS] = new Set();
  }

  override abort(reason?: unknown): void {
    const signal = this.signal as Hooked;
    if (signal.aborted) return;
    super.abort(reason);
    const hooks = signal[HOOKS];
    if (!hooks || hooks.size === 0) return;
    for (const hook of [...hooks]) {
      // One an earlier hook took off (offAbort) does not run, as a listener removed during the
      // dispatch does not (WHATWG DOM "remove an event listener" sets its removed flag).
      if (!hooks.delete(hook)) continue;
      try {
        hook();
      } catch (error) {
        process.nextTick(() => {
          throw error;
        });
      }
    }
  }
}

/** Runs `hook` once when `signal` aborts (not if it already has), as a `once` listener would. */
export function onAbort(signal: AbortSignal, hook: Hook): void {
  const hooks = (signal as Hooked)[HOOKS];
  // One added to an aborted signal (or by a hook while abort() runs them) never runs, as a
  // listener added after the dispatch never does: it is not kept either, so nothing holds it.
  if (hooks) {
    if (!signal.aborted) hooks.add(hook);
  } else signal.addEventListener('abort', hook, { once: true });
}

/** Takes a hook onAbort added off again (a no-op for one that ran or was never added). */
export function offAbort(signal: AbortSignal, hook: Hook): void {
  const hooks = (signal as Hooked)[HOOKS];
  if (hooks) hooks.delete(hook);
  else signal.removeEventListener('abort', hook);
}
