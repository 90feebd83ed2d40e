import { Agent, ClientRequest, type RequestOptions } from 'node:http';
import { urlToHttpOptions } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestTarget } from './upstream-agents.js';

/**
 * Issue 34: `requestTarget` (upstream-agents.ts) stands in for `url.urlToHttpOptions` as the
 * target of every upstream request. Held equal two ways over generated URLs — IPv4, IPv6 (zone-
 * less, compressed), names, international names (punycoded by the URL parser), ports (default,
 * explicit default, other), user info with percent-escapes and characters the parser escapes,
 * paths, queries and fragments — and a held-out list of cases written by hand, not tuned on:
 * 1. the members node:http reads of a target (ClientRequest: protocol, hostname, host, port,
 *    path, auth) are the same;
 * 2. the request node:http makes of each is the same: method, path and the headers it writes
 *    (Host, the Basic Authorization from the user info), and the options its agent is handed
 *    (host, port, path, protocol; `getName` — the socket pool's key — of them).
 */
const READ = ['protocol', 'hostname', 'host', 'port', 'path', 'auth'] as const;

function readMembers(o: object): Record<string, unknown> {
  const r = o as Record<string, unknown>;
  return Object.fromEntries(READ.map((k) => [k, r[k]]));
}

/** What node:http does with `options`: the request it builds and what its agent is given. */
function made(options: RequestOptions, url: URL): Record<string, unknown> {
  const seen: Record<string, unknown> = {};
  const base = new Agent();
  const agent = Object.assign(Object.create(base) as Agent, {
    protocol: url.protocol,
    defaultPort: url.protocol === 'https:' ? 443 : 80,
    addRequest(_req: ClientRequest, o: RequestOptions & { servername?: string }) {
      Object.assign(seen, readMembers(o), { key: base.getName(o) });
    },
  });
  const req = new ClientRequest({ ...options, method: 'POST', agent });
  const out = {
    ...seen,
    method: req.method,
    reqPath: req.path,
    hostHeader: req.getHeader('host'),
    authorization: req.getHeader('authorization'),
  };
  req.destroy();
  return out;
}

/** Either side's outcome: its value, or the error it threw (a bad escape in the user info). */
function outcome<T>(f: () => T): T | { threw: string } {
  try {
    return f();
  } catch (err) {
    return { threw: (err as Error).name };
  }
}

function check(href: string): void {
  const url = new URL(href);
  const ours = outcome(() => requestTarget(url));
  const node = outcome(() => urlToHttpOptions(url));
  if ('threw' in ours || 'threw' in node) {
    expect(ours).toEqual(node);
    return;
  }
  expect(readMembers(ours)).toEqual(readMembers(node));
  expect(made(ours, url)).toEqual(made(node, url));
}

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?$/);
const idnLabel = fc
  .array(fc.constantFrom('a', 'b', 'ü', 'é', 'ß', '日', '本', 'я', 'x', '-'), {
    minLength: 1,
    maxLength: 6,
  })
  .map((cs) => cs.join(''))
  .filter((s) => !s.startsWith('-') && !s.endsWith('-') && s.slice(2, 4) !== '--');
const hex = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
const host = fc.oneof(
  fc.ipV4(),
  fc.array(hex, { minLength: 8, maxLength: 8 }).map((g) => `[${g.join(':')}]`),
  fc.constantFrom('[::1]', '[::]', '[fe80::1]', '[2001:db8::ff00:42:8329]', '[::ffff:1.2.3.4]'),
  fc.array(label, { minLength: 1, maxLength: 3 }).map((ls) => ls.join('.')),
  fc.tuple(idnLabel, label).map(([a, b]) => `${a}.${b}`),
);
const userChar = fc.constantFrom(
  'a',
  'Z',
  '0',
  '%41',
  '%3A',
  '%40',
  '%25',
  '%20',
  ' ',
  ':',
  '!',
  'é',
  '%zz',
  '%E2%82',
  '$',
  '&',
);
const userPart = fc.array(userChar, { maxLength: 5 }).map((cs) => cs.join(''));
const pathSeg = fc.constantFrom('mcp', 'a b', '%2F', 'é', '..', '.', '', 'x;y', '~u');
const url = fc
  .record({
    protocol: fc.constantFrom('http:', 'https:'),
    host,
    port: fc.option(fc.constantFrom('80', '443', '8080', '1', '65535', '00080'), {
      nil: undefined,
    }),
    user: fc.option(fc.tuple(userPart, fc.option(userPart, { nil: undefined })), {
      nil: undefined,
    }),
    path: fc.array(pathSeg, { maxLength: 4 }),
    query: fc.option(fc.constantFrom('', 'a=1', 'q=a b&x=%20', 'é=ü', '?'), { nil: undefined }),
    hash: fc.option(fc.constantFrom('', 'top', 'a?b#c'), { nil: undefined }),
  })
  .map(({ protocol, host, port, user, path, query, hash }) => {
    const userinfo = user ? `${user[0]}${user[1] === undefined ? '' : `:${user[1]}`}@` : '';
    return (
      `${protocol}//${userinfo}${host}${port === undefined ? '' : `:${port}`}/${path.join('/')}` +
      `${query === undefined ? '' : `?${query}`}${hash === undefined ? '' : `#${hash}`}`
    );
  })
  // A name whose last label is numeric is no valid host (WHATWG URL, "ends in a number").
  .filter((href) => URL.canParse(href));

describe('requestTarget against url.urlToHttpOptions (issue 34)', () => {
  it('gives node:http the same target over generated URLs', () => {
    fc.assert(fc.property(url, check), { numRuns: 2000 });
  });

  it('and on the held-out cases', () => {
    const held = [
      'http://127.0.0.1:3000/mcp',
      'https://api.example.com/mcp',
      'https://api.example.com:443/mcp?x=1#frag',
      'http://[::1]:8080/mcp',
      'https://[2001:db8::1]/v1/mcp?token=a%20b',
      'https://user:p%40ss@example.org/mcp',
      'https://%E2%9C%93:%F0%9F%94%91@example.org/',
      'http://a%zz:b@example.org/',
      'https://bücher.example/mcp',
      'https://xn--bcher-kva.example:8443/mcp#x',
      'http://example.com',
      'http://example.com?only=query',
      'https://EXAMPLE.com:0443/UPPER/Case?Q=1',
      'http://user@host.test/',
      'http://:pass@host.test/',
    ];
    for (const h of held) check(h);
  });
});
