import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { httpControlClient } from '../../common/http-control-client.js';
import { readControlToken } from '../app/app.js';
import { formatRemote } from '../cli/remote.js';
import { MemoryVault } from '../platform/vault/vault.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { startRemoteApp } from '../../test-support/remote-app.js';

/**
 * docs/security.md, "No credentials of a server URL": a credential in a server URL's path (Zapier's `/api/mcp/s/<secret>/mcp`,
 * Pipedream's and Composio's per-user URLs) is kept as a query credential is (issue 29, item 5):
 * in the vault, never in settings.json, the data directory, ControlApi results, `remote list` or
 * the event stream — while the upstream is called on the URL exactly as the user gave it.
 */
const cleanup = cleanupAfterEach();

const ZAP = Buffer.from(`${randomUUID()}:${randomUUID()}`).toString('base64');
const TOK = randomBytes(24).toString('base64url');
/** A per-user URL no rule can call secret (ordinary words): the user marks the URL secret. */
const WORDY = `team-${randomBytes(4).toString('hex')}-calendar`;

function filesWith(dir: string, needle: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) return filesWith(p, needle);
    return st.isFile() && readFileSync(p).includes(needle) ? [p] : [];
  });
}

function clean(label: string, value: unknown, secrets: string[]): void {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  for (const s of secrets) expect(text.includes(s), `${label} contains a secret`).toBe(false);
}

async function upstream(): Promise<{ up: FakeUpstream; origin: string }> {
  const up = new FakeUpstream({ tools: [] });
  await up.start();
  cleanup.push(() => up.stop());
  return { up, origin: new URL(up.url).origin };
}

describe('credentials in a server URL’s path (docs/security.md, "No credentials of a server URL")', () => {
  it('go to the vault, are masked everywhere shown, and the upstream gets the URL byte for byte', async () => {
    const { up, origin } = await upstream();
    const t = await startRemoteApp({ logLevel: 'debug' });
    cleanup.push(() => t.stop());
    const api = httpControlClient(t.started.url, (await readControlToken(t.vault))!);
    const events: unknown[] = [];
    t.app.events.subscribe((e) => events.push(e));

    const added = await api.addRemote({
      name: 'zap',
      url: `${origin}/api/mcp/s/${ZAP}/mcp?transport=http`,
    });
    expect(added).toMatchObject({
      state: 'ready',
      url: `${origin}/api/mcp/s/***/mcp?transport=http`,
    });
    const other = await api.addRemote({ name: 'pd', url: `${origin}/${TOK}/v1/github` });
    expect(other).toMatchObject({ state: 'ready', url: `${origin}/***/v1/github` });
    const listed = await api.listRemotes();
    for (const [label, v] of [
      ['addRemote', [added, other]],
      ['listRemotes', listed],
      ['remote list (CLI lines)', listed.map(formatRemote).join('\n')],
      ['the control events', events],
    ] as const)
      clean(label, v, [ZAP, TOK]);

    // An edit that sends the masked URL back keeps the stored value (the window's own control).
    const edited = await t.app.control.updateRemote('zap', {
      url: `${origin}/api/mcp/s/***/mcp?transport=sse`,
    });
    expect(edited).toMatchObject({ url: `${origin}/api/mcp/s/***/mcp?transport=sse` });

    const targets = new Set(up.requests.map((r) => r.url));
    expect(targets).toEqual(
      new Set([
        `/api/mcp/s/${ZAP}/mcp?transport=http`,
        `/api/mcp/s/${ZAP}/mcp?transport=sse`,
        `/${TOK}/v1/github`,
      ]),
    );
    await t.stop();
    for (const s of [ZAP, TOK]) expect(filesWith(t.dataDir, s), 'data directory').toEqual([]);
    expect(await t.vault.get('remote:zap:query')).toContain(ZAP);
  });

  it('a URL marked secret as a whole shows only scheme, host and port', async () => {
    const { up, origin } = await upstream();
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    const added = await t.app.control.addRemote({
      name: 'cal',
      url: `${origin}/u/${WORDY}/mcp?user=alice`,
      urlSecret: true,
    });
    expect(added).toMatchObject({ state: 'ready', url: `${origin}/***/***/***?user=***` });
    expect(up.requests.every((r) => r.url === `/u/${WORDY}/mcp?user=alice`)).toBe(true);
    expect(up.requests.length).toBeGreaterThan(0);
    // An edit keeps the whole URL secret: a new path is masked too.
    await t.app.control.updateRemote('cal', { url: `${origin}/u/${WORDY}/v2` });
    const settings = readFileSync(join(t.dataDir, 'settings.json'), 'utf8');
    expect(settings).not.toContain(WORDY);
    expect(settings).toContain(`${origin}/***/***/***`);
    expect(up.requests.at(-1)?.url).toBe(`/u/${WORDY}/v2`);
  });

  it('a settings.json from before keeps its path credential only until the next start', async () => {
    const { up, origin } = await upstream();
    const dataDir = mkdtempSync(join(tmpdir(), 'airlock-path-old-'));
    writeFileSync(
      join(dataDir, 'settings.json'),
      JSON.stringify({
        remotes: [
          {
            name: 'old',
            url: `${origin}/api/mcp/s/${ZAP}/mcp`,
            createdAt: '2025-01-01T00:00:00.000Z',
          },
        ],
      }),
      { mode: 0o600 },
    );
    const vault = new MemoryVault();
    const t = await startRemoteApp({ dataDir, vault });
    cleanup.push(() => t.stop());
    const file = readFileSync(join(dataDir, 'settings.json'), 'utf8');
    expect(file).not.toContain(ZAP);
    // Still a settings file the next start reads (the atomic write of SettingsStore.update).
    expect(JSON.parse(file).remotes[0].url).toBe(`${origin}/api/mcp/s/***/mcp`);
    const [view] = await t.app.control.listRemotes();
    expect(view).toMatchObject({ state: 'ready', url: `${origin}/api/mcp/s/***/mcp` });
    expect(up.requests.length).toBeGreaterThan(0);
    expect(up.requests.every((r) => r.url === `/api/mcp/s/${ZAP}/mcp`)).toBe(true);
    await t.stop();
    const again = await startRemoteApp({ dataDir, vault });
    cleanup.push(() => again.stop());
    expect((await again.app.control.listRemotes())[0]).toMatchObject({ state: 'ready' });
  });
});
