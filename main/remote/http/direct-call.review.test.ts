import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectUpstream, httpStatusOf, type Upstream } from '../upstream/upstream.js';
import { callUpstream } from '../upstream/lean-call.js';

/**
 * Review of h-up (the direct tools/call leg, direct-call.ts), written from the MCP 2025-11-25
 * Streamable HTTP spec and real servers' habits before reading the implementation: each case runs
 * the same scripted upstream with `directCalls` on and off and expects the same outcome — what the
 * caller gets, what the server received (headers and bodies, in order), and onerror reports.
 */
type Handler = (m: Rec, req: IncomingMessage, res: ServerResponse, raw: string) => void;
type Rec = { id?: number | string; method?: string; params?: Record<string, unknown> };

let srv: Server;
let base: string;
let handler: Handler;
/** tools/call answers the server has finished writing. */
let callsAnswered = 0;
let log: { method: string; headers: Record<string, string[]>; body: string }[] = [];

const INIT = (id: unknown, session?: string) => ({
  status: 200,
  headers: {
    'content-type': 'application/json',
    ...(session ? { 'mcp-session-id': session } : {}),
  },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id,
    result: {
      protocolVersion: '2025-11-25',
      capabilities: { tools: {} },
      serverInfo: { name: 'x', version: '1' },
    },
  }),
});

function headersOf(req: IncomingMessage): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const k = req.rawHeaders[i]!.toLowerCase();
    (out[k] ??= []).push(req.rawHeaders[i + 1]!);
  }
  return out;
}

beforeAll(async () => {
  srv = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      let m: Rec = {};
      try {
        m = JSON.parse(raw || '{}') as Rec;
      } catch {
        /* recorded as is */
      }
      log.push({ method: m.method ?? 'response', headers: headersOf(req), body: raw });
      if (m.method === 'tools/call') res.on('finish', () => callsAnswered++);
      handler(m, req, res, raw);
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => srv.close(() => r())));

/** The usual server: initialize with a session, 202 for notifications; `call` for the rest. */
function server(call: Handler, session: string | undefined = 's1'): Handler {
  return (m, req, res, raw) => {
    if (m.method === 'initialize') {
      const a = INIT(m.id, session);
      return void res.writeHead(a.status, a.headers).end(a.body);
    }
    if (m.id === undefined || m.method === undefined) return void res.writeHead(202).end();
    if (m.method !== 'tools/call' && m.method !== 'tools/list')
      // A 2025 server: the era probe's method is not one it knows.
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: m.id,
          error: { code: -32601, message: 'Method not found' },
        }),
      );
    call(m, req, res, raw);
  };
}

const ok = (id: unknown, text = 'ok') =>
  JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

interface Run {
  books?: Record<string, number>;
  outcomes: unknown[];
  errors: string[];
  log: typeof log;
}

function describeOutcome(v: PromiseSettledResult<unknown>): unknown {
  if (v.status === 'fulfilled') return { ok: v.value };
  const e = v.reason as Error & { code?: unknown };
  return { err: `${e.constructor.name}:${String(e.code)}:${e.message}`, status: httpStatusOf(e) };
}

interface Opts {
  headers?: Record<string, string>;
  authProvider?: unknown;
  path?: string;
}

async function connect(direct: boolean, o: Opts, errors: string[]): Promise<Upstream> {
  return connectUpstream({
    url: new URL(`${base}${o.path ?? '/mcp'}`),
    headers: o.headers ?? {},
    timeoutMs: 10_000,
    clientVersion: 'test',
    directCalls: direct,
    ...(o.authProvider ? { authProvider: o.authProvider as never } : {}),
    onError: (e) => errors.push(String(e.message)),
  });
}

function call(up: Upstream, signal = new AbortSignal_(), name = 'echo', args = {}) {
  return callUpstream(up.client, { name, arguments: args }, true, {
    signal: signal.signal,
    timeout: 60_000,
    maxTotalTimeout: 60_000,
    resetTimeoutOnProgress: true,
  });
}
class AbortSignal_ extends AbortController {}

