import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import { OAuthUpstream } from '../../../test-support/oauth-upstream.js';
import { startRemoteApp, type RemoteTestApp } from '../../../test-support/remote-app.js';
import { formatRemote } from '../../cli/remote.js';
import { followAuthorization } from './auto-follow.js';
import { oauthKey } from './store.js';

/**
 * A server whose URL path holds a credential (docs/security.md, "Credentials in a URL"): settings
 * and views show the segment as `***`, but whatever acts on the URL must get the real one — the
 * sign-in's protected-resource discovery (RFC 9728 §3.1 puts the path after
 * /.well-known/oauth-protected-resource), the resource indicator (RFC 8707), the connection, the
 * revocation at logout. The servers here record what they were asked for. And what the user is
 * shown when it fails (sign-in errors, `remote list`, events, logs) holds no secret segment.
 */
const cleanup = cleanupAfterEach();

/** Zapier's shape: base64 of two UUIDs, which path-segment.ts takes for a credential. */
const zap = () => Buffer.from(`${randomUUID()}:${randomUUID()}`).toString('base64url');

function logsOf(t: RemoteTestApp): string {
  const dir = join(t.dataDir, 'logs');
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

describe('an OAuth server with a credential in its URL path', () => {
  it('is discovered, signed in to, connected to and revoked at its real URL', async () => {
    const secret = zap();
    const up = new OAuthUpstream([{ name: 'whoami' }], {
      scopesSupported: ['notes:read'],
      path: `/api/mcp/s/${secret}/mcp`,
    });
    await up.start();
    cleanup.push(() => up.stop());
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    const api = t.app.control;
    const events: unknown[] = [];
    t.app.events.subscribe((e) => events.push(e));

    const added = await api.addRemote({ name: 'zap', url: up.url });
    expect(added).toMatchObject({ url: up.url.replace(secret, '***'), detail: 'sign-in required' });

    const start = await api.loginRemote('zap', { openBrowser: false });
    // RFC 8707: the resource is the server's real URL, not the one settings show.
    expect(new URL(start.authUrl).searchParams.get('resource')).toBe(up.url);
    await followAuthorization(start.authUrl, start.redirectUri);
    const done = await api.waitRemoteLogin(start.flowId, 10_000);
    expect(done, JSON.stringify(done)).toMatchObject({
      state: 'signed-in',
      remote: { state: 'ready', toolCount: 1, auth: { signedIn: true } },
    });
    expect(up.tokenRequests.map((r) => r.resource)).toEqual([up.url]);
    // Discovery asked for the metadata at the real path; nothing asked for a masked one.
    expect(up.requested).toContain(`/.well-known/oauth-protected-resource/api/mcp/s/${secret}/mcp`);
    expect(up.requested.filter((u) => u.includes('***') || u.includes('%2A'))).toEqual([]);

    // The record is bound to the real URL, in the vault. One from before (bound to the masked URL
    // settings show) is the same server: a restart keeps its tokens and binds them to the real one.
    const rec = JSON.parse((await t.vault.get(oauthKey('zap')))!) as { serverUrl: string };
    expect(rec.serverUrl).toBe(up.url);
    await t.vault.set(oauthKey('zap'), JSON.stringify({ ...rec, serverUrl: added.url }));
    await t.stop();
    const again = await startRemoteApp({ dataDir: t.dataDir, vault: t.vault });
    cleanup.push(() => again.stop());
    expect((await again.app.control.listRemotes())[0]).toMatchObject({
      state: 'ready',
      auth: { signedIn: true },
    });
    expect(up.tokenRequests.length).toBe(1);

    const out = await again.app.control.logoutRemote('zap');
    expect(out).toMatchObject({ revoked: true });
    expect(up.revocations.length).toBeGreaterThan(0);

    for (const [label, v] of [
      ['listRemotes', await again.app.control.listRemotes()],
      ['events', events],
      ['logs', logsOf(t)],
      ['settings.json', readFileSync(join(t.dataDir, 'settings.json'), 'utf8')],
    ] as const)
      expect(JSON.stringify(v).includes(secret), `${label} holds the path secret`).toBe(false);
  });

  it('a failed sign-in’s error text shows no path secret (RESOURCE_MISMATCH quotes the URL)', async () => {
    const secret = zap();
    // Its metadata names another resource: the refusal quotes the URL Airlock expected.
    const up = new OAuthUpstream([{ name: 'whoami' }], {
      path: `/api/mcp/s/${secret}/mcp`,
      resource: 'https://elsewhere.example/mcp',
    });
    await up.start();
    cleanup.push(() => up.stop());
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    const events: unknown[] = [];
    t.app.events.subscribe((e) => events.push(e));
    await t.app.control.addRemote({ name: 'zap', url: up.url });
    const err = await t.app.control.loginRemote('zap', { openBrowser: false }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toContain('RESOURCE_MISMATCH');
    expect(err?.message).toContain('/api/mcp/s/');
    expect(err?.message).not.toContain(secret);
    const listed = await t.app.control.listRemotes();
    for (const [label, v] of [
      ['listRemotes', listed],
      ['remote list', listed.map(formatRemote).join('\n')],
      ['events', events],
      ['logs', logsOf(t)],
    ] as const)
      expect(JSON.stringify(v).includes(secret), `${label} holds the path secret`).toBe(false);
  });
});

describe('a server with a credential in its URL path that fails to connect', () => {
  // What servers answer with: a 404 page quoting the path (Express's), a 500 quoting it, a
  // JSON-RPC error whose message quotes it — the server's words reach the status line.
  const answers: [
    string,
    (url: string, res: import('node:http').ServerResponse, id: unknown) => void,
  ][] = [
    [
      'a 404 page',
      (u, res) => res.writeHead(404, { 'content-type': 'text/html' }).end(`Cannot POST ${u}`),
    ],
    [
      'a 500',
      (u, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`crashed on ${u}`),
    ],
    [
      'a JSON-RPC error',
      (u, res, id) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            error: { code: -32600, message: `no such user ${u}` },
          }),
        ),
    ],
  ];
  it.each(answers)(
    'shows the failure (%s) without the secret in remote list, events and logs',
    async (_label, answer) => {
      const secret = zap();
      const http = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          let id: unknown = null;
          try {
            id =
              (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown }).id ?? null;
          } catch {
            // a GET (the SSE fallback): no body
          }
          answer(req.url ?? '', res, id);
        });
      });
      await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
      cleanup.push(() => new Promise<void>((r) => http.close(() => r())));
      const port = (http.address() as AddressInfo).port;
      const t = await startRemoteApp({ logLevel: 'debug' });
      cleanup.push(() => t.stop());
      const events: unknown[] = [];
      t.app.events.subscribe((e) => events.push(e));
      const added = await t.app.control.addRemote({
        name: 'zap',
        url: `http://127.0.0.1:${port}/api/mcp/s/${secret}/mcp`,
      });
      expect(added.state).toBe('error');
      const listed = await t.app.control.listRemotes();
      const lines = listed.map(formatRemote).join('\n');
      expect(lines).toMatch(/error: .*from server/);
      for (const [label, v] of [
        ['addRemote', added],
        ['listRemotes', listed],
        ['remote list', lines],
        ['events', events],
        ['logs', logsOf(t)],
      ] as const)
        expect(JSON.stringify(v).includes(secret), `${label} holds the path secret`).toBe(false);
    },
  );
});
