import { vi } from 'vitest';

/**
 * Re-checks `check` until it passes, for a state no event announces (a fake window shown, a row
 * flushed). vi.waitFor's default timeout (1 s) is a clock that decides tests on a loaded machine
 * (issue 29 item 2); here the timeout is only a safety net, under vitest's testTimeout so that a
 * failure names the check rather than the test. Prefer waiting on an event where there is one.
 */
export function eventually<T>(check: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: 30_000, interval: 20 });
}
