import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
  type StreamableHTTPClientTransport as Transport,
} from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { essence, leanSendPresent, mediaTypeEssence } from './lean-send.js';
import { leanTransport } from './lean-transport.js';
import { malformedAnswer } from './malformed-answer.js';
import { UpstreamClient } from '../upstream/upstream-client.js';

/**
 * Issue 34: a 2025-era tools/call POSTed by lean-send.ts gives the caller what the SDK's own
 * `_send` gives, for whatever the server answers. A raw node:http server answers each generated
 * call with a status (200, 202 is not generated: a call answered 202 never ends), a content type
 * and a body — JSON-RPC answers as JSON or as an event stream, progress and log lines before them,
 * error statuses with text, a same-origin redirect, a session the server no longer knows, a
 * content type that is neither. The same UpstreamClient calls once with the lean send and once
 * with the SDK's send over the same lean fetch; what the caller gets must match: the result, or
 * the error's class, code and message. One difference is by design and checked as such: a JSON
 * answer that is not a valid JSON-RPC message fails the call as malformed on both paths
 * (malformed-answer.ts), from the SDK's zod error on one and the shape check on the other.
 */
interface Answer {
  status: 200 | 307 | 400 | 404 | 500;
  type:
    | 'application/json'
    | 'application/json; charset=utf-8'
    | 'text/event-stream'
    | 'text/plain'
    | '';
  notes: number;
  result: unknown;
  error: boolean;
  text: string;
}

const json = fc.jsonValue({ maxDepth: 2 });
const answer: fc.Arbitrary<Answer> = fc.record({
  status: fc.constantFrom(200, 200, 200, 307, 400, 404, 500),
  type: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/event-stream',
    'text/event-stream',
    'text/plain',
    '',
  ),
  notes: fc.integer({ min: 0, max: 3 }),
  result: fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record(
        {
          content: fc.array(fc.record({ type: fc.constant('text'), text: fc.string() }), {
            maxLength: 2,
          }),
          isError: fc.boolean(),
        },
        { requiredKeys: ['content'] },
      ),
    },
    json,
  ),
  error: fc.boolean(),
  text: fc.string({ maxLength: 20 }),
});

let current: Answer;
/** tools/call POSTs the server received: nothing is sent twice that the SDK sends once. */
let posts = 0;
/** The headers of each tools/call POST: the lean send's are the SDK's, value for value. */
let sent: IncomingMessage['headers'][] = [];
let url: URL;
let close: () => Promise<void>;

function handle(req: IncomingMessage, body: string, res: ServerResponse): void {
  if (req.method !== 'POST') return void res.writeHead(405).end();
  const msg = JSON.parse(body) as { method?: string; id?: number };
  if (msg.method === 'initialize')
    return void res
      .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' })
      .end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: msg.id,
          result: {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {} },
            serverInfo: { name: 'answers', version: '1' },
          },
        }),
      );
  if (msg.id === undefined) return void res.writeHead(202).end();
  posts++;
  sent.push(req.headers);
  if (req.url === '/mcp' && current.status === 307)
    return void res.writeHead(307, { location: '/moved' }).end();
  const a = current;
  const status = a.status === 307 ? 200 : a.status;
  const headers = a.type ? { 'content-type': a.type } : {};
  if (status !== 200) return void res.writeHead(status, headers).end(a.text);
  const messages: unknown[] = [];
  for (let i = 0; i < a.notes; i++)
    messages.push({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: i },
    });
  messages.push(
    a.error
      ? { jsonrpc: '2.0', id: msg.id, error: { code: -32000 - a.notes, message: a.text } }
      : { jsonrpc: '2.0', id: msg.id, result: a.result },
  );
  if (a.type.startsWith('text/event-stream'))
    return void res
      .writeHead(200, headers)
      .end(messages.map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join(''));
  res.writeHead(200, headers).end(JSON.stringify(messages.length === 1 ? messages[0] : messages));
}

beforeAll(async () => {
  const s = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => handle(req, body, res));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  url = new URL(`http://127.0.0.1:${(s.address() as AddressInfo).port}/mcp`);
  close = () => {
    s.closeAllConnections();
    return new Promise((r) => s.close(() => r()));
  };
});
afterAll(() => close());

const stockSend = StreamableHTTPClientTransport.prototype.send;

/**
 * A bearer token as an auth provider gives it (or fails to): with HTTP whitespace at its edges,
 * which `Headers` trims, and characters `Headers` or node:http refuse, which fail the call unsent.
 */
