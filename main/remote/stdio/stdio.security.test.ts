import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { PROXY_AND_CA } from './env.js';
import { startRemoteApp, type RemoteTestApp } from '../../../test-support/remote-app.js';
import { tempDir } from '../../../test-support/temp-dir.js';

/**
 * Issue 15: a local server's arguments are an argv, never a shell line — shell
 * metacharacters in them run nothing — and the server does not inherit
 * Airlock's environment.
 */
const cleanup = cleanupAfterEach();

describe('local server launch', () => {
  it('shell metacharacters in arguments reach the program verbatim and run nothing; cwd and env are as given', async () => {
    const t: RemoteTestApp = await startRemoteApp();
    cleanup.push(() => t.stop());
    const dir = realpathSync(tempDir('airlock-argv-'));
    const out = join(dir, 'seen.json');
    const pwned = join(dir, 'pwned');
    const hostile = [
      `$(touch ${pwned})`,
      `; touch ${pwned}`,
      `\`touch ${pwned}\``,
      `| touch ${pwned}`,
      `& touch ${pwned}`,
      `"quoted" 'single' two words`,
      '%PATH% !x! ^',
      '*',
    ];
    const dump = `require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ argv: process.argv.slice(1), cwd: process.cwd(), env: process.env })); process.exit(1)`;
    process.env.AIRLOCK_PARENT_SECRET = 'parent-secret-should-not-leak';
    try {
      await t.app.control.addRemote({
        name: 'argv',
        stdio: {
          command: process.execPath,
          args: ['-e', dump, ...hostile],
          cwd: dir,
          env: { ONLY: 'this' },
        },
      });
    } finally {
      delete process.env.AIRLOCK_PARENT_SECRET;
    }
    const seen = JSON.parse(readFileSync(out, 'utf8')) as {
      argv: string[];
      cwd: string;
      env: Record<string, string>;
    };
    expect(seen.argv).toEqual(hostile);
    expect(existsSync(pwned)).toBe(false);
    expect(seen.cwd).toBe(dir);
    expect(seen.env.ONLY).toBe('this');
    expect(seen.env.AIRLOCK_PARENT_SECRET).toBeUndefined();
    expect(
      Object.keys(seen.env).every((k) =>
        [
          'PATH',
          'HOME',
          'USER',
          'LOGNAME',
          'SHELL',
          'TERM',
          'LANG',
          'LC_ALL',
          'TMPDIR',
          'ONLY',
          // The proxy and CA settings pass through too (issue 29, item 6), and nothing else.
          ...PROXY_AND_CA,
          // Set by the sandbox (bubblewrap) to the working folder; nothing of Airlock's.
          'PWD',
        ].includes(k),
      ),
    ).toBe(true);
  });
});
