import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../test-support/temp-dir.js';
import { serve } from './serve.js';

/**
 * `airlock serve` lowers V8's tier-up thresholds only once it is ready (platform/tier-up.ts): as a
 * launch flag they made start-up compile its own loops (cold start and idle RSS, issue 34). The
 * order is read from what serve itself writes and hands V8 (EarlyTierUp's hook), and the stop is
 * the SIGTERM handler serve installs, called directly so the test runner's own are not.
 */
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('airlock serve and V8’s tier-up', () => {
  it('lowers the thresholds after the ready line and puts V8’s defaults back at stop', async () => {
    const dir = tempDir('airlock-tier-up-');
    vi.stubEnv('AIRLOCK_VAULT', 'file');
    vi.stubEnv('AIRLOCK_VAULT_PASSPHRASE', '');
    vi.stubEnv('AIRLOCK_VAULT_KEY_FILE', join(dir, 'vault.key'));
    const events: string[] = [];
    const before = new Set(process.listeners('SIGTERM'));
    let stops: NodeJS.SignalsListener[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      if (String(chunk).includes('"event":"ready"')) {
        events.push('ready line');
        // The stop is driven by the ready line, not by the flag being set: serve runs on
        // synchronously from this write to its wait for a signal (tier-up included), so a
        // microtask lands after it, and a serve that never sets the flag fails here at once
        // rather than hanging until the test's timeout (no clock decides this test).
        queueMicrotask(() => {
          stops = process.listeners('SIGTERM').filter((l) => !before.has(l));
          events.push('SIGTERM');
          for (const stop of stops) (stop as () => void)();
        });
      }
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const code = serve({
      port: 0,
      dataDir: join(dir, 'data'),
      youngGeneration: false,
      tierUp: { startFlags: [], setFlags: (f) => events.push(f) },
    });
    expect(await code).toBe(0);
    expect(stops).toHaveLength(1);
    expect(events).toEqual([
      'ready line',
      '--invocation-count-for-turbofan=200',
      'SIGTERM',
      '--invocation-count-for-turbofan=3000',
    ]);
  }, 60_000);
});
