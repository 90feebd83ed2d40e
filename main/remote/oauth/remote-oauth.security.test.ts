import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../test-support/cleanup.js';
import type { CoreEvent } from '../../../common/contract/index.js';
import { httpControlClient } from '../../../common/http-control-client.js';
import { readControlToken } from '../../app/app.js';
import { OAuthUpstream } from '../../../test-support/oauth-upstream.js';
import { agentClient, startRemoteApp } from '../../../test-support/remote-app.js';
import { followAuthorization } from './auto-follow.js';

/**
 * Issue 10, "Must hold": no OAuth token (access or refresh) and no client
 * secret in settings, logs, ControlApi responses (in process, over HTTP,
 * events) or MCP responses — checked by value, with an upstream that echoes
 * the access token it receives and a refresh in between.
 */
const cleanup = cleanupAfterEach();

const CLIENT_SECRET = `cs_${randomBytes(24).toString('base64url')}`;

function filesWith(dir: string, needle: string): string[] {
  const hits: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) hits.push(...filesWith(p, needle));
    // Regular files only: a running server's control socket cannot be read.
    else if (st.isFile() && readFileSync(p).includes(needle)) hits.push(p);
  }
  return hits;
}

describe('OAuth tokens of remote servers never leave the vault', () => {
  it('not in settings, logs, ControlApi responses or events, nor in MCP responses (even when echoed)', async () => {
    const up = new OAuthUpstream([
      {
        name: 'echo',
        annotations: { readOnlyHint: true },
        run: (_a, auth) => ({
          content: [{ type: 'text', text: `you sent ${auth.token}` }],
          structuredContent: { token: auth.token },
        }),
      },
    ]);
    await up.start();
    cleanup.push(() => up.stop());
    const t = await startRemoteApp({ logLevel: 'debug' });
    cleanup.push(() => t.stop());
    const http = httpControlClient(t.started.url, (await readControlToken(t.vault))!);
    const seen: unknown[] = [];
    const events: CoreEvent[] = [];
    const off = t.app.events.subscribe((e) => events.push(e));
    cleanup.push(async () => off());

    seen.push(await http.addRemote({ name: 'svc', url: up.url }));
    up.expireNextIn(1); // the first access token is renewed during the calls below
    // A pre-registered client with a secret (the server does not need it, but it must be kept secret all the same).
    const start = await http.loginRemote('svc', {
      clientId: 'my-client',
      clientSecret: CLIENT_SECRET,
      openBrowser: false,
    });
    seen.push(start);
    await followAuthorization(start.authUrl, start.redirectUri);
    seen.push(await http.waitRemoteLogin(start.flowId, 10_000));

    const agent = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => agent.close());
    seen.push(await agent.listTools());
    await expect
      .poll(
        async () => {
          const r = await agent.callTool({ name: 'svc__echo', arguments: {} });
          seen.push(r);
          expect(JSON.stringify(r)).toContain('you sent [redacted]');
          return up.refreshRequests().length;
        },
        { interval: 200 },
      )
      .toBeGreaterThan(0);
    seen.push(await http.listRemotes(), await t.app.control.listRemotes(), await http.getStatus());
    up.revokeEverything();
    seen.push(await agent.callTool({ name: 'svc__echo', arguments: {} }), await http.listRemotes());
    seen.push(await http.logoutRemote('svc'));

    const secrets = [...up.issued, CLIENT_SECRET];
    expect(up.issued.size).toBeGreaterThanOrEqual(4); // two access + two refresh tokens at least
    const wire = JSON.stringify([seen, events]);
    for (const s of secrets) {
      expect(wire.includes(s), 'a ControlApi/MCP response or event carries a token').toBe(false);
      expect(
        filesWith(t.dataDir, s),
        'a token is in a file of the data directory (settings, logs, database)',
      ).toEqual([]);
    }
    // The vault does hold them: the check above is not vacuous.
    expect(await t.vault.get('remote:svc:oauth')).toContain(CLIENT_SECRET);
  });
});
