import { describe, expect, it } from 'vitest';
import { childEnv } from './env.js';

describe('local server environment', () => {
  it('passes only the allow-list from Airlock’s environment, plus the user’s variables', () => {
    const from = {
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'en_US.UTF-8',
      TMPDIR: '/tmp',
      AWS_SECRET_ACCESS_KEY: 'nope',
      GITHUB_TOKEN: 'nope',
      AIRLOCK_DATA_DIR: '/x',
      BASH_FUNC_x: '() { evil; }',
      SHELL: '() { :; }; evil',
    };
    expect(childEnv({ API_KEY: 'k', PATH: '/opt/bin' }, from, 'linux')).toEqual({
      PATH: '/opt/bin',
      HOME: '/home/me',
      LANG: 'en_US.UTF-8',
      TMPDIR: '/tmp',
      API_KEY: 'k',
    });
  });

  it('Windows: names match whatever their case, SystemRoot/APPDATA/USERPROFILE kept (npx.cmd needs them)', () => {
    const from = {
      Path: 'C:\\Windows;C:\\nodejs',
      SYSTEMROOT: 'C:\\Windows',
      APPDATA: 'C:\\Users\\me\\AppData\\Roaming',
      USERPROFILE: 'C:\\Users\\me',
      ComSpec: 'C:\\Windows\\system32\\cmd.exe',
      PATHEXT: '.COM;.EXE;.BAT;.CMD',
      SECRET: 'nope',
    };
    const env = childEnv({}, from, 'win32');
    expect(env).toMatchObject({
      PATH: 'C:\\Windows;C:\\nodejs',
      SystemRoot: 'C:\\Windows',
      APPDATA: 'C:\\Users\\me\\AppData\\Roaming',
      USERPROFILE: 'C:\\Users\\me',
      ComSpec: 'C:\\Windows\\system32\\cmd.exe',
      PATHEXT: '.COM;.EXE;.BAT;.CMD',
    });
    expect(Object.values(env)).not.toContain('nope');
  });
});