interface Auth {
  token: string | undefined;
  throws: boolean;
  /** Also tells its token at once, as OAuthSession.tokenNow does (lean-send.ts takes that). */
  sync: boolean;
}
const auth: fc.Arbitrary<Auth | undefined> = fc.option(
  fc.record({
    token: fc.option(
      fc.string({
        unit: fc.constantFrom(
          'a',
          'Z',
          '0',
          '-',
          '.',
          '~',
          ' ',
          '\t',
          '\n',
          '\r',
          '\0',
          '\u0001',
          'é',
          '\u0100',
        ),
        maxLength: 6,
      }),
      { nil: undefined },
    ),
    throws: fc.boolean(),
    sync: fc.boolean(),
  }),
  { nil: undefined },
);

/** The auth seam's mark the SDK puts on a token's failure (a registered symbol). */
const SEAM = Symbol.for('mcp.authSeamEscape');

async function call(a: Answer, lean: boolean, au?: Auth): Promise<unknown> {
  current = a;
  posts = 0;
  sent = [];
  // The handshake is the SDK's on both paths, with a plain token; the generated one is the call's.
  let connected = false;
  const provider = au && {
    token: () =>
      !connected
        ? Promise.resolve('handshake')
        : au.throws
          ? Promise.reject(new Error('refresh refused'))
          : Promise.resolve(au.token),
    // What token() would give, or null when only token() can tell (before the handshake, a failure).
    ...(au.sync ? { tokenNow: () => (connected && !au.throws ? au.token : null) } : {}),
  };
  const t = leanTransport(url, {}, provider) as Transport;
  // An SDK update that moves what the lean send uses turns it off; this says so.
  expect(leanSendPresent(t)).toBe(true);
  if (!lean)
    t.send = (m: JSONRPCMessage | JSONRPCMessage[], o?: Parameters<Transport['send']>[1]) =>
      stockSend.call(t, m as JSONRPCMessage, o);
  const client = new UpstreamClient(
    { name: 'airlock', version: 'test' },
    { versionNegotiation: { mode: 'legacy' } },
  );
  const logs: unknown[] = [];
  client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params.data));
  await client.connect(t);
  connected = true;
  const cancel = new AbortController();
  const outcome = await client
    .callTool({ name: 'echo', arguments: {} }, { signal: cancel.signal, timeout: 60_000 })
    .then(
      (r) => ({ result: r }),
      (e: Error & { code?: unknown; [SEAM]?: boolean }) =>
        malformedAnswer(e) !== undefined && a.type.startsWith('application/json')
          ? { malformed: true }
          : e.constructor === TypeError && /header|ByteString/i.test(e.message)
            ? // A token Headers (or node:http) refuses, unsent: their texts differ (undici names the value).
              { refused: e.constructor.name }
            : { error: [e.constructor.name, e.code, e.message, e[SEAM]] },
    );
  await client.close();
  return { outcome, logs, posts, sent };
}

describe('lean tools/call POST ≡ the SDK transport send', () => {
  it('gives the caller the same for generated server answers', async () => {
    await fc.assert(
      fc.asyncProperty(answer, auth, async (a, au) => {
        const stock = await call(a, false, au && { ...au });
        expect(await call(a, true, au && { ...au })).toEqual(stock);
      }),
      { numRuns: 120 },
    );
  });
});

/**
 * Issue 34: `essence`, which answers the two plain content types without the general parse, is
 * `mediaTypeEssence` for any header: generated ones built of the pieces that matter (case, space,
 * parameters, the two plain types and their near misses), arbitrary strings, and a held-out list.
 */
describe('essence: the fast path ≡ the general one', () => {
  const piece = fc.constantFrom(
    'text/event-stream',
    'application/json',
    'Text/Event-Stream',
    'APPLICATION/JSON',
    'application/json-seq',
    'text/event-stream2',
    'text/plain',
    ' ',
    '\t',
    ';',
    'charset=utf-8',
    '; charset="UTF-8"',
    ',',
    '',
  );
  const header = fc.oneof(
    fc.array(piece, { maxLength: 4 }).map((ps) => ps.join('')),
    fc.string(),
    fc.constant(null),
  );

  it('over generated content types', () => {
    fc.assert(
      fc.property(header, (h) => {
        expect(essence(h)).toBe(mediaTypeEssence(h));
      }),
      { numRuns: 5000 },
    );
  });

  it('and on the held-out cases', () => {
    const held = [
      'text/event-stream',
      'application/json',
      'application/json;charset=utf-8',
      ' text/event-stream ',
      'TEXT/EVENT-STREAM',
      'application/json ; q=1',
      'text/event-stream\n',
      ';text/event-stream',
      '',
      null,
    ];
    for (const h of held) expect(essence(h)).toBe(mediaTypeEssence(h));
  });
});
