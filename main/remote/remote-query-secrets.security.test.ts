import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { httpControlClient } from '../../common/http-control-client.js';
import { readControlToken } from '../app/app.js';
import { formatRemote } from '../cli/remote.js';
import { MemoryVault } from '../platform/vault/vault.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { sampleHome } from '../../test-support/client-configs.js';
import { agentClient, startRemoteApp } from '../../test-support/remote-app.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 29, item 5: a credential in a server URL's query string (`?api_key=…`) is kept like a
 * header value — in the vault, never in settings.json, logs, ControlApi results or `remote list`
 * — while every request still reaches the upstream with the full URL.
 */
const cleanup = cleanupAfterEach();

const KEY = `qk_${randomBytes(18).toString('hex')}`;
const OTHER = `sig_${randomBytes(12).toString('hex')}`;

function filesWith(dir: string, needle: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) return filesWith(p, needle);
    return st.isFile() && readFileSync(p).includes(needle) ? [p] : [];
  });
}

function clean(label: string, value: unknown): void {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  for (const s of [KEY, OTHER]) expect(text.includes(s), `${label} contains a secret`).toBe(false);
}

async function upstream(): Promise<FakeUpstream> {
  const up: FakeUpstream = new FakeUpstream({
    tools: [
      {
        name: 'where',
        annotations: { readOnlyHint: true },
        // An upstream that echoes the URL it was called on, in a result and in an error.
        run: async () => ({
          content: [{ type: 'text', text: `called at ${up.requests.at(-1)?.url}` }],
        }),
      },
      {
        name: 'explode',
        annotations: { readOnlyHint: true },
        run: async () => Promise.reject(new Error(`refused ${up.requests.at(-1)?.url}`)),
      },
    ],
  });
  await up.start();
  cleanup.push(() => up.stop());
  return up;
}

describe('credentials in a server URL’s query string (issue 29, item 5)', () => {
  it('go to the vault, are masked everywhere shown, and still reach the upstream', async () => {
    const up = await upstream();
    const t = await startRemoteApp({ logLevel: 'debug' });
    cleanup.push(() => t.stop());
    const api = httpControlClient(t.started.url, (await readControlToken(t.vault))!);

    const added = await api.addRemote({
      name: 'svc',
      url: `${up.url}?api_key=${KEY}&team=blue&sig=${OTHER}`,
    });
    expect(added).toMatchObject({
      state: 'ready',
      url: `${up.url}?api_key=***&team=blue&sig=***`,
    });
    clean('addRemote', added);
    const listed = await api.listRemotes();
    clean('listRemotes', listed);
    clean('remote list (CLI lines)', listed.map(formatRemote).join('\n'));
    expect(formatRemote(listed[0]!)).toContain('api_key=***&team=blue&sig=***');

    const c = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => c.close());
    const where = await c.callTool({ name: 'svc__where', arguments: {} });
    const failed = await c.callTool({ name: 'svc__explode', arguments: {} });
    expect(JSON.stringify(where)).toContain('called at /mcp?api_key=[redacted]&team=blue');
    expect(failed.isError).toBe(true);
    clean('MCP results', [where, failed]);

    // An edit that sends the masked URL back (the Servers page's form) keeps the stored values.
    // Another URL is loosening (issue 27 item 4): the window's own control (in-process, as over
    // IPC) applies it; over HTTP it would wait for the window's confirmation.
    const edited = await t.app.control.updateRemote('svc', {
      url: `${up.url}?api_key=***&team=red&sig=***`,
    });
    expect(edited).toMatchObject({ state: 'ready', url: `${up.url}?api_key=***&team=red&sig=***` });
    clean('updateRemote', edited);
    await c.callTool({ name: 'svc__where', arguments: {} });

    // Every request the upstream saw carried the full URL, exactly as given.
    const targets = new Set(up.requests.map((r) => r.url));
    expect(targets).toEqual(
      new Set([
        `/mcp?api_key=${KEY}&team=blue&sig=${OTHER}`,
        `/mcp?api_key=${KEY}&team=red&sig=${OTHER}`,
      ]),
    );

    await t.stop();
    for (const s of [KEY, OTHER]) expect(filesWith(t.dataDir, s), 'data directory').toEqual([]);
    expect(readFileSync(join(t.dataDir, 'settings.json'), 'utf8')).toContain(
      'api_key=***&team=red&sig=***',
    );
    expect(await t.vault.get('remote:svc:query')).toContain(KEY);
    // Removing the server removes them from the vault too.
    const again = await startRemoteApp({ dataDir: t.dataDir, vault: t.vault });
    cleanup.push(() => again.stop());
    await again.app.control.removeRemote('svc');
    expect(await t.vault.get('remote:svc:query')).toBeNull();
  });

  it('a settings.json from before keeps its URL credential only until the next start', async () => {
    const up = await upstream();
    const dataDir = tempDir('airlock-query-old-');
    writeFileSync(
      join(dataDir, 'settings.json'),
      JSON.stringify({
        remotes: [
          { name: 'old', url: `${up.url}?token=${KEY}`, createdAt: '2025-01-01T00:00:00.000Z' },
        ],
      }),
      { mode: 0o600 },
    );
    const vault = new MemoryVault();
    const t = await startRemoteApp({ dataDir, vault });
    cleanup.push(() => t.stop());
    expect(readFileSync(join(dataDir, 'settings.json'), 'utf8')).not.toContain(KEY);
    const [view] = await t.app.control.listRemotes();
    expect(view).toMatchObject({ state: 'ready', url: `${up.url}?token=***` });
    expect(up.requests.every((r) => r.url === `/mcp?token=${KEY}`)).toBe(true);
  });

  it('imported from another app’s config: masked in the preview, and not imported twice', async () => {
    const up = await upstream();
    const h = sampleHome({ home: tempDir('airlock-home-'), only: ['cursor'] });
    writeFileSync(
      h.paths.cursor,
      JSON.stringify({ mcpServers: { keyed: { url: `${up.url}?api_key=${KEY}` } } }),
    );
    const t = await startRemoteApp({ clientsEnv: h.env });
    cleanup.push(() => t.stop());
    const dry = await t.app.control.importClients({ clients: ['cursor'], dryRun: true });
    expect(dry.items).toMatchObject([
      { name: 'keyed', action: 'add', summary: `${up.url}?api_key=***`, secretNames: ['api_key'] },
    ]);
    clean('import preview', dry);
    const done = await t.app.control.importClients({ clients: ['cursor'] });
    expect(done).toMatchObject({ added: ['keyed'] });
    clean('import result', done);
    expect(readFileSync(join(t.dataDir, 'settings.json'), 'utf8')).not.toContain(KEY);
    const again = await t.app.control.importClients({ clients: ['cursor'], dryRun: true });
    expect(again.items).toMatchObject([{ name: 'keyed', action: 'skip' }]);
  });

  it('a masked value with nothing stored is refused with what to do', async () => {
    const up = await upstream();
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    await expect(
      t.app.control.addRemote({ name: 'x', url: `${up.url}?api_key=***` }),
    ).rejects.toThrow(/give the real value/);
    expect(t.app.settings.get().remotes).toEqual([]);
  });
});
