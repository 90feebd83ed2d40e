import { chmodSync, existsSync, readFileSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleHome } from '../../test-support/client-configs.js';
import { connectControl, FIXED_STAMP } from '../../test-support/connect-control.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * `airlock clients connect` writes the agent's bearer token into another app's config file.
 * Apps create those files 0644 and home folders are often 0755: kept as they were, any other
 * user of the machine could read the token and call the gateway (it listens on 127.0.0.1,
 * which every local user reaches) as that app. The file, and the backup of the file as it was
 * (a reconnect's backup holds the same, stable token), keep the owner's bits only.
 */
describe.skipIf(process.platform === 'win32')('clients connect: the file with the token', () => {
  it('drops group and other access from the edited file and its backup', async () => {
    const h = sampleHome({ home: tempDir('airlock-home-') });
    const c = connectControl(h, 'alk_secret_token_for_cursor');
    const path = h.paths.cursor;
    chmodSync(path, 0o644);
    const first = await c.connectClient('cursor');
    expect(readFileSync(path, 'utf8')).toContain('alk_secret_token_for_cursor');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(first.files[0]!.backup!).mode & 0o777).toBe(0o600);

    // A reconnect (the URL moved) backs up a file that already holds the token.
    chmodSync(path, 0o664);
    const c2 = connectControl(h, 'alk_secret_token_for_cursor', {
      mcpUrl: () => 'http://127.0.0.1:48000/mcp',
    });
    const second = await c2.connectClient('cursor');
    const backup = second.files[0]!.backup!;
    expect(readFileSync(backup, 'utf8')).toContain('alk_secret_token_for_cursor');
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    for (const n of readdirSync(dirname(path)))
      expect(statSync(join(dirname(path), n)).mode & 0o077).toBe(0);
  });

  it('a project file that only loses imported entries gets no token and keeps its mode', async () => {
    const h = sampleHome({ home: tempDir('airlock-home-') });
    chmodSync(h.paths.mcpJson, 0o644);
    const c = connectControl(h, 'alk_secret_token_for_claude', {
      listServers: async () => [{ name: 'sentry-io', origin: 'claude-code' }] as never,
    });
    const r = await c.connectClient('claude-code', { projectDir: h.project, removeImported: true });
    expect(r.files.find((f) => f.path === h.paths.mcpJson)?.changed).toBe(true);
    expect(readFileSync(h.paths.mcpJson, 'utf8')).not.toContain('alk_secret');
    expect(statSync(h.paths.mcpJson).mode & 0o777).toBe(0o644);
    expect(statSync(h.paths.claudeJson).mode & 0o777).toBe(0o600);
  });

  it('a backup name already taken by a link that leads nowhere is passed over, not followed', async () => {
    const h = sampleHome({ home: tempDir('airlock-home-') });
    const path = h.paths.cursor;
    const bait = join(h.home, 'bait');
    for (const s of ['', '-2']) symlinkSync(bait, `${path}.airlock-backup-${FIXED_STAMP}${s}`);
    const c = connectControl(h, 'alk_secret_token_for_cursor');
    const r = await c.connectClient('cursor');
    expect(r.files[0]!.backup).toBe(`${path}.airlock-backup-${FIXED_STAMP}-3`);
    expect(existsSync(bait)).toBe(false);
    expect(readFileSync(path, 'utf8')).toContain('alk_secret_token_for_cursor');
  });
});
