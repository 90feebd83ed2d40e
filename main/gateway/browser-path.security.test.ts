import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../common/contract/index.js';
import { OPEN_CODE_REDEEM_PATH } from '../../common/open-code.js';
import { nextRequest } from '../../test-support/core-events.js';
import {
  CountingSource,
  filesContaining,
  startTestApp,
  tempDir,
  type TestApp,
} from '../../test-support/harness.js';
import { mintOpenCode } from '../cli/socket-client.js';
import { controlSocketPath } from './control-socket.js';

/**
 * Red-team wave 4 (docs/security.md "Web pages in your browser"): the browser approval path and
 * the control API attacked as a web page in the user's browser would (any Origin, `null`, none;
 * simple requests that need no preflight; DNS-rebinding Host names) or as code holding only an
 * agent token. Each attack must fail, leave the pending request pending and run nothing.
 * gateway.security.test.ts holds the first Host/Origin cases on /mcp; control-open-code.security
 * the open code's single use in sequence; these are the cases neither tries.
 */
let t: TestApp;
let source: CountingSource;
let port: number;
let controlToken: string;
let socketPath: string;
let pending: ApprovalView;
let client: Client;

beforeAll(async () => {
  // A UI build of our own, so the document headers are checked without a renderer build.
  const uiDir = tempDir('airlock-ui-');
  mkdirSync(join(uiDir, 'assets'));
  writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>Airlock</title>');
  writeFileSync(join(uiDir, 'assets', 'app.js'), 'void 0;');
  source = new CountingSource();
  t = await startTestApp({ sources: [source], app: { uiDir } });
  port = t.started.port;
  controlToken = new URL(t.started.controlUrl).hash.replace('#token=', '');
  socketPath = controlSocketPath(t.dataDir);
  // One call waiting for the user: what every attack below tries to decide.
  client = new Client({ name: 'agent', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
    }),
  );
  const requested = nextRequest(t.app);
  // Left waiting on purpose: the app's stop ends it.
  client.callTool({ name: 'count_send', arguments: { to: 'bob@example.com' } }).catch(() => {});
  pending = await requested;
});
afterAll(async () => {
  await client.close().catch(() => {});
  await t.stop();
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function raw(opts: {
  method?: string;
  path: string;
  headers?: Record<string, string | undefined>;
  body?: string;
}): Promise<Raw> {
  const headers = Object.fromEntries(
    Object.entries({ host: `127.0.0.1:${port}`, ...opts.headers }).filter(
      ([, v]) => v !== undefined,
    ),
  ) as Record<string, string>;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'POST',
        path: opts.path,
        headers,
        setHost: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

const decideBody = (id: string) =>
  JSON.stringify({ method: 'decide', params: [id, { kind: 'allow_once' }] });

/** The waiting request is still waiting, and its tool never ran. */
async function stillUndecided(): Promise<void> {
  expect((await t.app.control.getApproval(pending.id)).state).toBe('pending');
  expect(source.count('count_send')).toBe(0);
}

const PAGE_ORIGINS = [
  'https://evil.example',
  'null', // a sandboxed iframe, a data: or file: page
  undefined, // a page's form GET/navigation, or a browser that leaves Origin out
  'http://localhost:1', // another program's page on this computer
];
/** What a page can send without a CORS preflight (Fetch standard, "CORS-safelisted"). */
const SIMPLE_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  undefined,
];

describe('CSRF: a web page cannot decide an approval', () => {
  it('simple requests (no preflight) from any Origin, no Origin or null, with any simple body type, decide nothing', async () => {
    for (const origin of PAGE_ORIGINS)
      for (const type of SIMPLE_TYPES)
        for (const body of [
          decideBody(pending.id),
          `method=decide&params=${encodeURIComponent(`["${pending.id}",{"kind":"allow_once"}]`)}`,
        ]) {
          const res = await raw({
            path: '/api/rpc',
            headers: { origin, 'content-type': type, 'sec-fetch-site': 'cross-site' },
            body,
          });
          expect([401, 403], `${origin} ${type}`).toContain(res.status);
          expect(res.body).not.toContain('"result"');
        }
    await stillUndecided();
  });

  it('a page holding the agent token (one the agent wrote) is refused on the control API', async () => {
    for (const origin of PAGE_ORIGINS) {
      const res = await raw({
        path: '/api/rpc',
        headers: {
          origin,
          'content-type': 'application/json',
          authorization: `Bearer ${t.token}`,
          // What the page's own fetch sends: forged here, as any program can.
          'sec-fetch-site': 'same-origin',
        },
        body: decideBody(pending.id),
      });
      expect([403], String(origin)).toContain(res.status);
    }
    await stillUndecided();
  });

  it('the control token is taken from the Authorization header only: query, cookie, Basic and other headers do not carry it', async () => {
    const carriers: { path: string; headers: Record<string, string> }[] = [
      { path: `/api/rpc?token=${controlToken}`, headers: {} },
      { path: `/api/rpc?access_token=${controlToken}`, headers: {} },
      { path: '/api/rpc', headers: { cookie: `token=${controlToken}` } },
      {
        path: '/api/rpc',
        headers: { authorization: `Basic ${Buffer.from(`:${controlToken}`).toString('base64')}` },
      },
      { path: '/api/rpc', headers: { authorization: `Token ${controlToken}` } },
      { path: '/api/rpc', headers: { 'x-airlock-token': controlToken } },
      { path: `/api/rpc#token=${controlToken}`, headers: {} },
    ];
    for (const c of carriers) {
      const res = await raw({
        path: c.path,
        headers: { 'content-type': 'application/json', ...c.headers },
        body: decideBody(pending.id),
      });
      // 404 for the fragment: the path is not /api/rpc at all.
      expect([401, 404], JSON.stringify(c)).toContain(res.status);
      expect(res.body).not.toContain('"result"');
    }
    for (const path of [
      `/api/events?token=${controlToken}`,
      `/api/events?access_token=${controlToken}`,
    ]) {
      const res = await raw({ method: 'GET', path });
      expect(res.status, path).toBe(401);
    }
    await stillUndecided();
    expect(filesContaining(t.dataDir, controlToken)).toEqual([]);
  });
});

describe('CORS: no answer lets another origin read or send', () => {
  const ROUTES = ['/api/rpc', '/api/events', OPEN_CODE_REDEEM_PATH, '/mcp', '/healthz', '/'];

  it('a preflight from any other origin gets no Access-Control-Allow-* header, on every route', async () => {
    for (const origin of [
      'https://evil.example',
      'null',
      'http://localhost:1',
      `http://localhost:${port}`,
    ])
      for (const path of ROUTES) {
        const res = await raw({
          method: 'OPTIONS',
          path,
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization, content-type',
          },
        });
        const cors = Object.keys(res.headers).filter((h) => h.startsWith('access-control-'));
        expect(cors, `${origin} ${path}`).toEqual([]);
        // /healthz answers any method (its name and version); nothing else takes OPTIONS.
        if (path !== '/healthz')
          expect(res.status, `${origin} ${path}`).toBeGreaterThanOrEqual(400);
      }
  });

  it('an answer to a loopback page of another port carries no Access-Control-Allow-Origin either', async () => {
    const res = await raw({
      path: '/api/rpc',
      headers: {
        origin: 'http://localhost:1',
        'content-type': 'application/json',
        authorization: `Bearer ${controlToken}`,
      },
      body: JSON.stringify({ method: 'listPending', params: [] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });
});

/**
 * A DNS-rebinding page sends its own name as Host and its own origin as Origin: exactly what
 * the open code's Origin = `http://<Host>` rule asks for. The Host check alone keeps it out.
 */
const REBINDING_HOSTS = [
  'evil.example',
  'localhost.evil.example',
  '127.0.0.1.nip.io',
  'LOCALHOST.evil.example',
  'localhost.',
  '127.0.0.1.',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[0:0:0:0:0:0:0:1]',
  '[::1%25lo]',
  '2130706433',
  '0x7f.1',
  '127.1',
  '0.0.0.0',
  'localhost:80:80',
  'xn--localhost-.evil',
  '127.0.0.1 evil.example',
];

/** Names a browser may be on when it sends Host: what a rebinding page's URL can be. */
const hostArb = fc.oneof(
  fc.constantFrom(...REBINDING_HOSTS),
  fc
    .tuple(
      fc.constantFrom('localhost', '127.0.0.1', 'LocalHost', '[::1]'),
      fc.constantFrom('.evil.example', '.nip.io', '.', '..', '.localhost', '-x', '%2e', '_'),
    )
    .map(([a, b]) => a + b),
  fc.tuple(fc.domain(), fc.constantFrom('localhost', '127.0.0.1')).map(([d, l]) => `${l}.${d}`),
  fc.domain(),
);
const withPort = (host: string) => `${host}:${port}`;

describe('DNS rebinding: the Host check holds on every route, the open code first', () => {
  it('a rebinding page cannot redeem an open code (Origin = http://<its Host>), and does not burn it', async () => {
    const { code } = await mintOpenCode(socketPath, controlToken);
    await fc.assert(
      fc.asyncProperty(hostArb, async (name) => {
        const host = withPort(name);
        const res = await raw({
          path: OPEN_CODE_REDEEM_PATH,
          headers: {
            host,
            origin: `http://${host}`,
            'sec-fetch-site': 'same-origin',
            'content-type': 'application/json',
          },
          body: JSON.stringify({ code }),
        });
        expect(res.status).toBe(403);
        expect(res.body).toContain('FORBIDDEN_HOST');
        expect(res.body).not.toContain(controlToken);
      }),
      { numRuns: 150 },
    );
    // Not spent by any of them: the user's own page still redeems it.
    const own = await raw({
      path: OPEN_CODE_REDEEM_PATH,
      headers: {
        origin: `http://127.0.0.1:${port}`,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ code }),
    });
    expect(own.status).toBe(200);
  });

  it('a rebinding page that somehow had a token still reaches no control or agent route', async () => {
    await fc.assert(
      fc.asyncProperty(
        hostArb,
        fc.constantFrom('/api/rpc', '/api/events', '/mcp', '/', '/healthz'),
        async (name, path) => {
          const host = withPort(name);
          const res = await raw({
            method: path === '/api/rpc' || path === '/mcp' ? 'POST' : 'GET',
            path,
            headers: {
              host,
              origin: `http://${host}`,
              'content-type': 'application/json',
              authorization: `Bearer ${path === '/mcp' ? t.token : controlToken}`,
            },
            body: path === '/api/rpc' ? decideBody(pending.id) : undefined,
          });
          expect(res.status).toBe(403);
          expect(res.body).toContain('FORBIDDEN_HOST');
        },
      ),
      { numRuns: 150 },
    );
    await stillUndecided();
  });
});

/** Origins that are not the page's own `http://127.0.0.1:<port>`, however close they look. */
const foreignOriginArb = fc.oneof(
  fc.constantFrom(
    'null',
    'https://127.0.0.1:PORT',
    'http://127.0.0.1.:PORT',
    'http://127.0.0.1:PORT/',
    'http://127.0.0.1:PORT.',
    'http://127.0.0.1',
    'http://[::ffff:127.0.0.1]:PORT',
    'http://[::1]:PORT',
    'http://localhost:PORT',
    'http://LOCALHOST:PORT',
    'http://127.0.0.1:PORT@evil.example',
    'http://evil.example@127.0.0.1:PORT',
    'http://127.0.0.1:0PORT',
    'file://',
    'chrome-extension://abcdefghijklmnop',
    'HTTP://127.0.0.1:PORT',
  ),
  fc.integer({ min: 1, max: 65535 }).map((p) => `http://127.0.0.1:${p}`),
  fc.domain().map((d) => `https://${d}`),
  fc.webUrl().map((u) => new URL(u).origin),
);

describe('the open code: only the page’s own origin, exactly', () => {
  it('generated foreign and look-alike Origins are refused and do not burn the code', async () => {
    const { code } = await mintOpenCode(socketPath, controlToken);
    await fc.assert(
      fc.asyncProperty(foreignOriginArb, async (template) => {
        const origin = template.replaceAll('PORT', String(port));
        fc.pre(origin !== `http://127.0.0.1:${port}`);
        const res = await raw({
          path: OPEN_CODE_REDEEM_PATH,
          headers: { origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
          body: JSON.stringify({ code }),
        });
        expect(res.status).toBe(403);
        expect(res.body).not.toContain(controlToken);
      }),
      { numRuns: 200 },
    );
    const own = await raw({
      path: OPEN_CODE_REDEEM_PATH,
      headers: { origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(own.status).toBe(200);
  });
});

describe('the open code: one redemption, however many race for it', () => {
  it('sixteen redemptions of one code sent at once: exactly one gets the token', async () => {
    const { code } = await mintOpenCode(socketPath, controlToken);
    const answers = await Promise.all(
      Array.from({ length: 16 }, () =>
        raw({
          path: OPEN_CODE_REDEEM_PATH,
          headers: {
            origin: `http://127.0.0.1:${port}`,
            'sec-fetch-site': 'same-origin',
            'content-type': 'application/json',
          },
          body: JSON.stringify({ code }),
        }),
      ),
    );
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    expect(JSON.parse(won[0]!.body)).toEqual({ token: controlToken });
    for (const lost of answers.filter((a) => a.status !== 200)) {
      expect(lost.status).toBe(410);
      expect(lost.body).not.toContain(controlToken);
    }
  });

  it('a code is redeemed only by a POST whose body names it: not from the query, a form or a GET', async () => {
    const { code } = await mintOpenCode(socketPath, controlToken);
    const own = { origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' };
    const tries = [
      { method: 'GET', path: `${OPEN_CODE_REDEEM_PATH}?code=${code}`, headers: own },
      {
        method: 'POST',
        path: `${OPEN_CODE_REDEEM_PATH}?code=${code}`,
        headers: { ...own, 'content-type': 'application/json' },
        body: '{}',
      },
      {
        method: 'POST',
        path: OPEN_CODE_REDEEM_PATH,
        headers: { ...own, 'content-type': 'application/x-www-form-urlencoded' },
        body: `code=${code}`,
      },
    ];
    for (const attempt of tries) {
      const res = await raw(attempt);
      expect(res.status, JSON.stringify(attempt)).not.toBe(200);
      expect(res.body).not.toContain(controlToken);
    }
  });
});

describe('headers: caching, framing, sniffing', () => {
  it('every control answer — success, refusal, error — is no-store and nosniff', async () => {
    const auth = { authorization: `Bearer ${controlToken}`, 'content-type': 'application/json' };
    const answers = await Promise.all([
      raw({
        path: '/api/rpc',
        headers: auth,
        body: JSON.stringify({ method: 'listPending', params: [] }),
      }),
      raw({ path: '/api/rpc', headers: auth, body: '{' }),
      raw({
        path: '/api/rpc',
        headers: auth,
        body: JSON.stringify({ method: 'nope', params: [] }),
      }),
      raw({ path: '/api/rpc', body: '{}' }),
      raw({ path: '/api/rpc', headers: { authorization: `Bearer ${t.token}` }, body: '{}' }),
      raw({ method: 'GET', path: '/api/rpc', headers: auth }),
      raw({ path: OPEN_CODE_REDEEM_PATH, headers: { origin: 'https://evil.example' }, body: '{}' }),
      raw({
        path: OPEN_CODE_REDEEM_PATH,
        headers: { origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json' },
        body: JSON.stringify({ code: 'spent' }),
      }),
      raw({ method: 'GET', path: '/api/nothing-here' }),
      raw({ method: 'GET', path: '/healthz' }),
    ]);
    // Too large (the open code's 1 KiB bound): refused before it is read whole.
    answers.push(
      await raw({
        path: OPEN_CODE_REDEEM_PATH,
        headers: { origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json' },
        body: 'x'.repeat(2048),
      }),
    );
    expect(answers.map((a) => a.status)).toEqual([
      200, 400, 404, 401, 403, 405, 403, 410, 404, 200, 413,
    ]);
    for (const a of answers) {
      expect(a.headers['cache-control'], `${a.status} ${a.body}`).toBe('no-store');
      expect(a.headers['x-content-type-options'], `${a.status} ${a.body}`).toBe('nosniff');
    }
  });

  it('every UI document, whatever path serves it, forbids framing, referrers and caching', async () => {
    for (const path of ['/', '/index.html', '/approve/x', '/popup', '/a/b/c', '/?token=x']) {
      const res = await raw({ method: 'GET', path });
      expect(res.status, path).toBe(200);
      expect(res.headers['x-frame-options'], path).toBe('DENY');
      expect(res.headers['content-security-policy'], path).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['referrer-policy'], path).toBe('no-referrer');
      expect(res.headers['cache-control'], path).toBe('no-store');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['cross-origin-opener-policy'], path).toBe('same-origin');
    }
    const asset = await raw({ method: 'GET', path: '/assets/app.js' });
    expect(asset.headers['x-frame-options']).toBe('DENY');
    expect(asset.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  });
});
