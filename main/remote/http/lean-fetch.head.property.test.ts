import { Agent, ClientRequest, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headList } from './lean-fetch.js';
import { where } from './upstream-agents.js';

/**
 * Issue 34: lean-fetch.ts hands node:http a request's headers as a flat list with the Host header
 * it would add itself (`headList`), where ClientRequest would otherwise `setHeader` each of a
 * record. What node:http makes of the two must be the same, over generated targets (IPv4, IPv6,
 * names, default and other ports, user info) and header records (names a request carries, and
 * Expect, and Host and Content-Disposition, which keep the record): the request head written, byte for
 * byte, whether the connection is kept alive, and what the agent is asked for — the connection
 * options (host, port, the TLS server name node:http works out from the Host header) and the
 * socket pool's key. A fixed seed and a held-out list.
 */
type Made = Record<string, unknown>;

function made(url: URL, headers: RequestOptions['headers'], target: object): Made {
  const seen: Made = {};
  const Base = url.protocol === 'https:' ? HttpsAgent : Agent;
  const agent = new Base({ keepAlive: true });
  // The agent's own addRequest runs (it works out the server name and the pool key); only the
  // connection is not made.
  agent.createConnection = ((o: Record<string, unknown>) => {
    for (const k of ['host', 'port', 'servername', '_agentKey', 'path']) seen[k] = o[k];
    return undefined;
  }) as never;
  const req = new ClientRequest({ ...target, method: 'POST', headers, agent });
  req.on('error', () => {});
  req.end('{"jsonrpc":"2.0"}');
  const out = {
    ...seen,
    head: (req as unknown as { _header: string })._header,
    keepAlive: req.shouldKeepAlive,
    last: (req as unknown as { _last: boolean })._last,
    chunked: (req as unknown as { chunkedEncoding: boolean }).chunkedEncoding,
  };
  req.destroy();
  return out;
}

function check(href: string, pairs: [string, string][]): void {
  const url = new URL(href);
  const w = where(url);
  const record = () => Object.fromEntries(pairs);
  const node = made(url, record(), w.target);
  const ours = made(url, headList(record(), w), w.target);
  expect(ours).toEqual(node);
}

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?$/);
const hex = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
const host = fc.oneof(
  fc.ipV4(),
  fc.array(hex, { minLength: 8, maxLength: 8 }).map((g) => `[${g.join(':')}]`),
  fc.constantFrom('[::1]', '[fe80::1]', '[::ffff:1.2.3.4]', 'localhost', 'bücher.example'),
  fc.array(label, { minLength: 1, maxLength: 3 }).map((ls) => ls.join('.')),
);
const url = fc
  .record({
    protocol: fc.constantFrom('http:', 'https:'),
    host,
    port: fc.option(fc.constantFrom('80', '443', '8080', '1', '65535', '00080', '0'), {
      nil: undefined,
    }),
    user: fc.option(fc.constantFrom('u', 'u:p', ':p', 'a%40b:c'), { nil: undefined }),
    path: fc.constantFrom('/mcp', '/', '/a/b?x=1', '/v1/mcp?q=a%20b'),
  })
  .map(
    ({ protocol, host, port, user, path }) =>
      `${protocol}//${user ? `${user}@` : ''}${host}${port === undefined ? '' : `:${port}`}${path}`,
  )
  .filter((href) => URL.canParse(href));
const name = fc.constantFrom(
  'authorization',
  'mcp-session-id',
  'mcp-protocol-version',
  'content-type',
  'accept',
  'content-length',
  'accept-encoding',
  'user-agent',
  'x-api-key',
  'connection',
  'host',
  'expect',
  'content-disposition',
  'transfer-encoding',
  '123',
);
// Printable ASCII, and now and then Latin-1 beyond it (which node:http takes in a header value).
const value = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[!-~]([ -~]{0,12}[!-~])?$/) },
  fc.stringMatching(/^[!-~\u00a0-\u00ff]([ -~\u0080-\u00ff]{0,12}[!-~\u00a0-\u00ff])?$/),
);
// Unique names, lower-case, as lean-fetch.ts builds its records; Expect only as the 100-continue
// it would mean.
const pairs = fc
  .uniqueArray(fc.tuple(name, value), { selector: ([k]) => k, maxLength: 8 })
  .map((ps) => ps.map(([k, v]): [string, string] => [k, k === 'expect' ? '100-continue' : v]))
  // A request whose own Content-Length or Transfer-Encoding contradicts its body is no request
  // lean-fetch.ts makes (it sets the length itself).
  .map((ps) => ps.filter(([k]) => k !== 'content-length' && k !== 'transfer-encoding'))
  .map((ps): [string, string][] => [...ps, ['content-length', '17']]);

describe('headList against node:http setting a record (issue 34)', () => {
  it('makes the same request over generated targets and headers', () => {
    fc.assert(fc.property(url, pairs, check), { numRuns: 1000, seed: 34 });
  });

  it('and on the held-out cases', () => {
    const usual: [string, string][] = [
      ['mcp-session-id', 'ca6b096c-e12f-478c-a462-d5b502a4b0c7'],
      ['mcp-protocol-version', '2025-11-25'],
      ['content-type', 'application/json'],
      ['accept', 'application/json, text/event-stream'],
      ['authorization', 'Bearer t'],
      ['content-length', '17'],
      ['accept-encoding', 'gzip, deflate, br'],
      ['user-agent', 'airlock'],
    ];
    const cases: [string, [string, string][]][] = [
      ['http://127.0.0.1:3001/mcp', usual],
      ['https://api.example.com/mcp', usual],
      ['https://api.example.com:8443/mcp', usual],
      ['http://[::1]:8080/mcp', usual],
      ['https://[2001:db8::1]/mcp', usual],
      ['http://example.com:443/', usual],
      ['https://example.com:80/', usual],
      ['https://user:pw@example.com/mcp', usual],
      ['https://example.com/mcp', [...usual, ['host', 'other.example:444']]],
      ['http://example.com/mcp', [['connection', 'close'], ...usual]],
      ['http://localhost/mcp', [['content-disposition', 'inline'], ...usual]],
    ];
    for (const [h, p] of cases) check(h, p);
  });
});
