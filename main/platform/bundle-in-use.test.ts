import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-dir.js';
import { filesInUse, GENERATION, holdBundleFiles, isBookkeeping } from './bundle-in-use.js';

/** A bundle folder with a build list, as scripts/build-cli.mjs leaves it. */
function bundleDir(files: string[]): string {
  const dir = join(tempDir('airlock-bundle-in-use-'), 'dist', 'main', 'bundle');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, GENERATION), JSON.stringify(files));
  return dir;
}
const chunkUrl = (dir: string) => pathToFileURL(join(dir, 'cli.js')).href;

describe('the bundle files a running serve holds (bundle-in-use.ts)', () => {
  it('records its build list beside the chunks, owner-only, and takes it away on release', () => {
    const dir = bundleDir(['cli.js', 'mcp-endpoint-A1.js']);
    const release = holdBundleFiles(chunkUrl(dir));
    const list = join(dir, `.in-use-${process.pid}.json`);
    expect(existsSync(list)).toBe(true);
    if (process.platform !== 'win32') expect(statSync(list).mode & 0o777).toBe(0o600);
    expect([...filesInUse(dir, () => true)]).toEqual(['cli.js', 'mcp-endpoint-A1.js']);
    release();
    expect(existsSync(list)).toBe(false);
  });

  it('records nothing outside a bundle folder (tsc’s per-file output) or without a build list', () => {
    const dir = bundleDir(['cli.js']);
    const elsewhere = join(dir, '..', 'platform');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, GENERATION), JSON.stringify(['x.js']));
    holdBundleFiles(pathToFileURL(join(elsewhere, 'bundle-in-use.js')).href)();
    expect(readdirSync(elsewhere)).toEqual([GENERATION]);
    const bare = join(tempDir('airlock-bundle-in-use-'), 'bundle');
    mkdirSync(bare);
    holdBundleFiles(chunkUrl(bare))();
    expect(readdirSync(bare)).toEqual([]);
  });

  it('the build keeps what running processes hold, and drops the lists of those gone', () => {
    const dir = bundleDir(['cli.js']);
    writeFileSync(join(dir, '.in-use-101.json'), JSON.stringify(['a-1.js', 'b-1.js']));
    writeFileSync(join(dir, '.in-use-102.json'), JSON.stringify(['a-2.js']));
    writeFileSync(join(dir, '.in-use-103.json'), '{ not json');
    writeFileSync(join(dir, '.in-use-104.json.tmp'), '["half');
    writeFileSync(join(dir, '.in-use-105.json.tmp'), '["gone"]');
    const alive = new Set([101, 103, 104]);
    const held = filesInUse(dir, (pid) => alive.has(pid));
    expect([...held].sort()).toEqual(['a-1.js', 'b-1.js']);
    expect(readdirSync(dir).sort()).toEqual(
      [GENERATION, '.in-use-101.json', '.in-use-103.json', '.in-use-104.json.tmp'].sort(),
    );
    for (const f of readdirSync(dir)) expect(isBookkeeping(f)).toBe(true);
    expect(isBookkeeping('mcp-endpoint-A1.js')).toBe(false);
  });
});
