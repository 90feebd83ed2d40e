import { describe, expect, it } from 'vitest';
import { passedThrough, proxyPasswords } from '../remote/stdio/env.js';
import { Redactor } from './redactor.js';

// The review of the redaction round (wave 3 session 36): forms a secret leaves in that the first
// round missed, and ordinary text it must not take out.
const redactor = (...values: string[]) => {
  const r = new Redactor();
  r.set(values);
  return r;
};

describe('the forms a configured credential leaves in', () => {
  it('a letters-only token after a known scheme is split from it, whatever its case', () => {
    for (const v of ['Bearer AbCdEfGhIjKlMnOp', 'bearer qwertyuiopasdf', 'Token abcdefghij'])
      expect(redactor(v).text(`echo ${v.split(' ')[1]}`)).toBe('echo [redacted]');
  });

  it('after an unknown word only what reads as a credential: not a word, a version, a date, a number, a setting', () => {
    for (const v of [
      'eu production',
      'aws us-east-1',
      'Client 2026-12-07',
      'tenant 100000',
      'flags beta=true',
    ]) {
      const second = v.slice(v.indexOf(' ') + 1);
      expect(redactor(v).text(`log: ${second}`), v).toBe(`log: ${second}`);
      expect(redactor(v).text(v), v).toBe('[redacted]');
    }
    // A number in a structured result stays a number.
    expect(redactor('tenant 100000').result({ n: 1000000 })).toEqual({ n: 1000000 });
    // An API key after a made-up word is split out.
    expect(redactor('X ghp_a1B2c3D4e5F6g7').text('got ghp_a1B2c3D4e5F6g7')).toBe('got [redacted]');
  });

  it('JSON-escaped once or twice, and with non-ASCII as \\u escapes', () => {
    const secret = 'hunter2"pässwörd\\x';
    const r = redactor(secret);
    const once = JSON.stringify(secret);
    expect(r.text(`child said ${once}`)).toBe('child said "[redacted]"');
    expect(r.json(JSON.stringify({ msg: JSON.stringify({ pw: secret }) }))).not.toContain(
      'hunter2',
    );
    const python = once.replace(
      /[^\x20-\x7e]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    expect(r.text(`py: ${python}`)).not.toContain('hunter2');
  });

  it("Basic's pair decoded as Latin-1, as many servers decode it", () => {
    const pair = 'admin:pässwörd-1';
    const v = `Basic ${Buffer.from(pair, 'latin1').toString('base64')}`;
    expect(redactor(v).text(`user ${pair}`)).toBe('user [redacted]');
  });
});

describe('a proxy password, and the variables that hold none', () => {
  it('is also registered as WHATWG URL prints it', () => {
    const env = { HTTPS_PROXY: 'http://bob:s3cret"pw{x}$@proxy.corp:3128' };
    const printed = new URL(env.HTTPS_PROXY).password;
    expect(printed).not.toBe('s3cret"pw{x}$');
    expect(proxyPasswords(env, 'linux')).toContain(printed);
  });

  it('NO_PROXY and the CA paths are neither masked nor read for a password', () => {
    const env = {
      NO_PROXY: 'http://proxy.corp:3128/x@y',
      SSL_CERT_FILE: 'C:\\Users\\me:x@corp\\ca.pem',
      NODE_EXTRA_CA_CERTS: '/home/me:x@corp/ca.pem',
    };
    expect(passedThrough({}, env, 'linux')).toEqual(env);
    expect(proxyPasswords(env, 'linux')).toEqual([]);
  });
});
