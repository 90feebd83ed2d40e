import {
  chmodSync,
  existsSync,
  mkdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  compileCacheDir,
  enableCompileCache,
  flushCompileCache,
  prepareCompileCacheDir,
  type CompileCacheApi,
} from './compile-cache.js';
import { tempDir } from '../../test-support/temp-dir.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tmp(): string {
  const dir = tempDir('airlock-compile-cache-');
  dirs.push(dir);
  return dir;
}
const posix = process.platform !== 'win32';
const mode = (path: string) => statSync(path).mode & 0o777;

/** node:module's compile-cache API, recorded; `answer` is what enableCompileCache returns. */
function fakeApi(answer: { status: number; message?: string } = { status: 1 }) {
  const calls: string[] = [];
  const api: CompileCacheApi = {
    enableCompileCache: (dir) => {
      calls.push(dir);
      return { ...answer, directory: join(dir, 'v-node') };
    },
    constants: { compileCacheStatus: { FAILED: 0, ENABLED: 1, ALREADY_ENABLED: 2, DISABLED: 3 } },
  };
  return { api, calls };
}

describe('compileCacheDir: the per-user OS cache folder, under airlock/', () => {
  it('Linux: $XDG_CACHE_HOME, or ~/.cache when it is unset, empty or relative (XDG spec)', () => {
    const home = '/home/u';
    expect(compileCacheDir('linux', { XDG_CACHE_HOME: '/var/cache/u' }, home)).toBe(
      '/var/cache/u/airlock/compile-cache',
    );
    for (const XDG_CACHE_HOME of [undefined, '', 'relative/cache'])
      expect(compileCacheDir('linux', { XDG_CACHE_HOME }, home)).toBe(
        '/home/u/.cache/airlock/compile-cache',
      );
    expect(compileCacheDir('freebsd', {}, home)).toBe('/home/u/.cache/airlock/compile-cache');
  });

  it('macOS: ~/Library/Caches, whatever XDG_CACHE_HOME says', () => {
    expect(compileCacheDir('darwin', { XDG_CACHE_HOME: '/x' }, '/Users/u')).toBe(
      '/Users/u/Library/Caches/airlock/compile-cache',
    );
  });

  it('Windows: %LOCALAPPDATA%, or the profile default when it is unset', () => {
    const local = join('C:', 'Users', 'u', 'AppData', 'Local');
    expect(compileCacheDir('win32', { LOCALAPPDATA: '/c/local' }, '/c/u')).toBe(
      join('/c/local', 'airlock', 'compile-cache'),
    );
    expect(compileCacheDir('win32', {}, join('C:', 'Users', 'u'))).toBe(
      join(local, 'airlock', 'compile-cache'),
    );
  });
});

describe.skipIf(!posix)('prepareCompileCacheDir: owner-only, or not at all', () => {
  it('creates airlock/ and compile-cache/ 0700 even under a permissive umask', () => {
    const dir = join(tmp(), 'cache', 'airlock', 'compile-cache');
    const before = process.umask(0);
    try {
      expect(prepareCompileCacheDir(dir)).toBeNull();
    } finally {
      process.umask(before);
    }
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, '..'))).toBe(0o700);
  });

  it('tightens folders an earlier run left open to the group or others', () => {
    const dir = join(tmp(), 'airlock', 'compile-cache');
    mkdirSync(dir, { recursive: true });
    chmodSync(join(dir, '..'), 0o755);
    chmodSync(dir, 0o775);
    expect(prepareCompileCacheDir(dir)).toBeNull();
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, '..'))).toBe(0o700);
  });

  it('refuses a symbolic link, a file in the way, and a folder of another user', () => {
    const base = tmp();
    mkdirSync(join(base, 'elsewhere'));
    symlinkSync(join(base, 'elsewhere'), join(base, 'airlock'));
    expect(prepareCompileCacheDir(join(base, 'airlock', 'compile-cache'))).toMatch(
      /not a plain folder/,
    );
    const file = join(tmp(), 'airlock');
    writeFileSync(file, 'not a folder');
    expect(prepareCompileCacheDir(join(file, 'compile-cache'))).toMatch(/./);
    const theirs = join(tmp(), 'airlock', 'compile-cache');
    expect(prepareCompileCacheDir(theirs, 'linux', statSync(tmpdir()).uid + 4242)).toMatch(
      /belongs to another user/,
    );
  });
});

describe('enableCompileCache: a speed-up that never stops a start', () => {
  it('enables the cache in the prepared folder', () => {
    const dir = join(tmp(), 'airlock', 'compile-cache');
    const { api, calls } = fakeApi();
    expect(enableCompileCache({ env: {}, dir, api })).toEqual({
      status: 'enabled',
      directory: join(dir, 'v-node'),
    });
    expect(calls).toEqual([dir]);
    if (posix) expect(mode(dir)).toBe(0o700);
  });

  it("honours Node's NODE_DISABLE_COMPILE_CACHE: off, and no folder is made", () => {
    const dir = join(tmp(), 'airlock', 'compile-cache');
    const { api, calls } = fakeApi();
    const r = enableCompileCache({ env: { NODE_DISABLE_COMPILE_CACHE: '1' }, dir, api });
    expect(r).toEqual({ status: 'off', why: 'NODE_DISABLE_COMPILE_CACHE is set' });
    expect(calls).toEqual([]);
    expect(existsSync(join(dir, '..'))).toBe(false);
  });

  it('leaves a cache the user placed with NODE_COMPILE_CACHE alone (Node has enabled it)', () => {
    const dir = join(tmp(), 'airlock', 'compile-cache');
    const { api, calls } = fakeApi();
    expect(enableCompileCache({ env: { NODE_COMPILE_CACHE: '/elsewhere' }, dir, api })).toEqual({
      status: 'off',
      why: 'NODE_COMPILE_CACHE is set',
    });
    expect(calls).toEqual([]);
  });

  it('says why, never throws: no API, a failed enable, a throwing API, an unusable folder', () => {
    const dir = join(tmp(), 'airlock', 'compile-cache');
    expect(enableCompileCache({ env: {}, dir, api: {} })).toMatchObject({ status: 'off' });
    const failed = fakeApi({ status: 0, message: 'Cannot create cache directory: EACCES' });
    expect(enableCompileCache({ env: {}, dir, api: failed.api })).toEqual({
      status: 'off',
      why: 'Cannot create cache directory: EACCES',
    });
    const throwing: CompileCacheApi = {
      enableCompileCache: () => {
        throw new Error('boom');
      },
    };
    expect(enableCompileCache({ env: {}, dir, api: throwing })).toEqual({
      status: 'off',
      why: 'boom',
    });
    const file = join(tmp(), 'a-file');
    writeFileSync(file, '');
    const { api, calls } = fakeApi();
    expect(enableCompileCache({ env: {}, dir: join(file, 'compile-cache'), api })).toMatchObject({
      status: 'off',
    });
    expect(calls).toEqual([]);
    expect(() =>
      flushCompileCache({
        flushCompileCache: () => {
          throw new Error('EROFS');
        },
      }),
    ).not.toThrow();
  });
});
