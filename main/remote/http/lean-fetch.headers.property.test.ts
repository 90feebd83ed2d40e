import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leanFetch, REQUEST_TAG } from './lean-fetch.js';

/**
 * Issue 34: lean-fetch.ts lower-cases its extra headers' names once, when the fetch is made, and
 * leaves REQUEST_TAG out of a request's header record instead of deleting it after. The headers
 * that reach the server — names, values, order, the tag never among them — must be what the
 * per-request merge (as it was before, `reference` below: the request's headers, lower-cased,
 * then the extra ones over them, then the tag deleted, then content-length, accept-encoding and
 * user-agent) gives, for request headers as a `Headers`, a list of pairs or a record, with names
 * in any case, repeated across the two sets, the tag on either side. And the tag still picks the
 * request's own signal. Generated cases and a held-out list, against a real node:http server.
 */
type HeadersInit = NonNullable<ConstructorParameters<typeof Headers>[0]>;
type Init = { kind: 'headers' | 'pairs' | 'record'; pairs: [string, string][] };

function initHeaders(i: Init): HeadersInit {
  if (i.kind === 'headers') return new Headers(i.pairs);
  if (i.kind === 'pairs') return i.pairs;
  return Object.fromEntries(i.pairs);
}

/** The merge as lean-fetch.ts did it per request before (commit 528717e). */
function reference(h: HeadersInit, extra: Record<string, string>, body: string) {
  const out: Record<string, string> = {};
  if (h instanceof Headers) h.forEach((v, k) => (out[k] = v));
  else if (Array.isArray(h)) for (const [k, v] of h as [string, string][]) out[k.toLowerCase()] = v;
  else for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = String(v);
  for (const [k, v] of Object.entries(extra)) out[k.toLowerCase()] = v;
  const tag = out[REQUEST_TAG];
  delete out[REQUEST_TAG];
  out['content-length'] = String(Buffer.byteLength(body));
  out['accept-encoding'] ??= 'gzip, deflate, br';
  out['user-agent'] ??= 'airlock';
  return { headers: out, tag };
}

let server: Server;
let base: string;
const seen: IncomingMessage[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req);
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function check(init: Init, extra: Record<string, string>): Promise<void> {
  const body = '{"jsonrpc":"2.0"}';
  const h = initHeaders(init);
  const want = reference(h, extra, body);
  const asked: string[] = [];
  const own = new AbortController();
  const f = leanFetch(extra, (tag) => (asked.push(tag), own.signal));
  seen.length = 0;
  const res = await f(new URL(base), { method: 'POST', headers: h, body });
  await res.text();
  const raw = seen[0]!.rawHeaders;
  const got: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) got.push([raw[i]!, raw[i + 1]!]);
  // node:http adds Host and Connection after the request's own (ClientRequest), unless given.
  const added = new Set(['host', 'connection'].filter((k) => !(k in want.headers)));
  expect(got.filter(([k]) => !added.has(k.toLowerCase()))).toEqual(Object.entries(want.headers));
  expect(asked).toEqual(want.tag === undefined ? [] : [want.tag]);
}

const name = fc.constantFrom(
  'Accept',
  'accept',
  'Authorization',
  'AUTHORIZATION',
  'Mcp-Session-Id',
  'content-type',
  'X-Api-Key',
  'x-api-key',
  'User-Agent',
  'Accept-Encoding',
  REQUEST_TAG,
  'X-Airlock-Request-Tag',
);
const value = fc.stringMatching(/^[!-~]([ -~]{0,10}[!-~])?$/);
const pairs = fc.array(fc.tuple(name, value), { maxLength: 6 });
const init: fc.Arbitrary<Init> = fc.record({
  kind: fc.constantFrom('headers', 'pairs', 'record'),
  pairs,
});
const extra = pairs.map((ps) => Object.fromEntries(ps));

describe('leanFetch headers (issue 34)', () => {
  it('sends what the per-request merge sent, over generated headers', async () => {
    await fc.assert(fc.asyncProperty(init, extra, check), { numRuns: 300 });
  });

  it('and on the held-out cases', async () => {
    const cases: [Init, Record<string, string>][] = [
      [{ kind: 'record', pairs: [] }, {}],
      [
        { kind: 'record', pairs: [['content-type', 'application/json']] },
        { Authorization: 'Bearer t' },
      ],
      [
        { kind: 'headers', pairs: [['Accept', 'a/b']] },
        { accept: 'c/d', ACCEPT: 'e/f' },
      ],
      [{ kind: 'pairs', pairs: [[REQUEST_TAG, '7']] }, { 'X-Key': 'k' }],
      [{ kind: 'record', pairs: [] }, { 'X-Airlock-Request-Tag': '9' }],
      [{ kind: 'headers', pairs: [[REQUEST_TAG, '1']] }, { [REQUEST_TAG]: '2' }],
      [{ kind: 'record', pairs: [['User-Agent', 'ua']] }, { 'accept-encoding': 'identity' }],
    ];
    for (const [i, e] of cases) await check(i, e);
  });
});
