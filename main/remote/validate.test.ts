import { describe, expect, it } from 'vitest';
import { describeFailure } from './upstream/upstream.js';
import {
  parseHeaderArg,
  validateHeaders,
  validateRemoteName,
  validateRemoteUrl,
} from './validate.js';
import { MemoryVault } from '../platform/vault/vault.js';
import { startRemoteApp } from '../../test-support/remote-app.js';

describe('remote connection input', () => {
  it.each([
    ['ftp://example.com/mcp', /Only http:\/\/ and https:\/\/ URLs are supported \(got ftp:\)/],
    ['http://user:pw@example.com/mcp', /must not contain a user name or password/],
    ['https://token@example.com/mcp', /must not contain a user name or password/],
    ['not a url', /"not a url" is not a URL/],
    ['', /A server URL is required/],
    ['file:///etc/passwd', /Only http:\/\/ and https:\/\/ URLs/],
    ['http://example.com/mcp#frag', /must not contain a #fragment/],
  ])('refuses %j with a clear message', (url, message) => {
    expect(() => validateRemoteUrl(url)).toThrow(message);
  });

  it('accepts http, https and loopback', () => {
    expect(validateRemoteUrl('https://mcp.example.com/mcp').href).toBe(
      'https://mcp.example.com/mcp',
    );
    expect(validateRemoteUrl('http://127.0.0.1:3001/mcp').hostname).toBe('127.0.0.1');
    expect(validateRemoteUrl('http://localhost:8080/').hostname).toBe('localhost');
  });

  it('names are safe tool prefixes', () => {
    expect(validateRemoteName('github')).toBe('github');
    expect(validateRemoteName('my-server_2')).toBe('my-server_2');
    for (const bad of ['', 'has space', 'a__b', '-lead', 'x'.repeat(33), 'dot.name', 'tail_', 42])
      expect(() => validateRemoteName(bad)).toThrow(/Invalid server name/);
  });

  it('headers: valid names only, transport-owned ones refused, Authorization steered to the token', () => {
    expect(parseHeaderArg('X-Api-Key: abc: def')).toEqual(['X-Api-Key', 'abc: def']);
    expect(() => parseHeaderArg('novalue')).toThrow(/--header expects "Name: value"/);
    expect(validateHeaders({ 'X-Api-Key': 'v' })).toEqual({ 'X-Api-Key': 'v' });
    expect(() => validateHeaders({ 'Bad Name': 'v' })).toThrow(/not a valid HTTP header name/);
    expect(() => validateHeaders({ 'Mcp-Session-Id': 'v' })).toThrow(/set by Airlock itself/);
    expect(() => validateHeaders({ Authorization: 'Bearer x' })).toThrow(/--bearer-stdin/);
    expect(() => validateHeaders({ 'X-A': 'line\nbreak' })).toThrow(/single-line/);
    expect(() => validateHeaders({ 'X-A': '1', 'x-a': '2' })).toThrow(/given twice/);
  });

  it('describes failures the way the status line shows them', () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    expect(describeFailure(refused)).toBe('unreachable: connection refused');
    const notFound = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' }),
    });
    expect(describeFailure(notFound)).toBe('unreachable: host not found');
  });
});

describe('addRemote refuses bad input and leaves state intact', () => {
  it('bad URLs and duplicate names change nothing', async () => {
    const vault = new MemoryVault();
    const t = await startRemoteApp({ vault });
    try {
      for (const [url, msg] of [
        ['ftp://example.com/', /got ftp:/],
        ['http://user:pw@host/', /user name or password/],
        ['nope', /is not a URL/],
      ] as const) {
        await expect(
          t.app.control.addRemote({ name: 'x', url, bearerToken: 'tok-123456' }),
        ).rejects.toMatchObject({ code: 'INVALID', message: expect.stringMatching(msg) });
      }
      expect(await t.app.control.listRemotes()).toEqual([]);
      expect(t.app.settings.get().remotes).toEqual([]);
      expect(await vault.get('remote:x:bearer')).toBeNull();
      await t.app.control.addRemote({ name: 'dup', url: 'http://127.0.0.1:9/mcp' });
      await expect(
        t.app.control.addRemote({ name: 'DUP', url: 'http://127.0.0.1:9/mcp' }),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
      await expect(t.app.control.updateRemote('dup', { url: 'ftp://x/' })).rejects.toMatchObject({
        code: 'INVALID',
      });
      expect(t.app.settings.get().remotes.map((r) => r.url)).toEqual(['http://127.0.0.1:9/mcp']);
    } finally {
      await t.stop();
    }
  });
});
