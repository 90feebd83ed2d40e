import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './db.js';
import { tempDir } from '../../test-support/temp-dir.js';

describe('openDatabase', () => {
  const cwd = process.cwd();
  const dirs: string[] = [];
  afterEach(() => {
    process.chdir(cwd);
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const scratch = () => {
    const d = tempDir('airlock-db-');
    dirs.push(d);
    return d;
  };

  it("SQLite's in-memory name opens a database in memory and leaves no file behind", () => {
    const dir = scratch();
    process.chdir(dir);
    const db = openDatabase(':memory:');
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThan(0);
    db.close();
    expect(existsSync(join(dir, ':memory:'))).toBe(false);
  });

  it('a database file and its WAL files are owner-only', () => {
    if (process.platform === 'win32') return void console.log('skipped: no POSIX modes on Windows');
    const path = join(scratch(), 'airlock.db');
    const db = openDatabase(path);
    db.prepare('CREATE TABLE t (x)').run();
    for (const f of [path, `${path}-wal`]) expect(statSync(f).mode & 0o777).toBe(0o600);
    db.close();
  });

  it("keeps SQLite's own 2 MB page cache, not better-sqlite3's 16 MB (resident memory grew with the activity table)", () => {
    const db = openDatabase(':memory:');
    expect(db.pragma('cache_size', { simple: true })).toBe(-2000);
    db.close();
  });
});
