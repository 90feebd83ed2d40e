import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatRemote } from '../../cli/remote.js';
import { startRemoteApp } from '../../../test-support/remote-app.js';
import { secretText } from '../../../test-support/secret-arbitraries.js';
import { tempDir } from '../../../test-support/temp-dir.js';

/**
 * Issue 29, item 6: behind a proxy, `npx` in a local server needs the proxy and CA settings.
 * They pass through from Airlock's environment by default, the server list says which, and a
 * proxy password stays out of views, status texts and logs.
 */
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const c of cleanup.splice(0).reverse()) await c().catch(() => {});
});

const PASSWORD = 'pr0xy-pass-7781';

describe('local servers get the proxy and CA settings', () => {
  it('passed through to the process, shown in the view and `remote list`, the password masked', async () => {
    vi.stubEnv('HTTPS_PROXY', `http://alice:${PASSWORD}@127.0.0.1:9`);
    vi.stubEnv('no_proxy', 'localhost,127.0.0.1');
    vi.stubEnv('NODE_EXTRA_CA_CERTS', '/etc/corp-ca.pem');
    vi.stubEnv('SSL_CERT_FILE', '/etc/ssl/certs/ca-certificates.crt');
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    const out = join(tempDir('airlock-proxy-env-'), 'env.json');
    // Like npx behind a proxy that refuses: says what it used on stderr and quits.
    const dumper = `require('node:fs').writeFileSync(process.env.OUT, JSON.stringify(process.env));console.error('npm error proxy ' + process.env.HTTPS_PROXY);process.exit(1)`;
    const v = await t.app.control.addRemote({
      name: 'px',
      stdio: {
        command: process.execPath,
        args: ['-e', dumper],
        env: { OUT: out },
        // It writes what it saw next to the test; its sandbox (issue 35) lets it write only there.
        sandbox: { write: [dirname(out)] },
      },
    });
    const env = JSON.parse(readFileSync(out, 'utf8')) as Record<string, string>;
    expect(env).toMatchObject({
      HTTPS_PROXY: `http://alice:${PASSWORD}@127.0.0.1:9`,
      no_proxy: 'localhost,127.0.0.1',
      NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem',
      SSL_CERT_FILE: '/etc/ssl/certs/ca-certificates.crt',
    });
    expect(v.stdio?.passedEnv).toEqual({
      HTTPS_PROXY: 'http://***@127.0.0.1:9',
      no_proxy: 'localhost,127.0.0.1',
      NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem',
      SSL_CERT_FILE: '/etc/ssl/certs/ca-certificates.crt',
    });
    expect(formatRemote(v)).toContain(
      "from Airlock's env: HTTPS_PROXY, no_proxy, NODE_EXTRA_CA_CERTS, SSL_CERT_FILE",
    );
    expect(v.detail).toContain('npm error proxy http://alice:[redacted]@127.0.0.1:9');
    expect(JSON.stringify(await t.app.control.listRemotes())).not.toContain(PASSWORD);
    const logs = readdirSync(join(t.dataDir, 'logs'))
      .map((f) => readFileSync(join(t.dataDir, 'logs', f), 'utf8'))
      .join('\n');
    expect(logs).toContain('local server stderr');
    expect(logs).not.toContain(PASSWORD);
  });

  it.each([
    ['tuning', 1],
    ['held out', 6_007],
  ])(
    'no scheme, or "@" in the password: masked and redacted as curl reads it (%s seed)',
    async (_label, seed) => {
      // Generated passwords with an '@' in them; '/', '?', '#', '%' escaped as a user must.
      const [a, b] = fc
        .sample(secretText('tuning'), { seed, numRuns: 2 })
        .map((p) => `${p.slice(0, 4)}@${p.slice(4)}`.replace(/[/?#%]/g, encodeURIComponent));
      vi.stubEnv('HTTPS_PROXY', `bob:${a}@127.0.0.1:9`);
      vi.stubEnv('HTTP_PROXY', `http://bob:${b}@127.0.0.1:9`);
      const t = await startRemoteApp();
      cleanup.push(() => t.stop());
      const says = `console.error('proxy ' + process.env.HTTPS_PROXY + ' ' + process.env.HTTP_PROXY);process.exit(1)`;
      const v = await t.app.control.addRemote({
        name: 'px',
        stdio: { command: process.execPath, args: ['-e', says] },
      });
      expect(v.stdio?.passedEnv).toMatchObject({
        HTTPS_PROXY: '***@127.0.0.1:9',
        HTTP_PROXY: 'http://***@127.0.0.1:9',
      });
      expect(v.detail).toContain(
        'proxy bob:[redacted]@127.0.0.1:9 http://bob:[redacted]@127.0.0.1:9',
      );
      const list = JSON.stringify(await t.app.control.listRemotes());
      await t.stop();
      const logs = readdirSync(join(t.dataDir, 'logs'))
        .map((f) => readFileSync(join(t.dataDir, 'logs', f), 'utf8'))
        .join('\n');
      expect(logs).toContain('local server stderr');
      for (const pw of [a!, b!, decodeURIComponent(a!), decodeURIComponent(b!)]) {
        const inJson = JSON.stringify(pw).slice(1, -1);
        expect(list).not.toContain(inJson);
        expect(logs).not.toContain(inJson);
      }
    },
  );
});