/** One scenario on one path: connect, `body` drives calls, and the record of it. */
async function run(
  direct: boolean,
  h: Handler,
  body: (up: Upstream) => Promise<unknown[]>,
  o: Opts = {},
): Promise<Run> {
  handler = h;
  log = [];
  callsAnswered = 0;
  const errors: string[] = [];
  let up: Upstream;
  try {
    up = await connect(direct, o, errors);
  } catch (err) {
    return { outcomes: [describeOutcome({ status: 'rejected', reason: err })], errors, log: [] };
  }
  log = [];
  try {
    const settled = await Promise.allSettled(await body(up));
    // A settled call leaves nothing on the Protocol's books (its `.finally` runs in one job).
    await new Promise((r) => setImmediate(r));
    const b = up.client as unknown as Record<string, Map<unknown, unknown>>;
    const books = {
      handlers: b['_responseHandlers']!.size,
      progress: b['_progressHandlers']!.size,
      timeouts: b['_timeoutInfo']!.size,
    };
    return { outcomes: settled.map(describeOutcome), errors, log: stripVolatile(log), books };
  } finally {
    await up.close();
  }
}

/** What can differ between two runs of the same scenario without being a difference. */
function stripVolatile(l: typeof log): typeof log {
  return l.map((e) => {
    const h = { ...e.headers };
    delete h['host'];
    return { ...e, headers: h };
  });
}

async function both(h: Handler, body: (up: Upstream) => Promise<unknown[]>, o: Opts = {}) {
  const off = await run(false, h, body, o);
  const on = await run(true, h, body, o);
  expect(on).toEqual(off);
  return off;
}

const single = (up: Upstream) => Promise.resolve([call(up)]);

