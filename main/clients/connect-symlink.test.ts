import {
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleHome } from '../../test-support/client-configs.js';
import { connectControl } from '../../test-support/connect-control.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * An app's config file kept in a dotfiles folder and linked into place: `clients connect` edits
 * the file the link leads to and leaves the link a link — replacing it with a plain file cut
 * the config loose from the user's folder, which then no longer had what the app reads.
 */
describe.skipIf(process.platform === 'win32')('clients connect: a linked config file', () => {
  it('writes through the link; the link stays and the backup is of the linked file', async () => {
    const h = sampleHome({ home: tempDir('airlock-home-') });
    const path = h.paths.cursor;
    const dotfiles = join(h.home, 'dotfiles', 'cursor');
    mkdirSync(dotfiles, { recursive: true });
    const real = join(dotfiles, 'mcp.json');
    renameSync(path, real);
    symlinkSync(real, path);
    const before = readFileSync(real, 'utf8');
    const c = connectControl(h, 'alk_token_cursor');
    const r = await c.connectClient('cursor');
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toContain('alk_token_cursor');
    expect(readFileSync(r.files[0]!.backup!, 'utf8')).toBe(before);
    expect(dirname(r.files[0]!.backup!)).toBe(dotfiles);
  });

  it.each([
    ['leads nowhere', (p: string, home: string) => join(home, 'dotfiles', 'gone', 'mcp.json')],
    ['loops', (p: string) => p],
  ])('a link that %s is a clear error; the link stays, nothing is written', async (why, to) => {
    const h = sampleHome({ home: tempDir('airlock-home-') });
    const path = h.paths.cursor;
    unlinkSync(path);
    const target = to(path, h.home);
    symlinkSync(target, path);
    const c = connectControl(h, 'alk_token_cursor');
    await expect(c.connectClient('cursor')).rejects.toThrow(`symbolic link that ${why}`);
    expect(readlinkSync(path)).toBe(target);
    expect(readdirSync(dirname(path))).toEqual(['mcp.json']);
  });
});
