import * as fs from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeDirs } from './make-dirs.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Another process acting between makeDirs' look (stat) and its mkdir: `plant` runs just before
 * the mkdir of the folder at depth `at`, as a concurrent `airlock` start or a user could.
 */
let plant: ((path: string) => void) | null = null;
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    mkdirSync: (path: fs.PathLike, opts?: fs.MakeDirectoryOptions) => {
      const p = String(path);
      const other = plant;
      plant = null; // the other process's own mkdir is not watched
      other?.(p);
      plant = other;
      return real.mkdirSync(p, opts);
    },
  };
});
afterEach(() => {
  plant = null;
});

const scratch = () => tempDir('airlock-mkdirs-race-');
const parts = fc.array(fc.constantFrom('a', 'b', 'c.d', 'e_f'), { minLength: 1, maxLength: 4 });

describe('makeDirs with another process in between', () => {
  it('a folder made meanwhile (EEXIST) is what was wanted, at any depth', () => {
    fc.assert(
      fc.property(parts, fc.nat(), (names, k) => {
        const root = scratch();
        const at = join(root, ...names.slice(0, (k % names.length) + 1));
        plant = (p) => {
          if (p === at) fs.mkdirSync(p); // the other process's folder
        };
        const dir = join(root, ...names);
        makeDirs(dir, 0o700);
        plant = null;
        expect(fs.statSync(dir).isDirectory()).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it('a file made meanwhile is refused, not taken for a folder', () => {
    const root = scratch();
    plant = (p) => {
      if (p === join(root, 'x')) fs.writeFileSync(p, '');
    };
    expect(() => makeDirs(join(root, 'x', 'y'), 0o700)).toThrow(/EEXIST/);
  });

  // As `mkdir -p` (and Node's recursive mkdir) do: a link to a folder is a folder. Whoever can
  // plant one there can already write that folder; resolveDataDir then uses the link's target.
  it.runIf(process.platform !== 'win32')('a link to a folder planted meanwhile is followed', () => {
    const root = scratch();
    const elsewhere = scratch();
    plant = (p) => {
      if (p === join(root, 'x')) fs.symlinkSync(elsewhere, p);
    };
    makeDirs(join(root, 'x', 'y'), 0o700);
    expect(fs.statSync(join(elsewhere, 'y')).isDirectory()).toBe(true);
  });
});
