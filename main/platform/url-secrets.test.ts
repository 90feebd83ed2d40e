import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  hasUrlSecrets,
  isCredentialParam,
  joinUrlSecrets,
  MASK,
  maskUrlSecrets,
  PATH,
  splitUrlSecrets,
} from './url-secrets.js';

/** Parameter names as services spell them (and as a careless hand might). */
const CREDENTIAL_NAMES = [
  'api_key',
  'apiKey',
  'API-KEY',
  'apikey',
  'key',
  'token',
  'access_token',
  'auth',
  'secret',
  'client_secret',
  'password',
  'sig',
  'signature',
  'code',
  'subscription-key',
  'x-api-key',
  'api%5Fkey',
  'access%5ftoken',
  'api+key',
  'TOKEN',
  'authorization',
  'Authorization',
  'X-Amz-Credential',
  'X-Amz-Security-Token',
  'passphrase',
  'JSESSIONID',
  'Api-Key',
];
const PLAIN_NAMES = ['q', 'page', 'workspace', 'version', 'transport', 'format', 'x'];

/** A unique marker inside every credential value, so "no secret left" can be checked by search. */
const secretValue = fc
  .tuple(
    fc.integer({ min: 0, max: 1e9 }),
    fc.constantFrom('', '%2B', '+', '-', '%3D', '%C3%A9', '~', '.', '/', '%26'),
  )
  .map(([n, tail]) => `S3CR3T${n}${tail}`);
const plainValue = fc.constantFrom('1', 'a+b', 'x%20y', '', 'v2', '%3B', 'on');

const part = fc.oneof(
  fc.tuple(fc.constantFrom(...CREDENTIAL_NAMES), secretValue).map(([n, v]) => ({
    text: `${n}=${v}`,
    secret: v,
  })),
  fc
    .tuple(fc.constantFrom(...PLAIN_NAMES), plainValue)
    .map(([n, v]) => ({ text: `${n}=${v}`, secret: null })),
  fc.constantFrom({ text: 'flag', secret: null }, { text: '', secret: null }),
);

const urls = fc
  .tuple(
    fc.constantFrom('https://mcp.example.com/mcp', 'http://127.0.0.1:3001/', 'https://h/a/b'),
    fc.array(fc.tuple(part, fc.constantFrom('&', ';')), { minLength: 0, maxLength: 7 }),
  )
  .map(([base, ps]) => {
    const query = ps.map(([p, sep], i) => (i === 0 ? '' : sep) + p.text).join('');
    return {
      url: new URL(ps.length ? `${base}?${query}` : base).href,
      secrets: ps.map(([p]) => p.secret).filter((s): s is string => s !== null),
    };
  });

/** Every name=value pair a server could read: URLSearchParams's, and a parser splitting at `;` too. */
function readers(url: string): [string, string][] {
  const u = new URL(url);
  const semi = u.search
    .slice(1)
    .split(/[&;]/)
    .map((p) => new URLSearchParams(p))
    .flatMap((sp) => [...sp]);
  return [...u.searchParams, ...semi];
}

