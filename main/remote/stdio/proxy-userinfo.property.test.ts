import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SandboxView } from '../../../common/contract/index.js';
import { Logger } from '../../platform/log.js';
import { proxyPasswords } from './env.js';
import { StdioProcessLog } from './process-log.js';
import { proxyUserinfo } from './proxy-userinfo.js';
import { stdioView, type StdioSettings } from './stdio-config.js';
import { secretText, type SecretFamily } from '../../../test-support/secret-arbitraries.js';
import { tempDir } from '../../../test-support/temp-dir.js';

/**
 * A proxy variable's password, read as the tools that use it read it (curl, pip: no scheme means
 * http://, the userinfo ends at the last '@'), is masked in the server list and kept out of the
 * log and the stderr excerpt. Checked against WHATWG URL given the scheme curl assumes, and on
 * what leaves: the view the UI shows (stdioView), the log file written, the status excerpt.
 */
const NAMES = ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'] as const;
const scheme = fc.constantFrom('', 'http://', 'https://', 'HTTP://', 'socks5://', 'socks5h://');
const host = fc.constantFrom('proxy.corp:3128', '127.0.0.1:9', '[::1]:8080', 'p.example');

/** A password as a user writes it: raw characters ('@' and ':' among them) and %-escapes. */
function writtenPassword(family: SecretFamily): fc.Arbitrary<string> {
  // A raw '/', '?', '#' or '\' ends the authority for every reader; '%' starts an escape.
  const raw = secretText(family, 1).map((s) => s.replace(/[/?#\\%]/g, ''));
  const escaped = secretText(family, 1).map((s) => {
    try {
      return encodeURIComponent(s);
    } catch {
      return ''; // a lone surrogate cannot be UTF-8
    }
  });
  return fc
    .array(fc.oneof(raw, escaped), { minLength: 1, maxLength: 3 })
    .map((ps) => ps.join(''))
    .filter((p) => p.length > 0);
}

const proxyValue = (family: SecretFamily) =>
  fc.record({
    scheme,
    user: secretText(family, 1).map((u) => u.replace(/[:/?#\\%]/g, '') || 'u'),
    password: writtenPassword(family),
    host,
  });

function asCurlReadsIt(value: string): URL {
  return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
}

function checked(family: SecretFamily, seed: number, numRuns: number): void {
  const root = tempDir('airlock-proxy-userinfo-');
  let n = 0;
  fc.assert(
    fc.property(proxyValue(family), fc.constantFrom(...NAMES), (p, name) => {
      const value = `${p.scheme}${p.user}:${p.password}@${p.host}`;
      const url = asCurlReadsIt(value);
      const sent = decodeURIComponent(url.password); // what the tool sends (Proxy-Authorization)
      expect(url.host).toBe(p.host.toLowerCase());
      expect(proxyUserinfo(value)?.passwords).toContain(sent);

      const from = { PATH: '/usr/bin', [name]: value };
      const settings: StdioSettings = { command: 'x', args: [], env: {}, secretEnvNames: [] };
      const shown = stdioView(settings, {} as SandboxView, from).passedEnv?.[name];
      expect(shown).toBe(`${p.scheme}***@${p.host}`);

      // As StdioConfig.connection registers them; then a server prints its proxy on stderr.
      const dir = join(root, String(n++));
      const logger = new Logger({ dir, stderr: false });
      const hidden = proxyPasswords(from, 'linux');
      for (const v of hidden) logger.registerSecret(v);
      const processLog = new StdioProcessLog('px', logger);
      processLog.setSecrets(hidden);
      processLog.stderr(`npm error proxy ${value} pw=${sent} raw=${p.password}`);
      const file = readFileSync(join(dir, 'airlock.log'), 'utf8');
      for (const secret of [sent, p.password]) {
        // Each side's own minimum: the logger 8, the status excerpt 4 (a shorter one is kept).
        if (secret.length >= 8) expect(file).not.toContain(JSON.stringify(secret).slice(1, -1));
        if (secret.length >= 4) expect(processLog.stderrTail()).not.toContain(secret);
      }
    }),
    { seed, numRuns },
  );
}

describe('a proxy password is read as curl and pip read it', () => {
  it('schemes or none, "@" and ":" in it, %-escapes (tuning seed)', () => {
    checked('tuning', 1, 300);
  });

  it('held out: any UTF-16 in user and password, another seed', () => {
    checked('heldOut', 7_331, 300);
  });

  it('the audit’s cases', () => {
    const from = {
      HTTPS_PROXY: 'bob:s3cret-pw@proxy.corp:3128',
      HTTP_PROXY: 'http://bob:p@ss-word@proxy.corp:3128',
    };
    const settings: StdioSettings = { command: 'x', args: [], env: {}, secretEnvNames: [] };
    expect(stdioView(settings, {} as SandboxView, from).passedEnv).toEqual({
      HTTPS_PROXY: '***@proxy.corp:3128',
      HTTP_PROXY: 'http://***@proxy.corp:3128',
    });
    // Raw, and as WHATWG URL prints it ('@' percent-encoded in userinfo).
    expect(proxyPasswords(from, 'linux').sort()).toEqual(['p%40ss-word', 'p@ss-word', 's3cret-pw']);
    // No userinfo: shown as is, nothing to learn; a user without a password is masked too.
    expect(proxyUserinfo('http://proxy.corp:3128/a')).toBeUndefined();
    expect(proxyUserinfo('http://token@proxy.corp')?.passwords).toEqual([]);
    // An unescaped '/' in the password: every tool misreads it; it is still not shown or logged.
    expect(proxyUserinfo('http://bob:pa/ss-word@proxy')?.passwords).toContain('pa/ss-word');
  });
});
