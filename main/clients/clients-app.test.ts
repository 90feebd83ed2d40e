import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { sampleHome } from '../../test-support/client-configs.js';
import { agentClient, startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';
import { envKey } from '../remote/stdio/stdio-config.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 15 through a real Airlock: a Cursor config's local server imported
 * (started, its secret in the vault), Cursor connected with a token that the
 * gateway accepts, and the imported entry taken out of Cursor's file.
 */
const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);
const cleanup = cleanupAfterEach();

describe('clients through the App', () => {
  it('import → connect → the written token works → --remove-imported', async () => {
    const h = sampleHome({ home: tempDir('airlock-home-'), only: ['cursor'] });
    const secret = 'cursor_env_secret_4242';
    writeFileSync(
      h.paths.cursor,
      `{
  // mine
  "mcpServers": {
    "everything": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(EVERYTHING)}, "stdio"], "env": { "EV_KEY": "${secret}" } }
  }
}
`,
    );
    const t: RemoteTestApp = await startRemoteApp({ clientsEnv: h.env });
    cleanup.push(() => t.stop());

    const dry = await t.app.control.importClients({ clients: ['cursor'], dryRun: true });
    expect(dry.items.map((i) => [i.name, i.action])).toEqual([['everything', 'add']]);
    expect(await t.app.control.listRemotes()).toEqual([]);

    const r = await t.app.control.importClients({ clients: ['cursor'] });
    expect(r).toMatchObject({ added: ['everything'], failed: {} });
    const [view] = await t.app.control.listRemotes();
    expect(view).toMatchObject({
      name: 'everything',
      origin: 'cursor',
      state: 'ready',
      transport: 'stdio',
    });
    expect(view!.stdio!.secretEnvNames).toEqual(['EV_KEY']);
    expect(JSON.parse((await t.vault.get(envKey('everything')))!)).toEqual({ EV_KEY: secret });
    expect(readFileSync(join(t.dataDir, 'settings.json'), 'utf8')).not.toContain(secret);

    const connected = await t.app.control.connectClient('cursor');
    expect(connected).toMatchObject({
      agent: 'Cursor',
      files: [{ entry: 'added', changed: true }],
    });
    const written = parseJsonc(readFileSync(h.paths.cursor, 'utf8')) as {
      mcpServers: Record<string, { url?: string; headers?: Record<string, string> }>;
    };
    const auth = written.mcpServers.airlock!.headers!.Authorization!;
    // Issue 29.1: the URL the running server answers on (port 0 → a free one), not the settings port.
    expect(t.started.port).not.toBe(t.app.settings.get().port);
    expect(written.mcpServers.airlock!.url).toBe(t.started.mcpUrl);
    expect(connected.url).toBe(t.started.mcpUrl);
    // The token Cursor got is a working agent token.
    const c = await agentClient(t.started.mcpUrl, auth.replace(/^Bearer /, ''));
    cleanup.push(() => c.close());
    expect((await c.listTools()).tools.map((x) => x.name)).toContain('everything__echo');
    expect((await t.app.control.listClients()).find((x) => x.id === 'cursor')).toMatchObject({
      connected: true,
      entryUrl: t.started.mcpUrl,
    });
    expect(
      (await t.app.control.listClients()).find((x) => x.id === 'cursor')!.stale,
    ).toBeUndefined();

    // Again: nothing changes, no second agent.
    const again = await t.app.control.connectClient('cursor');
    expect(again.files[0]).toMatchObject({ changed: false, entry: 'unchanged' });
    expect((await t.app.control.listAgents()).filter((a) => a.name === 'Cursor')).toHaveLength(1);

    const removed = await t.app.control.connectClient('cursor', { removeImported: true });
    expect(removed.files[0]).toMatchObject({ removed: ['everything'], changed: true });
    const text = readFileSync(h.paths.cursor, 'utf8');
    expect(text).toContain('// mine');
    expect(Object.keys((parseJsonc(text) as { mcpServers: object }).mcpServers)).toEqual([
      'airlock',
    ]);
  });
});

describe('a client entry that no longer reaches this Airlock (issue 29.1)', () => {
  it('another port, or a revoked agent: listed as stale with the fix; connect makes it work again', async () => {
    const h = sampleHome({ home: tempDir('airlock-home-'), only: ['codex'] });
    const t: RemoteTestApp = await startRemoteApp({ clientsEnv: h.env });
    cleanup.push(() => t.stop());
    const codexOf = async () => (await t.app.control.listClients()).find((x) => x.id === 'codex')!;

    await t.app.control.connectClient('codex');
    expect(await codexOf()).toMatchObject({ connected: true, entryUrl: t.started.mcpUrl });

    // What a restart on another port leaves behind: the entry at the old port.
    const old = `http://127.0.0.1:${t.started.port === 47821 ? 47822 : 47821}/mcp`;
    const text = readFileSync(h.paths.codex, 'utf8');
    writeFileSync(h.paths.codex, text.replace(t.started.mcpUrl, old));
    const stale = await codexOf();
    expect(stale).toMatchObject({ connected: false, entryUrl: old });
    expect(stale.stale).toContain(
      `points at ${old}, but this Airlock answers on ${t.started.mcpUrl}`,
    );
    expect(stale.stale).toContain('airlock clients connect codex');

    const again = await t.app.control.connectClient('codex');
    expect(again.files[0]).toMatchObject({ entry: 'updated', changed: true });
    expect(await codexOf()).toMatchObject({ connected: true });

    // A revoked agent: same URL, but its token no longer works.
    await t.app.control.revokeAgent('Codex');
    expect((await codexOf()).stale).toMatch(
      /not a current agent token.*airlock clients connect codex/,
    );
    await t.app.control.connectClient('codex');
    const written = parseToml(readFileSync(h.paths.codex, 'utf8')) as {
      mcp_servers: { airlock: { url: string; http_headers: { Authorization: string } } };
    };
    const c = await agentClient(
      written.mcp_servers.airlock.url,
      written.mcp_servers.airlock.http_headers.Authorization.replace(/^Bearer /, ''),
    );
    cleanup.push(() => c.close());
    expect((await c.listTools()).tools.length).toBeGreaterThan(0);
    expect(await codexOf()).toMatchObject({ connected: true });
  });
});
