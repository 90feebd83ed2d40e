import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { airlockBin, requireBuilt, startUntilReady, stop } from '../../test-support/cli-process.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * `airlock serve` sets V8 flags at run time (platform/young-generation.ts before start-up,
 * platform/tier-up.ts after the ready line). Under `--freeze-flags-after-init` V8 ends the
 * process at the first such call ("Check failed: !IsFrozen()"), so serve must set none there, and
 * under `--jitless` (which Node also takes from NODE_OPTIONS) it serves as usual. Seen as a user
 * sees it: the built CLI started with the flag, ready, stopped cleanly.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tmp(name: string): string {
  const dir = tempDir(`airlock-serve-flags-${name}-`);
  dirs.push(dir);
  return dir;
}

describe('airlock serve under V8 flags that forbid or void its run-time settings', () => {
  for (const [how, args, nodeOptions] of [
    ['--freeze-flags-after-init', ['--freeze-flags-after-init'], ''],
    ['--jitless in NODE_OPTIONS', [], '--jitless'],
  ] as const) {
    it(`is ready and stops cleanly with ${how}`, async () => {
      requireBuilt();
      const env = {
        ...process.env,
        HOME: tmp('home'),
        AIRLOCK_VAULT: 'file',
        AIRLOCK_VAULT_PASSPHRASE: 'serve flags test passphrase',
        NODE_OPTIONS: nodeOptions,
      };
      const { child, ready, stderr } = await startUntilReady(
        process.execPath,
        [...args, airlockBin, 'serve', '--port', '0', '--data-dir', tmp('data')],
        env,
      );
      expect(ready.event).toBe('ready');
      expect(await stop(child)).toBe(0);
      expect(stderr()).not.toMatch(/Check failed|IsFrozen/);
    }, 60_000);
  }
});
