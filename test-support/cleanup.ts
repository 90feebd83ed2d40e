import { afterEach } from 'vitest';

/**
 * What a test started (servers, apps, clients), stopped after each test in reverse order, a
 * failing stop ignored so the rest still stop. Call it at a test file's top level, where it
 * registers its afterEach; push a stop function for each thing started.
 */
export function cleanupAfterEach(): (() => Promise<unknown>)[] {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c().catch(() => {});
  });
  return cleanup;
}
