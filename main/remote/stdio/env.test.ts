import { describe, expect, it } from 'vitest';
import { childEnv, passedThrough, PROXY_AND_CA } from './env.js';

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

  it('proxy and CA settings pass through by default, both cases (issue 29, item 6)', () => {
    const from = {
      PATH: '/usr/bin',
      HTTPS_PROXY: 'http://alice:s3cret-pw@proxy.corp:3128',
      http_proxy: 'http://proxy.corp:3128',
      NO_PROXY: 'localhost,.corp',
      no_proxy: 'localhost',
      NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem',
      SSL_CERT_FILE: '/etc/ssl/certs/ca.pem',
      AWS_SECRET_ACCESS_KEY: 'nope',
    };
    const env = childEnv({ NO_PROXY: 'only-mine' }, from, 'linux');
    expect(env).toEqual({
      PATH: '/usr/bin',
      HTTPS_PROXY: 'http://alice:s3cret-pw@proxy.corp:3128',
      http_proxy: 'http://proxy.corp:3128',
      NO_PROXY: 'only-mine', // the server's own setting wins
      no_proxy: 'localhost',
      NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem',
      SSL_CERT_FILE: '/etc/ssl/certs/ca.pem',
    });
    expect([...PROXY_AND_CA].sort()).toEqual(
      ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy']
        .concat(['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE'])
        .sort(),
    );
    // What the server list shows is picked by the same list and lookup, a proxy password masked.
    const shown = passedThrough({ NO_PROXY: 'only-mine' }, from, 'linux');
    expect(shown).toEqual({
      HTTPS_PROXY: 'http://***@proxy.corp:3128',
      http_proxy: 'http://proxy.corp:3128',
      no_proxy: 'localhost',
      NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem',
      SSL_CERT_FILE: '/etc/ssl/certs/ca.pem',
    });
    for (const k of Object.keys(shown)) expect(env[k]).toBe(from[k as keyof typeof from]);
  });

  it('Windows: the proxy variables are found whatever their case', () => {
    const env = childEnv({}, { Path: 'C:\\bin', Https_Proxy: 'http://p:8080' }, 'win32');
    expect(env).toMatchObject({ HTTPS_PROXY: 'http://p:8080' });
    expect(env).not.toHaveProperty('https_proxy');
  });
});
