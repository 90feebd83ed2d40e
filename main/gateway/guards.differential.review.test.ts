import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { CountingSource, startTestApp, type TestApp } from '../../test-support/harness.js';
import { mulberry32 } from '../../test-support/seeded-random.js';

/**
 * Review of issue 34's agent-facing cuts (wave 3 session 29, h-down): the HTTP guards (Host,
 * Origin, bearer, the /mcp URL shortcut, content types, body limits) and both eras' everyday
 * requests answer exactly as the build before the cuts did. A differential run: the same
 * generated requests go to this tree's app and to a baseline tree's (AIRLOCK_BASELINE_TREE, a
 * checkout of the commit before the cuts with node_modules linked in); status, headers and body
 * must match once the ports, session ids and tokens, which differ by construction, are scrubbed.
 * Skipped without a baseline tree (it is a review tool, not a unit test).
 */
const BASE = process.env['AIRLOCK_BASELINE_TREE'];
if (!BASE)
  console.log(
    'guards.differential.review.test.ts skipped: set AIRLOCK_BASELINE_TREE to a built checkout to compare against (a review tool, not part of the suite)',
  );
const SEEDS = (process.env['AIRLOCK_DIFF_SEEDS'] ?? '1').split(',').map(Number);
const COUNT = Number(process.env['AIRLOCK_DIFF_COUNT'] ?? '150');

interface Side {
  t: TestApp;
  port: number;
  other: string;
  revoked: string;
  /** A 2025 session (initialized), its id; a second one for cross-session use. */
  sid: string;
  sid2: string;
  /** A session whose client declared URL elicitation (its lone calls take approval-url's steps). */
  sidUrl: string;
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  port: number,
  opts: { method: string; path: string; headers: Record<string, string | string[]>; body?: string },
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method,
        path: opts.path,
        headers: opts.headers,
        setHost: false,
        agent: false,
      },
      (res) => {
        // A GET's standalone event stream stays open: its head is what is compared.
        if (
          opts.method === 'GET' &&
          String(res.headers['content-type']).startsWith('text/event-stream')
        ) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '(stream)' });
          return void res.destroy();
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (e) =>
      resolve({ status: -1, headers: {}, body: `error ${(e as { code?: string }).code}` }),
    );
    // A refused large body resets the connection under the write: the answer already came.
    req.on('socket', (sock) => sock.on('error', () => {}));
    req.end(opts.body);
  });
}

const ACCEPT = 'application/json, text/event-stream';