describe('credentials in a URL query (issue 29, item 5), over generated URLs', () => {
  it('masking leaves no credential for any parser, and joining restores the exact URL', () => {
    fc.assert(
      fc.property(urls, ({ url, secrets }) => {
        const split = splitUrlSecrets(url);
        // What the transport connects to is, byte for byte, what the user gave.
        expect(joinUrlSecrets(split.url, split.secrets)).toBe(url);
        // The URL that is stored and shown holds none of the values…
        for (const s of secrets) expect(split.url).not.toContain(s);
        // …and whoever parses it, splitting at `;` or not, decodes none of them either.
        for (const [name, value] of readers(split.url)) {
          expect(name + value).not.toContain('S3CR3T');
          if (isCredentialParam(name) && !value.includes(';')) expect([MASK, '']).toContain(value);
        }
        expect(hasUrlSecrets(split.url)).toBe(false);
        expect(hasUrlSecrets(url)).toBe(secrets.length > 0);
        expect(maskUrlSecrets(url)).toBe(split.url);
        // Sending the masked URL back (an edit form) keeps the stored values.
        expect(splitUrlSecrets(split.url, split.secrets)).toEqual(split);
      }),
      { numRuns: 2000 },
    );
  });

  it('a name is read exactly as URLSearchParams reads it, escapes and broken bytes included', () => {
    const token = fc.constantFrom(
      'api',
      'key',
      'KEY',
      'token',
      '_',
      '-',
      '+',
      'x',
      '%',
      '%5F',
      '%5f',
      '%4B',
      '%6b%65%79',
      '%FF',
      '%C3%A9',
      '%E2%80',
      '%ZZ',
      '%2',
      '%25',
      '%EF%BB%BF',
      'é',
      'ß',
      '%20',
    );
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 6 }), (ts) => {
        const url = new URL(`https://h/mcp?${ts.join('')}=S3CR3T42`).href;
        const [[name]] = [...new URL(url).searchParams] as [[string, string]];
        const masked = splitUrlSecrets(url).url;
        expect(masked.includes('S3CR3T42')).toBe(!isCredentialParam(name));
      }),
      { numRuns: 3000 },
    );
  });

  it('names: credentials by name and by ending, ordinary parameters left alone', () => {
    for (const n of ['api_key', 'apikey', 'key', 'token', 'access_token', 'auth', 'secret'])
      expect(isCredentialParam(n)).toBe(true);
    for (const n of ['password', 'sig', 'signature', 'X-Goog-Api-Key', 'client_secret', 'jwt'])
      expect(isCredentialParam(n)).toBe(true);
    for (const n of ['authorization', 'session', 'code', 'x-amz-credential', 'passphrase'])
      expect(isCredentialParam(n)).toBe(true);
    for (const n of ['q', 'page', 'format', 'version', 'keys_only', 'tokenizer'])
      expect(isCredentialParam(n)).toBe(false);
    for (const n of ['authorized', 'credentialed', 'session_count', 'codec'])
      expect(isCredentialParam(n)).toBe(false);
  });

  it('a name counts whatever its case and separators, and the mask and the vault move agree', () => {
    const words = [
      'authorization',
      'access_token',
      'token',
      'key',
      'apikey',
      'api_key',
      'auth',
      'secret',
      'client_secret',
      'password',
      'sig',
      'signature',
      'x_api_key',
      'session',
      'code',
      'page',
      'format',
      'workspace',
    ];
    const spelled = fc
      .tuple(
        fc.constantFrom(...words),
        fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }),
        fc.constantFrom('_', '-', '.', ''),
      )
      .map(([w, upper, sep]) => ({
        word: w,
        name: [...w.replace(/_/g, sep)].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''),
      }));
    fc.assert(
      fc.property(spelled, ({ word, name }) => {
        expect(isCredentialParam(name)).toBe(isCredentialParam(word));
        const url = new URL(`https://h/mcp?${encodeURIComponent(name)}=S3CR3T7&page=2`).href;
        const split = splitUrlSecrets(url);
        expect(split.secrets.map(([n]) => n)).toEqual(isCredentialParam(name) ? [name] : []);
        expect(maskUrlSecrets(url)).toBe(split.url);
        expect(split.url.includes('S3CR3T7')).toBe(!isCredentialParam(name));
      }),
      { numRuns: 1000 },
    );
  });

  it('a MASK with no stored value is refused with what to do', () => {
    expect(() => splitUrlSecrets('https://h/mcp?api_key=***')).toThrow(/give the real value/);
  });

  it('a stored value missing at connect time leaves the parameter out', () => {
    expect(joinUrlSecrets('https://h/mcp?api_key=***&q=1', [])).toBe('https://h/mcp?q=1');
    expect(joinUrlSecrets('https://h/mcp?q=1&api_key=***', [])).toBe('https://h/mcp?q=1');
  });
});

