/**
 * Counts the calls to an async method that have not settled yet, and resolves `reach(n)` the
 * moment n of them are pending at once: a test learns that its concurrent callers are all
 * waiting (e.g. on one held token refresh) from the calls themselves, not from a delay.
 */
export interface PendingCalls {
  /** Calls made and not yet settled. */
  readonly pending: number;
  /** Resolves once `n` calls are pending at the same time (at once if they already are). */
  reach: (n: number) => Promise<void>;
  /** Puts the original method back. */
  restore: () => void;
}

export function pendingCalls<K extends string>(
  target: { [key in K]: (...args: never[]) => Promise<unknown> },
  method: K,
): PendingCalls {
  const original = target[method];
  const own = Object.prototype.hasOwnProperty.call(target, method);
  let pending = 0;
  const waiting: { n: number; resolve: () => void }[] = [];
  const settle = () => {
    for (const w of [...waiting])
      if (pending >= w.n) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
  };
  const wrapped = (...args: never[]) => {
    pending += 1;
    settle();
    const p = original.apply(target, args);
    void p.then(
      () => void (pending -= 1),
      () => void (pending -= 1),
    );
    return p;
  };
  // An own property shadows the prototype's method until restore() deletes it.
  Object.defineProperty(target, method, { value: wrapped, configurable: true, writable: true });
  return {
    get pending() {
      return pending;
    },
    reach: (n) =>
      new Promise<void>((resolve) => {
        waiting.push({ n, resolve });
        settle();
      }),
    restore: () => {
      if (own) target[method] = original;
      else delete (target as Record<string, unknown>)[method];
    },
  };
}
