import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { airlockBin, runCli, requireBuilt } from '../../test-support/cli-process.js';
import { makeDirs } from './make-dirs.js';
import { existingDataDir, resolveDataDir } from './paths.js';
import { tempDir } from '../../test-support/temp-dir.js';

const scratch = () => tempDir('airlock-mkdirs-');

describe('makeDirs', () => {
  it('makes every missing folder of any nested path, owner-only, and is idempotent', () => {
    const segment = fc.stringMatching(/^[a-z0-9._-]{1,12}$/).filter((s) => s !== '.' && s !== '..');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (parts) => {
        const dir = join(scratch(), ...parts);
        makeDirs(dir, 0o700);
        makeDirs(dir, 0o700);
        const st = statSync(dir);
        expect(st.isDirectory()).toBe(true);
        if (process.platform !== 'win32') expect(st.mode & 0o777).toBe(0o700);
      }),
      { numRuns: 30 },
    );
  });
});

describe('existingDataDir (what status reads)', () => {
  it('makes nothing for any missing path, and still names a file in the way', () => {
    const segment = fc.stringMatching(/^[a-z0-9._-]{1,12}$/).filter((s) => s !== '.' && s !== '..');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (parts) => {
        const root = scratch();
        const dir = join(root, ...parts);
        expect(existingDataDir(dir, {})).toBe(dir);
        expect(readdirSync(root)).toEqual([]);
      }),
      { numRuns: 20 },
    );
    const file = join(scratch(), 'afile');
    writeFileSync(file, '');
    expect(() => existingDataDir(undefined, { AIRLOCK_DATA_DIR: file })).toThrow(
      `Cannot use ${file} as the data directory: it is a file, not a folder (ENOTDIR).`,
    );
  });
});

describe('resolveDataDir on a path that cannot be a folder', () => {
  it('says a file is in the way, and how to choose another', () => {
    const file = join(scratch(), 'afile');
    writeFileSync(file, '');
    expect(() => resolveDataDir(file, {})).toThrow(
      `Cannot use ${file} as the data directory: it is a file, not a folder (ENOTDIR). Choose another with --data-dir DIR (or AIRLOCK_DATA_DIR).`,
    );
    expect(() => resolveDataDir(join(file, 'sub'), {})).toThrow(
      /as the data directory: a part of that path is a file, not a folder \(ENOTDIR\)\. Choose another/,
    );
  });

  it.runIf(process.platform !== 'win32')('names a link that leads nowhere', () => {
    const root = scratch();
    symlinkSync(join(root, 'nowhere'), join(root, 'dangling'));
    expect(() => resolveDataDir(join(root, 'dangling', 'data'), {})).toThrow(
      /its parent cannot hold folders \(a link that leads nowhere, or a system folder such as \/proc\) \(ENOENT\)/,
    );
  });

  // Node's recursive mkdir never returns here (ENOENT, make the parent, EEXIST, retry, forever, at
  // 100 % CPU): run in the built CLI, so a regression is this test's timeout, not a frozen worker.
  it.runIf(process.platform === 'linux')(
    'under /proc it ends with the reason instead of spinning',
    async () => {
      requireBuilt();
      // agent list: a command that makes the data directory (status makes nothing: paths.ts).
      const r = await runCli(['agent', 'list', '--data-dir', '/proc/airlock-no-such/data'], {
        ...process.env,
        AIRLOCK_VAULT: 'file',
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        'airlock: Cannot use /proc/airlock-no-such/data as the data directory: its parent cannot hold folders',
      );
    },
  );

  // A read-only mount, made with bubblewrap (the local servers' sandbox; CI installs it). It was
  // "EROFS … chmod" for an existing folder, and "ENOENT … mkdir logs" once that one was 0700.
  it.runIf(process.platform === 'linux' && existsSync('/usr/bin/bwrap'))(
    'on a read-only mount it says so, for a folder that exists',
    async () => {
      requireBuilt();
      const ro = scratch(); // mkdtemp: already 0700, so nothing needs a chmod
      const { code, stderr } = await readOnly(ro, ['serve', '--port', '0', '--data-dir', ro]);
      if (/bwrap: /.test(stderr)) return; // no user namespaces here: nothing to learn
      expect(stderr).toBe(
        `airlock: Cannot use ${ro} as the data directory: the file system is read-only (EROFS). Choose another with --data-dir DIR (or AIRLOCK_DATA_DIR).\n`,
      );
      expect(code).toBe(1);
      // A query still answers there: status needs nothing written (it said the same refusal).
      const status = await readOnly(ro, ['status', '--data-dir', ro]);
      expect(status.stderr).toBe('');
      expect(status.stdout).toContain(`Airlock is not running for ${ro}.`);
      expect(status.code).toBe(1);
    },
  );
});

/** The built CLI with `ro` bound read-only (bubblewrap), the rest of the file system as it is. */
async function readOnly(ro: string, args: string[]) {
  const child = spawn(
    '/usr/bin/bwrap',
    ['--bind', '/', '/', '--ro-bind', ro, ro, '--dev', '/dev', '--proc', '/proc'].concat(
      process.execPath,
      airlockBin,
      args,
    ),
    { env: { ...process.env, AIRLOCK_VAULT: 'file' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}
