import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectClient, startTestApp, tempDir } from '../../test-support/harness.js';
import { resolveDataDir } from './paths.js';

/**
 * Issue 17, item 5: everything Airlock writes is readable by its owner only,
 * including SQLite's -wal and -shm files and a data directory made before.
 */
const posix = process.platform !== 'win32';

function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string, rel: string) => {
    out[rel] = (statSync(path).mode & 0o777).toString(8);
    if (statSync(path).isDirectory())
      for (const name of readdirSync(path)) walk(join(path, name), rel ? `${rel}/${name}` : name);
  };
  walk(dir, '');
  return out;
}

describe.runIf(posix)('owner-only files', () => {
  it('a new data directory: every file 0600, every folder 0700 (db, -wal, -shm, settings, server.json, lock, logs)', async () => {
    const t = await startTestApp();
    try {
      const client = await connectClient(t.started.mcpUrl, t.token);
      await client.callTool({ name: 'airlock_status', arguments: {} });
      await client.close();
      const seen = modes(t.dataDir);
      for (const name of [
        'airlock.db',
        'airlock.db-wal',
        'airlock.db-shm',
        'settings.json',
        'server.json',
        'airlock.lock',
        'logs/airlock.log',
      ])
        expect(seen[name], name).toBe('600');
      for (const [name, mode] of Object.entries(seen)) {
        const isDir = statSync(join(t.dataDir, name)).isDirectory();
        expect(`${name} ${mode}`).toBe(`${name} ${isDir ? '700' : '600'}`);
      }
    } finally {
      await t.stop();
    }
  });

  it('an existing, loose data directory is tightened on start; files not Airlock’s are left alone', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o644 });
    writeFileSync(join(dir, 'airlock.db-wal'), '', { mode: 0o644 });
    writeFileSync(join(dir, 'notes.txt'), 'mine', { mode: 0o644 });
    writeFileSync(join(dir, 'vault.enc'), 'sealed', { mode: 0o644 });
    mkdirSync(join(dir, 'run'), { mode: 0o755 });
    chmodSync(join(dir, 'run'), 0o755);
    mkdirSync(join(dir, 'logs'), { mode: 0o755 });
    writeFileSync(join(dir, 'logs', 'airlock.log'), '', { mode: 0o644 });
    for (const f of [
      'settings.json',
      'airlock.db-wal',
      'notes.txt',
      'vault.enc',
      'logs/airlock.log',
    ])
      chmodSync(join(dir, f), 0o644);
    chmodSync(join(dir, 'logs'), 0o755);
    // The CLI and the shell resolve the data directory first: that alone tightens it.
    resolveDataDir(dir);
    expect(modes(dir)).toMatchObject({
      '': '700',
      'settings.json': '600',
      'vault.enc': '600',
      run: '700',
      logs: '700',
      'logs/airlock.log': '600',
    });
    chmodSync(join(dir, 'settings.json'), 0o644);
    const t = await startTestApp({ dataDir: dir });
    try {
      const seen = modes(dir);
      expect(seen).toMatchObject({ '': '700', 'settings.json': '600', 'airlock.db': '600' });
      expect(seen['notes.txt']).toBe('644');
    } finally {
      await t.stop();
    }
  });
});