/** docs/security.md, "No credentials of a server URL": credentials in the path, over generated URLs (segments from path-segment.property.test.ts's shapes). */
const pathToken = fc.oneof(
  fc.uuid({ version: 4 }),
  fc.uint8Array({ minLength: 16, maxLength: 48 }).map((b) => Buffer.from(b).toString('base64url')),
  fc.uint8Array({ minLength: 16, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex')),
  fc
    .tuple(fc.uuid({ version: 4 }), fc.uuid({ version: 4 }))
    .map(([a, b]) => Buffer.from(`${a}:${b}`).toString('base64')),
);
const pathWord = fc.constantFrom(
  'mcp',
  'sse',
  'api',
  's',
  'v1',
  '2025-06-18',
  'my-server-name',
  'servers',
  '12345',
  'github',
  'a%20b',
  '',
);
const pathUrls = fc
  .tuple(
    fc.constantFrom('https://mcp.zapier.com', 'http://127.0.0.1:3001', 'https://h'),
    fc.array(
      fc.oneof(
        pathToken.map((t) => ({ text: t, secret: true })),
        pathWord.map((t) => ({ text: t, secret: false })),
      ),
      { minLength: 0, maxLength: 6 },
    ),
    fc.array(part, { maxLength: 3 }),
    fc.constantFrom('', '#frag'),
  )
  .map(([origin, segs, qs, hash]) => {
    const query = qs.map((p) => p.text).join('&');
    const url = new URL(
      `${origin}/${segs.map((s) => s.text).join('/')}${qs.length ? `?${query}` : ''}${hash}`,
    ).href;
    return {
      url,
      tokens: segs.filter((s) => s.secret).map((s) => s.text),
      words: segs.filter((s) => !s.secret && s.text !== '').map((s) => s.text),
      values: qs.map((p) => p.secret).filter((s): s is string => s !== null),
    };
  });

describe('credentials in a URL path (docs/security.md, "No credentials of a server URL"), over generated URLs', () => {
  it('a token-like segment is masked wherever the URL is shown, and joining restores the exact URL', () => {
    fc.assert(
      fc.property(pathUrls, ({ url, tokens, words, values }) => {
        const split = splitUrlSecrets(url);
        // The thing that acts: what the connection is given is, byte for byte, the user's URL.
        expect(joinUrlSecrets(split.url, split.secrets)).toBe(url);
        for (const t of [...tokens, ...values]) expect(split.url).not.toContain(t);
        // Every path segment of the masked URL, as the WHATWG parser reads it: no token.
        for (const seg of new URL(split.url).pathname.split('/'))
          expect(tokens.includes(seg) || tokens.includes(decodeURIComponent(seg))).toBe(false);
        // Ordinary segments are shown as written, in place.
        for (const w of words) expect(new URL(split.url).pathname.split('/')).toContain(w);
        expect(split.secrets.filter(([n]) => n === PATH).map(([, v]) => v)).toEqual(tokens);
        expect(maskUrlSecrets(url)).toBe(split.url);
        expect(hasUrlSecrets(split.url)).toBe(false);
        expect(hasUrlSecrets(url)).toBe(tokens.length + values.length > 0);
        // Sent back masked (an edit form), the stored values stay.
        expect(splitUrlSecrets(split.url, split.secrets)).toEqual(split);
      }),
      { numRuns: 2000 },
    );
  });

  it('a URL marked secret as a whole keeps only scheme, host and port, and joins back exactly', () => {
    fc.assert(
      fc.property(pathUrls, ({ url }) => {
        const split = splitUrlSecrets(url, [], true);
        expect(joinUrlSecrets(split.url, split.secrets)).toBe(url);
        const shown = new URL(split.url);
        for (const seg of shown.pathname.split('/')) expect(['', MASK]).toContain(seg);
        for (const [, v] of shown.searchParams) expect(['', MASK]).toContain(v);
        expect(maskUrlSecrets(url, true)).toBe(split.url);
        expect(hasUrlSecrets(split.url, true)).toBe(false);
        expect(splitUrlSecrets(split.url, split.secrets, true)).toEqual(split);
      }),
      { numRuns: 1000 },
    );
  });

  it('text that is not a URL is masked too (an error quoting what was typed)', () => {
    const t = 'ODk0YjE2ZjYtZTc4Ni00ZjQ4LWI0ZTMtNjk0YTk4OGNiMmI0OjRkYjA0ZDQ4';
    expect(maskUrlSecrets(`mcp.zapier.com/api/mcp/s/${t}/mcp`)).toBe(
      'mcp.zapier.com/api/mcp/s/***/mcp',
    );
    expect(maskUrlSecrets(`https://h:99999/s/${t}/mcp`)).toBe('https://h:99999/s/***/mcp');
  });

  it('a masked segment with no stored value is refused with what to do', () => {
    expect(() => splitUrlSecrets('https://h/s/***/mcp')).toThrow(
      /path segment \*\*\* .*give the real value/,
    );
  });
});
