/**
 * The real timers, taken when this module loads, before any test fakes them: the polling below
 * runs on real time whatever the test does with its clock.
 */
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

/** Between two checks. */
const INTERVAL_MS = 20;
/** Only a safety net, under vitest's testTimeout so that a failure names the check, not the test. */
const SAFETY_NET_MS = 30_000;

/**
 * Re-checks `check` until it passes, for a state no event announces (a fake window shown, a row
 * flushed). vi.waitFor's default timeout (1 s) is a clock that decides tests on a loaded machine
 * (issue 29 item 2); here the timeout is only a safety net. Prefer waiting on an event where
 * there is one.
 *
 * Not vi.waitFor underneath: while a test's timers are fake, vi.waitFor advances them by its
 * interval on every check, so a wait on a slow machine (more checks) moved the test's fake
 * clock further — past a bound the test meant to trigger itself. Here a fake clock moves only
 * when the test moves it.
 */
export function eventually<T>(check: () => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const net = realSetTimeout(() => (expired = true), SAFETY_NET_MS);
    const attempt = async (): Promise<void> => {
      try {
        const value = await check();
        realClearTimeout(net);
        resolve(value);
      } catch (err) {
        if (expired) reject(err instanceof Error ? err : new Error(String(err)));
        else realSetTimeout(() => void attempt(), INTERVAL_MS);
      }
    };
    void attempt();
  });
}
