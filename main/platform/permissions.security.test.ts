import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectClient, startTestApp, tempDir } from '../../test-support/harness.js';
import { airlockBin, requireBuilt } from '../../test-support/cli-process.js';
import { ForeignDataDirError, resolveDataDir } from './paths.js';

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

/**
 * A data directory, or one of Airlock's own entries in it, that another user owns is refused
 * before anything is read or changed: its owner could rewrite settings.json (a server of
 * theirs), or plant a link where Airlock writes. Judged from the point of view of a uid passed
 * in (any user can run these), and for real as root, where the folder really is another's.
 */
describe.runIf(posix)('a data directory another user owns', () => {
  const me = process.getuid!();
  const other = me + 4242;

  it('the folder: refused with a clear error, nothing tightened or created', () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o644 });
    chmodSync(join(dir, 'settings.json'), 0o644);
    let err: unknown;
    try {
      resolveDataDir(dir, {}, other);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ForeignDataDirError);
    expect((err as Error).message).toContain(`${dir} belongs to another user (uid ${me}`);
    expect((err as Error).message).toContain('--data-dir');
    expect(modes(dir)).toEqual({ '': '755', 'settings.json': '644' });
  });

  it.runIf(me === 0)(
    'as root: a user-owned folder, or a user-owned settings.json in root’s own folder, is refused; the CLI says why and exits 1 (skipped unless root: only root can give a file away)',
    () => {
      requireBuilt();
      const theirs = tempDir();
      chownSync(theirs, other, other);
      expect(() => resolveDataDir(theirs)).toThrow(ForeignDataDirError);
      const mine = tempDir();
      writeFileSync(join(mine, 'settings.json'), '{}', { mode: 0o600 });
      chownSync(join(mine, 'settings.json'), other, other);
      expect(() => resolveDataDir(mine)).toThrow(
        `${join(mine, 'settings.json')} belongs to another user`,
      );
      const cli = spawnSync(
        process.execPath,
        [airlockBin, 'serve', '--data-dir', theirs, '--port', '0'],
        {
          encoding: 'utf8',
          env: {
            ...process.env,
            AIRLOCK_VAULT: 'file',
            AIRLOCK_VAULT_PASSPHRASE: 'not-used-here-1234',
          },
        },
      );
      expect(cli.status).toBe(1);
      expect(cli.stderr).toContain(`airlock: ${theirs} belongs to another user (uid ${other}`);
      expect(readdirSync(theirs)).toEqual([]);
    },
  );
});
