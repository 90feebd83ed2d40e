import { describe, expect, it } from 'vitest';
import { passedThrough, proxyPasswords } from '../remote/stdio/env.js';
import fc from 'fast-check';
import { credentialForms } from './credential-forms.js';
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

describe('the second review: ordinary values, vendor keys, other JSON encoders', () => {
  const splits = (v: string) => credentialForms(v).length > 1;
  it('after an unknown word, regions, versions, hosts, paths, collations and words are not split out', () => {
    for (const t of [
      'eu-central-1',
      'ap-southeast-1',
      'us-east-1a.internal',
      '1.2.3-beta.4',
      'v2026.12.07-rc1',
      'node-22.11.0',
      '2026-12-07T10Z',
      'api.example.com',
      '/usr/local/bin/node',
      'application/json',
      'utf8mb4_unicode_ci',
      'x86_64-linux-gnu',
      'aarch64-apple-darwin',
      'data-engineering',
    ])
      expect(splits(`X ${t}`), t).toBe(false);
  });

  it('vendor keys after an unknown word are split out', () => {
    for (const t of [
      'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
      'sk-proj-Ab12Cd34Ef56Gh78',
      'xoxb-1234567890-abcdefghij',
      'AKIAIOSFODNN7EXAMPLE',
      'glpat-x1Y2z3W4v5U6t7S8r9Q0',
      'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
      '123e4567-e89b-12d3-a456-426614174000',
    ])
      expect(splits(`X ${t}`), t).toBe(true);
    // Auth-params after an unknown word, when a value is quoted or reads as a credential.
    expect(
      splits('Hawk id="dh37fgj492je", mac="6R4rV5iE+NPoym+WwjeHzjAGXUtLNIxmo1vpMofpLAE="'),
    ).toBe(true);
    expect(splits('flags beta=true')).toBe(false);
  });

  it('generated ordinary values are not split out (tuning seed and a held-out seed)', () => {
    const word = fc.constantFrom(
      'east',
      'west',
      'central',
      'prod',
      'staging',
      'data',
      'engineering',
      'api',
      'internal',
    );
    const benign = fc.oneof(
      fc
        .tuple(fc.constantFrom('us', 'eu', 'ap', 'sa'), word, fc.integer({ min: 1, max: 9 }))
        .map((p) => p.join('-')),
      fc
        .tuple(fc.nat(30), fc.nat(30), fc.nat(99), fc.option(fc.nat(9)))
        .map(([a, b, c, d]) => `${a}.${b}.${c}${d === null ? '' : `-beta.${d}`}`),
      fc.array(word, { minLength: 2, maxLength: 4 }).map((w) => w.join('.')),
      fc.array(word, { minLength: 2, maxLength: 4 }).map((w) => `/${w.join('/')}`),
      fc
        .date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
    );
    for (const seed of [36, 3_606]) {
      const sample = fc.sample(benign, { seed, numRuns: 300 });
      expect(
        sample.filter((t) => splits(`X ${t}`)),
        `seed ${seed}`,
      ).toEqual([]);
    }
  });

  it('a value under the minimum is not redacted in an escaped form either', () => {
    expect(redactor('é1').text('caf\\u00e91')).toBe('caf\\u00e91');
  });

  it('each encoder’s own escape set, written out by hand from its documentation', () => {
    const key =
      'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
    const r = redactor(key, 'p&ss=word+1', 'pässwörd/2024', 'Bearer 12345678901234567890');
    const cases = [
      // Gson: <>&=' as lower-case \u, "+" and "/" as they are.
      key.replace(/=/g, '\\u003d'),
      // .NET System.Text.Json: "+" (and <>&'`, non-ASCII) as upper-case \u, "=" as it is.
      key.replace(/\+/g, '\\u002B'),
      'p\\u0026ss\\u003dword+1', // Gson
      'p\\u0026ss=word\\u002B1', // .NET
      'p\\u0026ss=word+1', // Go
      'p\\u00e4ssw\\u00f6rd\\/2024', // PHP: non-ASCII and "/"
      'p\\u00E4ssw\\u00F6rd/2024', // .NET
    ];
    for (const form of cases) expect(r.text(`got ${form}.`), form).toBe('got [redacted].');
    // Behind a known scheme an all-digit token is a credential.
    expect(r.text('token 12345678901234567890 echoed')).toBe('token [redacted] echoed');
  });
});