describe('the direct call answers as lean-send does (directCalls on vs off)', () => {
  for (const type of [
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/json;charset=UTF-8',
    ' application/json ',
    'application/json-seq',
    'application/jsonx',
    'text/json',
  ])
    it(`200 with content-type ${JSON.stringify(type)}`, async () => {
      await both(
        server((m, _q, res) => res.writeHead(200, { 'content-type': type }).end(ok(m.id))),
        single,
      );
    });

  for (const enc of ['identity', 'IDENTITY', 'gzip', 'br, identity'])
    it(`200 JSON with content-encoding ${enc}`, async () => {
      await both(
        server((m, _q, res) =>
          res
            .writeHead(200, { 'content-type': 'application/json', 'content-encoding': enc })
            .end(ok(m.id)),
        ),
        single,
      );
    });

  it('no content-type at all', async () => {
    await both(
      server((m, _q, res) => {
        res.removeHeader('content-type');
        res.writeHead(200).end(ok(m.id));
      }),
      single,
    );
  });

  it('a batch: a notification, then the response', async () => {
    const r = await both(
      server((m, _q, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify([
            {
              jsonrpc: '2.0',
              method: 'notifications/message',
              params: { level: 'info', data: 'hi' },
            },
            JSON.parse(ok(m.id)) as unknown,
          ]),
        ),
      ),
      single,
    );
    expect(r.outcomes[0]).toHaveProperty('ok');
  });

  it('a batch with a server→client ping request and the response', async () => {
    await both(
      server((m, _q, res) =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(
            JSON.stringify([
              { jsonrpc: '2.0', id: 'srv-1', method: 'ping' },
              JSON.parse(ok(m.id)) as unknown,
            ]),
          ),
      ),
      single,
    );
  });

  it('an empty body, a "null" body, an empty batch: each as lean-send has it', async () => {
    for (const b of [
      '',
      'null',
      '[]',
      '{}',
      ' ',
      '\ufeff' + '{"jsonrpc":"2.0","id":2,"result":{"content":[]}}',
    ]) {
      await both(
        server((_m, _q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(b)),
        async (up) => {
          const ctl = new AbortController();
          const p = call(up, ctl);
          // A body with no response leaves the call waiting: the agent gives up once the answer is in.
          await new Promise((r) => setImmediate(r));
          await until(() => log.some((e) => e.method === 'tools/call'));
          await settledOrAbort(p, ctl);
          return [p];
        },
      );
    }
  });

  it('an id mismatch: the answer is for no call in flight', async () => {
    await both(
      server((m, _q, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(ok((m.id as number) + 1000)),
      ),
      async (up) => {
        const ctl = new AbortController();
        const p = call(up, ctl);
        await until(() => log.some((e) => e.method === 'tools/call'));
        await settledOrAbort(p, ctl);
        return [p];
      },
    );
  });

  it('the answer to another call in flight comes on this call’s POST', async () => {
    // Two calls: the server holds the first POST until the second arrives, answers the first with
    // the SECOND's response, and the second with the first's.
    let held: { id: unknown; res: ServerResponse }[] = [];
    await both(
      server((m, _q, res) => {
        held.push({ id: m.id, res });
        if (held.length < 2) return;
        const [a, b] = held;
        held = [];
        a!.res.writeHead(200, { 'content-type': 'application/json' }).end(ok(b!.id, 'second'));
        b!.res.writeHead(200, { 'content-type': 'application/json' }).end(ok(a!.id, 'first'));
      }),
      (up) => Promise.resolve([call(up, undefined, 'a'), call(up, undefined, 'b')]),
    );
  });

  it('a response and a duplicate of it in the same batch', async () => {
    await both(
      server((m, _q, res) =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(`[${ok(m.id, 'one')},${ok(m.id, 'two')}]`),
      ),
      single,
    );
  });

  for (const status of [201, 204, 400, 403, 404, 405, 409, 413, 429, 500, 502, 503])
    it(`status ${status} with a JSON error body`, async () => {
      await both(
        server((m, _q, res) =>
          res
            .writeHead(status, {
              'content-type': 'application/json',
              ...(status === 403
                ? { 'www-authenticate': 'Bearer error="insufficient_scope", scope="write"' }
                : {}),
            })
            .end(
              status === 204
                ? undefined
                : JSON.stringify({
                    jsonrpc: '2.0',
                    id: m.id,
                    error: { code: -32000, message: 'no' },
                  }),
            ),
        ),
        single,
      );
    });

  it('a 307 redirect to another path is followed the same way', async () => {
    await both((m, req, res) => {
      if (m.method === 'initialize') {
        const a = INIT(m.id, 's1');
        return void res.writeHead(a.status, a.headers).end(a.body);
      }
      if (m.id === undefined) return void res.writeHead(202).end();
      if (m.method !== 'tools/call')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: m.id,
            error: { code: -32601, message: 'Method not found' },
          }),
        );
      if (req.url === '/mcp') return void res.writeHead(307, { location: '/moved' }).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(ok(m.id, req.url));
    }, single);
  });

  it('a session id first set by a later answer is carried by the next call', async () => {
    const r = await both(
      server((m, _q, res) => {
        const n = log.filter((e) => e.method === 'tools/call').length;
        res
          .writeHead(200, {
            'content-type': 'application/json',
            ...(n === 1 ? { 'mcp-session-id': 'later' } : {}),
          })
          .end(ok(m.id));
      }, ''),
      async (up) => {
        await call(up);
        return [call(up)];
      },
    );
    const calls = r.log.filter((e) => e.method === 'tools/call');
    // The SDK takes a session id from the handshake's answer only (both paths alike).
    expect(calls[1]!.headers['mcp-session-id']).toBeUndefined();
  });

  it('a session id changed by an answer is carried by the next call', async () => {
    const r = await both(
      server((m, _q, res) => {
        const n = log.filter((e) => e.method === 'tools/call').length;
        res
          .writeHead(200, {
            'content-type': 'application/json',
            ...(n === 1 ? { 'mcp-session-id': 's2' } : {}),
          })
          .end(ok(m.id));
      }),
      async (up) => {
        await call(up);
        return [call(up)];
      },
    );
    const calls = r.log.filter((e) => e.method === 'tools/call');
    expect(calls[1]!.headers['mcp-session-id']).toEqual(['s1']);
  });

  it('404 on a session (stale): the same error, one the retry recognises', async () => {
    const r = await both(
      server((m, _q, res) =>
        res.writeHead(404, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: m.id,
            error: { code: -32001, message: 'Session not found' },
          }),
        ),
      ),
      single,
    );
    expect(r.outcomes[0]).toMatchObject({ status: 404 });
  });

  it('the user’s headers, odd cases, duplicates and attempts at framing headers', async () => {
    const r = await both(
      server((m, _q, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(ok(m.id)),
      ),
      single,
      {
        headers: {
          'X-Api-Key': 'k1',
          'x-api-key': 'k2',
          'X-Trace': 'a, b',
          Accept: 'text/plain',
          'Content-Type': 'text/plain',
          'Mcp-Session-Id': 'forged',
          'MCP-Protocol-Version': '1999-01-01',
          Connection: 'close',
          'User-Agent': 'mine',
        },
      },
    );
    expect(r.log.length).toBeGreaterThan(0);
  });

  for (const h of [
    { Host: 'evil.example' },
    { 'Content-Length': '5' },
    { 'Transfer-Encoding': 'chunked' },
  ] as Record<string, string>[])
    it(`a user header ${Object.keys(h)[0]}`, async () => {
      await both(
        server((m, _q, res) =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(ok(m.id)),
        ),
        single,
        // Where a header makes the handshake fail, both runs record the same failure.
        { headers: h },
      );
    });

  it('an Authorization header of the user’s own', async () => {
    await both(
      server((m, _q, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(ok(m.id)),
      ),
      single,
      { headers: { authorization: 'Bearer mine' } },
    );
  });

  describe('OAuth (a provider that tells its token at once)', () => {
    function provider(tokens: string[], opts: { refreshTo?: string } = {}) {
      let token: string | undefined = tokens[0];
      const p = {
        current: () => token,
        set: (t: string | undefined) => (token = t),
        token: () => Promise.resolve(token),
        tokenNow: () => token,
        onUnauthorized: () => {
          token = opts.refreshTo ?? token;
          return Promise.resolve();
        },
      };
      return p;
    }

    it('a token renewed between two calls: the second carries the new one', async () => {
      let prov = provider(['t1']);
      const r = await both(
        server((m, _q, res) =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(ok(m.id)),
        ),
        async (up) => {
          await call(up);
          prov.set('t2');
          return [call(up)];
        },
        {
          get authProvider() {
            prov = provider(['t1']);
            return prov;
          },
        },
      );
      const calls = r.log.filter((e) => e.method === 'tools/call');
      expect(calls.map((c) => c.headers['authorization'])).toEqual([['Bearer t1'], ['Bearer t2']]);
    });

    it('401 with WWW-Authenticate: the provider refreshes, the call is sent again', async () => {
      let n = 0;
      const r = await both(
        server((m, q, res) => {
          if (q.headers.authorization === 'Bearer old' && n++ >= 0)
            return void res
              .writeHead(401, {
                'www-authenticate':
                  'Bearer error="invalid_token", resource_metadata="http://x/.well-known/oauth-protected-resource"',
              })
              .end('no');
          res.writeHead(200, { 'content-type': 'application/json' }).end(ok(m.id));
        }),
        async (up) => [call(up)],
        {
          get authProvider() {
            n = 0;
            const p = provider(['old'], { refreshTo: 'new' });
            return p;
          },
        },
      );
      expect(r.log.filter((e) => e.method === 'tools/call').length).toBeGreaterThan(0);
    });

    it('403 insufficient_scope step-up', async () => {
      await both(
        server((_m, _q, res) =>
          res
            .writeHead(403, {
              'www-authenticate': 'Bearer error="insufficient_scope", scope="tools:write"',
            })
            .end('more scope'),
        ),
        single,
        { authProvider: provider(['t']) },
      );
    });

    for (const tok of [
      'a\u0001b',
      'del\u007f',
      'ÿ',
      '\u0100',
      'a b',
      'tök',
      'x\r\ny: z',
      '',
      'a\u0000b',
      'ok.token-_~+/=',
      'trail ',
      '\u{1F600}',
    ])
      it(`a token ${JSON.stringify(tok)}`, async () => {
        let prov = provider([tok]);
        await both(
          server((m, _q, res) =>
            res.writeHead(200, { 'content-type': 'application/json' }).end(ok(m.id)),
          ),
          async (up) => {
            prov.set(tok);
            return [call(up)];
          },
          {
            get authProvider() {
              // Connects with a good token; the odd one is there by the call.
              prov = provider(['good']);
              return prov;
            },
          },
        );
      });

    it('a token due for renewal between calls: tokenNow says null, token() refreshes', async () => {
      let renewed = false;
      const r = await both(
        server((m, _q, res) =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(ok(m.id)),
        ),
        async (up) => {
          await call(up);
          renewed = true;
          return [call(up)];
        },
        {
          get authProvider() {
            renewed = false;
            return {
              token: () => Promise.resolve(renewed ? 'fresh' : 'old'),
              tokenNow: () => (renewed ? null : 'old'),
              onUnauthorized: () => Promise.resolve(),
            };
          },
        },
      );
      const calls = r.log.filter((e) => e.method === 'tools/call');
      expect(calls.map((c) => c.headers['authorization'])).toEqual([
        ['Bearer old'],
        ['Bearer fresh'],
      ]);
    });

    it('a provider whose token() fails (sign-in needed) once tokenNow says null', async () => {
      let due = false;
      await both(
        server((m, _q, res) =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(ok(m.id)),
        ),
        async (up) => {
          due = true;
          return [call(up)];
        },
        {
          get authProvider() {
            due = false;
            return {
              token: () =>
                due ? Promise.reject(new Error('sign in again')) : Promise.resolve('t'),
              tokenNow: () => (due ? null : 't'),
              onUnauthorized: () => Promise.resolve(),
            };
          },
        },
      );
    });

    // directHeaders calls `tokenNow()` inside its try, so a throw comes back as the Error the call
    // fails with (told to onerror, the request id taken, as lean-send's commonHeaders does).
    it('a provider whose tokenNow throws: told to onerror, the id counter moves on', async () => {
      let broken = false;
      await both(
        server((m, _q, res) =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(ok(m.id)),
        ),
        async (up) => {
          broken = true;
          const first = call(up);
          await first.catch(() => {});
          broken = false;
          return [first, call(up)];
        },
        {
          get authProvider() {
            broken = false;
            return {
              token: () => Promise.resolve('t'),
              tokenNow: () => {
                if (broken) throw new Error('store unreadable');
                return 't';
              },
              onUnauthorized: () => Promise.resolve(),
            };
          },
        },
      );
    });

    it('a provider says "no token" (undefined) by the call', async () => {
      let prov = provider(['t']);
      await both(
        server((m, _q, res) =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(ok(m.id)),
        ),
        async (up) => {
          prov.set(undefined);
          return [call(up)];
        },
        {
          get authProvider() {
            prov = provider(['t']);
            return prov;
          },
        },
      );
    });
  });

  describe('sockets', () => {
    it('the server destroys the socket on the request (ECONNRESET)', async () => {
      await both(
        server((m, req, res) =>
          m.method === 'tools/call'
            ? req.socket.destroy()
            : res.writeHead(200, { 'content-type': 'application/json' }).end(ok(m.id)),
        ),
        single,
      );
    });

    it('a reused keep-alive socket the server closed after the first answer', async () => {
      await both(
        server((m, _q, res) => {
          const n = log.filter((e) => e.method === 'tools/call').length;
          res.writeHead(200, { 'content-type': 'application/json' }).end(ok(m.id), () => {
            if (n === 1) res.socket?.destroy();
          });
        }),
        async (up) => {
          await call(up);
          return [call(up)];
        },
      );
    });

    it('the head, then the body cut short', async () => {
      await both(
        server((m, q, res) => {
          const b = ok(m.id);
          res.writeHead(200, {
            'content-type': 'application/json',
            'content-length': String(b.length + 10),
          });
          res.write(b, () => q.socket.destroy());
        }),
        single,
      );
    });

    it('the head, then a stall: the agent cancels', async () => {
      const ctl = new AbortController();
      let headSent = () => {};
      await both(
        server((_m, _q, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.flushHeaders();
          headSent();
        }),
        async (up) => {
          const sent = new Promise<void>((r) => (headSent = r));
          const c = new AbortController();
          const p = call(up, c);
          await sent;
          c.abort(new Error('agent cancelled'));
          await p.catch(() => {});
          await until(() => log.some((e) => e.method === 'notifications/cancelled'));
          return [p];
        },
      );
      void ctl;
    });

    it('the connection closes while the call waits for its answer', async () => {
      let arrived = () => {};
      await both(
        server(() => arrived()),
        async (up) => {
          const got = new Promise<void>((r) => (arrived = r));
          const p = call(up);
          await got;
          await up.close();
          await p.catch(() => {});
          return [p];
        },
      );
    });

    it('the connection closes between the head and the body', async () => {
      let headSent = () => {};
      await both(
        server((_m, _q, res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
          res.flushHeaders();
          headSent();
        }),
        async (up) => {
          const sent = new Promise<void>((r) => (headSent = r));
          const p = call(up);
          await sent;
          await up.close();
          await p.catch(() => {});
          return [p];
        },
      );
    });

    it('an answer over the 64 MiB message bound', async () => {
      const r = await both(
        server((m, _q, res) => {
          const pad = 'x'.repeat(65 * 1024 * 1024);
          const body = `{"jsonrpc":"2.0","id":${String(m.id)},"result":{"content":[{"type":"text","text":"${pad}"}]}}`;
          res
            .writeHead(200, {
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(body)),
            })
            .end(body);
        }),
        single,
      );
      expect(JSON.stringify(r.outcomes)).toContain('64 MiB');
    });

    it('cancelled while a big request body is still being written', async () => {
      await both(
        server((m, _q, res) =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(ok(m.id)),
        ),
        async (up) => {
          const c = new AbortController();
          const p = callUpstream(
            up.client,
            { name: 'big', arguments: { s: 'x'.repeat(8 << 20) } },
            true,
            {
              signal: c.signal,
              timeout: 60_000,
              maxTotalTimeout: 60_000,
              resetTimeoutOnProgress: true,
            },
          );
          c.abort(new Error('agent cancelled'));
          await p.catch(() => {});
          await until(() => log.some((e) => e.method === 'notifications/cancelled'));
          return [p];
        },
      );
    });
  });

  it('eight calls at once and a tools/list between them: ids from one counter', async () => {
    const r = await both(
      server((m, _q, res) => {
        if (m.method === 'tools/list')
          return void res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { tools: [] } }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(ok(m.id, String(m.id)));
      }),
      (up) =>
        Promise.resolve([
          ...Array.from({ length: 4 }, () => call(up)),
          up.client.listTools(),
          ...Array.from({ length: 4 }, () => call(up)),
        ]),
    );
    const ids = r.log.map((e) => (JSON.parse(e.body) as Rec).id);
    expect(new Set(ids).size).toBe(ids.length);
    // `both` compares the bodies in order of arrival: the same on both paths (each POST is
    // written as its call is made, ids from the Protocol's one counter).
  });
});

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !cond(); i++) await new Promise((r) => setImmediate(r));
  expect(cond()).toBe(true);
}

/**
 * An answer that names no waiting call leaves the call waiting: once the server has written the
 * answer, the client is given some turns of the event loop to read it (in-process sockets: a few
 * suffice), then the agent gives up. A call the answer does settle has settled by then.
 */
async function settledOrAbort(p: Promise<unknown>, ctl: AbortController): Promise<void> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await until(() => done || callsAnswered > 0);
  for (let i = 0; i < 200 && !done; i++) await new Promise((r) => setImmediate(r));
  if (!done) ctl.abort(new Error('gave up'));
  await p.catch(() => {});
}
