import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkGrant, keychainPaths } from './protected-paths.js';

/**
 * The keychain's files are protected wherever the login session's daemon may keep them, not only
 * under the XDG_DATA_HOME this process happens to have: a sandbox grant of the default folder
 * must be refused when Airlock runs with another XDG_DATA_HOME.
 */
describe('keychainPaths (Linux)', () => {
  const home = '/home/u';
  const paths = (env: NodeJS.ProcessEnv) => keychainPaths('linux', env, home).map((p) => p.path);

  it('XDG_DATA_HOME moved: its keyrings and the default ones are both protected', () => {
    const got = paths({ XDG_DATA_HOME: '/srv/u-data' });
    expect(got).toEqual(
      expect.arrayContaining([
        '/srv/u-data/keyrings',
        '/srv/u-data/kwalletd',
        join(home, '.local/share/keyrings'),
        join(home, '.local/share/kwalletd'),
        join(home, '.gnome2/keyrings'),
      ]),
    );
    const guard = keychainPaths('linux', { XDG_DATA_HOME: '/srv/u-data' }, home);
    expect(checkGrant(join(home, '.local/share'), guard, home, 'linux').refused).toBeTruthy();
    expect(checkGrant('/srv/u-data', guard, home, 'linux').refused).toBeTruthy();
  });

  it('unset, empty or relative XDG_DATA_HOME: the default folder only, listed once', () => {
    for (const env of [{}, { XDG_DATA_HOME: '' }, { XDG_DATA_HOME: 'rel/data' }]) {
      const got = paths(env);
      expect(got.filter((p) => p.endsWith('/keyrings'))).toEqual([
        join(home, '.local/share/keyrings'),
        join(home, '.gnome2/keyrings'),
      ]);
      expect(got.some((p) => p.startsWith('rel'))).toBe(false);
    }
    expect(
      paths({ XDG_DATA_HOME: join(home, '.local/share') }).filter((p) => p.endsWith('/keyrings')),
    ).toHaveLength(2);
  });
});