async function initialize(
  s: { t: TestApp; port: number },
  capabilities: Record<string, unknown> = {},
): Promise<string> {
  const headers = {
    host: `127.0.0.1:${s.port}`,
    authorization: `Bearer ${s.t.token}`,
    'content-type': 'application/json',
    accept: ACCEPT,
  };
  const r = await send(s.port, {
    method: 'POST',
    path: '/mcp',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities,
        clientInfo: { name: 'd', version: '1' },
      },
    }),
  });
  const sid = r.headers['mcp-session-id'] as string;
  await send(s.port, {
    method: 'POST',
    path: '/mcp',
    headers: { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return sid;
}

async function side(
  load: () => Promise<{ startTestApp: typeof startTestApp; CountingSource: typeof CountingSource }>,
): Promise<Side> {
  const m = await load();
  const t = await m.startTestApp({ sources: [new m.CountingSource()] });
  const port = t.started.port;
  const other = (await t.app.control.addAgent('other')).token;
  const revoked = (await t.app.control.addAgent('gone')).token;
  await t.app.control.revokeAgent('gone');
  const sid = await initialize({ t, port });
  const sid2 = await initialize({ t, port });
  const sidUrl = await initialize({ t, port }, { elicitation: { form: {}, url: {} } });
  return { t, port, other, revoked, sid, sid2, sidUrl };
}

type Pick = <T>(xs: readonly T[]) => T;

/** One request variant, in terms a side fills in (its port, tokens, sessions). */
type Variant = (s: Side) => {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: string;
};

function generate(seed: number, n: number): { label: string; make: Variant }[] {
  const rnd = mulberry32(seed);
  const pick: Pick = (xs) => xs[Math.floor(rnd() * xs.length)]!;
  // The first entry is the everyday value, taken most of the time so that most requests reach the
  // deeper checks (one odd dimension at a time); else any entry.
  // The first entry is the everyday value. Each request has one odd dimension (any entry) and
  // the others mostly everyday, so that most requests reach the deeper checks.
  let odd = 0;
  let dim = 0;
  const usual: Pick = (xs) => (dim++ === odd || rnd() < 0.1 ? pick(xs) : xs[0]!);
  const out: { label: string; make: Variant }[] = [];
  for (let i = 0; i < n; i++) {
    odd = Math.floor(rnd() * 11);
    dim = 0;
    const host = usual([
      (s: Side) => `127.0.0.1:${s.port}`,
      (s: Side) => `localhost:${s.port}`,
      (s: Side) => `[::1]:${s.port}`,
      () => 'LOCALHOST',
      () => 'evil.example',
      () => 'localhost.',
      () => '127.0.0.1.nip.io',
      () => undefined,
    ]);
    const origin = usual<(s: Side) => string | string[] | undefined>([
      () => undefined,
      () => undefined,
      () => undefined,
      () => 'null',
      () => '',
      () => 'http://localhost',
      () => 'HTTP://LOCALHOST',
      () => 'http://localhost/',
      (s) => `http://127.0.0.1:${s.port}`,
      () => 'http://[::1]:9',
      () => 'https://evil.example',
      () => 'http://127.0.0.1.evil.example',
      () => 'file://',
      () => ['http://localhost', 'https://evil.example'],
      () => ['https://evil.example', 'http://localhost'],
      () => ' http://localhost',
    ]);
    const auth = usual<(s: Side) => string | string[] | undefined>([
      (s) => `Bearer ${s.t.token}`,
      (s) => `Bearer ${s.t.token}`,
      (s) => `Bearer ${s.t.token}`,
      (s) => `bearer ${s.t.token}`,
      (s) => `BEARER ${s.t.token}`,
      (s) => `Bearer  ${s.t.token}`,
      (s) => `Bearer ${s.t.token} `,
      (s) => ` Bearer ${s.t.token}`,
      (s) => `Basic ${s.t.token}`,
      (s) => s.t.token,
      (s) => `Bearer ${s.other}`,
      (s) => `Bearer ${s.revoked}`,
      (s) => `Bearer ${s.t.token}x`,
      () => 'Bearer ',
      () => undefined,
      (s) => [`Bearer ${s.t.token}`, `Bearer ${s.other}`],
      (s) => [`Bearer ${s.other}`, `Bearer ${s.t.token}`],
    ]);
    const path = usual<(s: Side) => string>([
      () => '/mcp',
      () => '/mcp',
      () => '/mcp',
      () => '/mcp?x=1',
      () => '/mcp?',
      () => '//mcp',
      () => '/mcp/',
      () => '/MCP',
      () => '/%6dcp',
      () => '/mcp%3F',
      () => '/mcp#f',
      (s) => `http://127.0.0.1:${s.port}/mcp`,
      () => 'http://evil.example/mcp',
      () => '/healthz',
      () => '/./mcp',
      () => '/mcp;x',
    ]);
    const method = usual(['POST', 'POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT', 'OPTIONS']);
    const type = usual<string | undefined>([
      'application/json',
      'application/json',
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'Application/Json',
      'application/json ',
      'application/json-patch+json',
      'application/jsonx',
      'text/plain',
      '',
      undefined,
    ]);
    const accept = usual<string | undefined>([
      ACCEPT,
      ACCEPT,
      ACCEPT,
      'application/json',
      'text/event-stream',
      '*/*',
      undefined,
    ]);
    const era = pick(['2025', '2025', '2026', '2026', 'none', 'init', 'reinit', 'cancel']);
    const session = usual(['own', 'own', 'own', 'second', 'url', 'url', 'bogus', 'none']);
    const version = usual<string | undefined>(
      era === '2026'
        ? ['2026-07-28', '2026-07-28', '2026-07-28', '2025-11-25', undefined]
        : [
            '2025-11-25',
            '2025-11-25',
            '2025-06-18',
            '2026-07-28',
            'bogus',
            '2024-01-01',
            '2025-11-25 ',
            undefined,
          ],
    );
    const tool = pick(['count_read', 'count_read', 'count_read', 'nope']);
    const rpc = pick(['tools/call', 'tools/call', 'tools/call', 'tools/list', 'ping']);
    const bodyKind = usual([
      'good',
      'good',
      'good',
      'good',
      'garbage',
      'empty',
      'big',
      'batch',
      'noid',
      'progress',
    ]);
    const id = usual<unknown>([1, 'a', 7, 1.5, null]);
    const label = JSON.stringify({
      i,
      method,
      era,
      session,
      version,
      tool,
      rpc,
      bodyKind,
      id,
      type,
      accept,
    });
    const make: Variant = (s) => {
      const headers: Record<string, string | string[]> = {};
      const h = host(s);
      if (h !== undefined) headers['host'] = h;
      const o = origin(s);
      if (o !== undefined) headers['origin'] = o;
      const a = auth(s);
      if (a !== undefined) headers['authorization'] = a;
      if (type !== undefined) headers['content-type'] = type;
      if (accept !== undefined) headers['accept'] = accept;
      if (version !== undefined) headers['mcp-protocol-version'] = version;
      if ((era === '2025' || era === 'reinit' || era === 'cancel') && session !== 'none')
        headers['mcp-session-id'] =
          session === 'own'
            ? s.sid
            : session === 'second'
              ? s.sid2
              : session === 'url'
                ? s.sidUrl
                : 'bogus-session';
      const params: Record<string, unknown> =
        rpc === 'tools/call'
          ? { name: tool, arguments: tool === 'count_send' ? { to: 'someone' } : {} }
          : {};
      if (era === '2026') {
        headers['mcp-method'] = rpc;
        if (rpc === 'tools/call') headers['mcp-name'] = tool;
        params['_meta'] = {
          [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
          [CLIENT_CAPABILITIES_META_KEY]: {},
          [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1' },
        };
      }
      if (bodyKind === 'progress')
        params['_meta'] = { ...(params['_meta'] as object), progressToken: 'p' };
      const msg =
        era === 'cancel'
          ? {
              jsonrpc: '2.0',
              method: 'notifications/cancelled',
              params: { requestId: id, reason: 'r' },
            }
          : era === 'init' || era === 'reinit'
            ? {
                jsonrpc: '2.0',
                id,
                method: 'initialize',
                params: {
                  protocolVersion: '2025-11-25',
                  capabilities: {},
                  clientInfo: { name: 'x', version: '1' },
                },
              }
            : { jsonrpc: '2.0', ...(bodyKind === 'noid' ? {} : { id }), method: rpc, params };
      const body =
        bodyKind === 'garbage'
          ? '{"jsonrpc":'
          : bodyKind === 'empty'
            ? ''
            : bodyKind === 'big'
              ? JSON.stringify({ ...msg, pad: 'x'.repeat(5 << 20) })
              : bodyKind === 'batch'
                ? JSON.stringify([msg])
                : JSON.stringify(msg);
      return { method, path: path(s), headers, body: method === 'GET' ? undefined : body };
    };
    out.push({ label, make });
  }
  return out;
}

/** What differs by construction between the two apps: ports, session ids, tokens, times. */
function scrub(s: Side, r: Raw): unknown {
  let text = JSON.stringify({ status: r.status, headers: r.headers, body: r.body });
  for (const [v, name] of [
    [s.t.token, 'TOKEN'],
    [s.other, 'OTHER'],
    [s.revoked, 'REVOKED'],
    [s.sid, 'SID'],
    [s.sid2, 'SID2'],
    [s.sidUrl, 'SIDURL'],
    [String(s.port), 'PORT'],
  ] as const)
    text = text.split(v).join(name);
  const o = JSON.parse(text) as { headers: Record<string, unknown>; body: string };
  delete o.headers['date'];
  if (typeof o.headers['mcp-session-id'] === 'string') o.headers['mcp-session-id'] = 'NEW';
  o.body = o.body
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
    .replace(/"(durationMs|elapsedMs|ms)":\d+/g, '"$1":N');
  return o;
}

describe.skipIf(!BASE)(
  'the HTTP guards and everyday requests against the build before the cuts',
  () => {
    let mine: Side;
    let base: Side;
    beforeAll(async () => {
      mine = await side(async () => ({ startTestApp, CountingSource }));
      base = await side(() => import(`${BASE}/test-support/harness.ts`));
    }, 120_000);
    afterAll(async () => {
      await mine?.t.stop();
      await base?.t.stop();
    });

    for (const seed of SEEDS)
      it(`seed ${seed}: ${COUNT} generated requests answer alike`, async () => {
        const diffs: string[] = [];
        const statuses = new Map<number, number>();
        for (const v of generate(seed, COUNT)) {
          const a = await send(mine.port, v.make(mine));
          const b = await send(base.port, v.make(base));
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          const sa = JSON.stringify(scrub(mine, a));
          const sb = JSON.stringify(scrub(base, b));
          if (sa !== sb)
            diffs.push(`${v.label}\n  mine: ${sa.slice(0, 600)}\n  base: ${sb.slice(0, 600)}`);
        }
        console.log(
          `seed ${seed}: statuses ${JSON.stringify(Object.fromEntries(statuses))} diffs ${diffs.length}`,
        );
        expect(diffs).toEqual([]);
      }, 600_000);
  },
);
