import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { ownAddress } from '../../test-support/own-addresses.js';
import { startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';
import { MemoryVault } from '../platform/vault/vault.js';
import type { Resolver } from './http/address-guard.js';

/**
 * Where a server was first reached is kept with it in settings (`reach`, http/address-pin.ts),
 * through the real app: recorded at the first successful connection (a server stored before this
 * existed included), enforced on reconnects and after a restart, and loosened only by the user
 * (removing and adding the server again, or giving it another URL).
 */
const LAN = ownAddress('private');
const PUBLIC = ownAddress('public');
if (!LAN)
  console.warn(
    'remote-address-pin tests skipped: this computer has no private-network interface address to listen on.',
  );
if (!PUBLIC)
  console.warn(
    'remote-address-pin public-first test skipped: this computer has no public-class interface address to listen on.',
  );

const cleanup = cleanupAfterEach();

async function upstream(host: string, port = 0): Promise<FakeUpstream> {
  const u = new FakeUpstream({ tools: [{ name: 'echo' }] });
  await u.start(port, host);
  cleanup.push(() => u.stop());
  return u;
}

async function airlock(o: Parameters<typeof startRemoteApp>[0]): Promise<RemoteTestApp> {
  const t = await startRemoteApp(o);
  cleanup.push(() => t.stop());
  return t;
}

/** Settings as stored on disk. */
const stored = (t: RemoteTestApp, name: string) =>
  (
    JSON.parse(readFileSync(join(t.dataDir, 'settings.json'), 'utf8')) as {
      remotes: { name: string; reach?: string }[];
    }
  ).remotes.find((r) => r.name === name);

const view = async (t: RemoteTestApp, name: string) =>
  (await t.app.control.listRemotes()).find((r) => r.name === name)!;

describe.skipIf(!LAN)('the class a server was first reached at, through the app', () => {
  it('a LAN server: recorded private at its first connection; keeps working after a restart', async () => {
    const lan = await upstream(LAN!.address);
    const resolve: Resolver = () => Promise.resolve([LAN!]);
    const t = await airlock({ resolve });
    const added = await t.app.control.addRemote({
      name: 'nas',
      url: `http://nas.local:${lan.port}/mcp`,
      headers: { 'X-API-Key': 'k-1' },
    });
    expect(added.state).toBe('ready');
    expect(stored(t, 'nas')?.reach).toBe('private');
    await t.stop();
    const again = await airlock({ resolve, dataDir: t.dataDir, vault: t.vault });
    await again.app.control.refreshRemote('nas');
    expect((await view(again, 'nas')).state).toBe('ready');
  });

  it('recorded public (an earlier run): the LAN answer is refused, the LAN server sees nothing, and remove + add accepts it', async () => {
    const lan = await upstream(LAN!.address);
    const vault = new MemoryVault();
    // A first run stores the server; its settings then say it was reached at a public address.
    const first = await airlock({ vault, resolve: () => Promise.resolve([LAN!]) });
    const url = `http://mcp.example.test:${lan.port}/mcp`;
    await first.stop();
    const file = join(first.dataDir, 'settings.json');
    const s = JSON.parse(readFileSync(file, 'utf8')) as { remotes: unknown[] };
    s.remotes = [
      {
        name: 'svc',
        url,
        enabled: true,
        relay: true,
        headerNames: [],
        hasToken: false,
        createdAt: new Date(0).toISOString(),
        reach: 'public',
      },
    ];
    writeFileSync(file, JSON.stringify(s));
    const t = await airlock({
      dataDir: first.dataDir,
      vault,
      resolve: () => Promise.resolve([LAN!]),
    });
    const v = await view(t, 'svc');
    expect(v.state).toBe('error');
    expect(v.detail).toContain('which is on a private network');
    expect(v.detail).toContain('remove it and add it again');
    expect(lan.requests).toEqual([]);
    // Only the user loosens: remove it and add it again.
    await t.app.control.removeRemote('svc');
    const readded = await t.app.control.addRemote({ name: 'svc', url });
    expect(readded.state).toBe('ready');
    expect(stored(t, 'svc')?.reach).toBe('private');
  });

  it('a server stored before the class was kept: recorded at its next successful connection', async () => {
    const lan = await upstream(LAN!.address);
    const vault = new MemoryVault();
    const first = await airlock({ vault });
    await first.stop();
    const file = join(first.dataDir, 'settings.json');
    const s = JSON.parse(readFileSync(file, 'utf8')) as { remotes: unknown[] };
    s.remotes = [
      {
        name: 'old',
        url: `http://nas.local:${lan.port}/mcp`,
        enabled: true,
        relay: true,
        headerNames: [],
        hasToken: false,
        createdAt: new Date(0).toISOString(),
      },
    ];
    writeFileSync(file, JSON.stringify(s));
    const t = await airlock({
      dataDir: first.dataDir,
      vault,
      resolve: () => Promise.resolve([LAN!]),
    });
    await t.app.control.refreshRemote('old');
    expect((await view(t, 'old')).state).toBe('ready');
    expect(stored(t, 'old')?.reach).toBe('private');
  });
});

describe.skipIf(!LAN || !PUBLIC)(
  'first reached at a public address, then rebound to the LAN',
  () => {
    it('recorded public; after the switch refused with no request at the LAN server; a new URL is asked anew', async () => {
      const pub = await upstream(PUBLIC!.address);
      const lan = await upstream(LAN!.address, pub.port);
      let answer = PUBLIC!;
      const t = await airlock({ resolve: () => Promise.resolve([answer]) });
      const url = `http://mcp.example.test:${pub.port}/mcp`;
      const added = await t.app.control.addRemote({
        name: 'svc',
        url,
        headers: { 'X-API-Key': 'k-1' },
      });
      expect(added.state).toBe('ready');
      expect(stored(t, 'svc')?.reach).toBe('public');
      answer = LAN!;
      await t.app.control.refreshRemote('svc');
      const v = await view(t, 'svc');
      expect(v.state).toBe('error');
      expect(v.detail).toContain(`resolves to ${LAN!.address}, which is on a private network`);
      expect(lan.requests).toEqual([]);
      // The user gives it another URL (remote-loosening.ts asks first over the control socket):
      // the class is recorded anew.
      await t.app.control.updateRemote('svc', { url: `http://mcp.example.test:${pub.port}/mcp/` });
      expect(stored(t, 'svc')?.reach).toBe('private');
      expect((await view(t, 'svc')).state).toBe('ready');
      expect(lan.requests.length).toBeGreaterThan(0);
    });
  },
);
