import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closedPort } from '../../test-support/closed-port.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { remoteCommand } from './remote.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 29, item 8: one rule for a URL that cannot be reached and a command that cannot start —
 * saved, a clear status, a non-zero exit from `airlock remote add` saying it was saved and what
 * to do. (Before: exit 0 for the URL, exit 1 without a word for the command.) Run in process,
 * with the file vault and a key file, so it needs neither a keychain nor a build.
 */
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await remoteCommand(args), stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

function profile(): string[] {
  const tmp = tempDir('airlock-add-unreachable-');
  vi.stubEnv('AIRLOCK_VAULT', 'file');
  vi.stubEnv('AIRLOCK_VAULT_PASSPHRASE', '');
  vi.stubEnv('AIRLOCK_VAULT_KEY_FILE', join(tmp, 'vault.key'));
  return ['--data-dir', join(tmp, 'data')];
}

describe('airlock remote add: saved but not working yet (issue 29, item 8)', () => {
  it('an unreachable URL: saved, exit 1, and stderr says so and what to do', async () => {
    const d = profile();
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const r = await run(['add', 'down', url, ...d]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^Added "down"\.\ndown\t.*\terror: /);
    expect(r.stderr).toMatch(/^airlock: "down" is saved, but it is not reachable yet: .*refused/);
    expect(r.stderr).toContain('airlock remote refresh down');
    expect(r.stderr).toContain('airlock remote remove down');
    expect(r.stderr).toContain('when Airlock starts'); // no server ran: the next start tries again
    expect(readFileSync(join(d[1]!, 'settings.json'), 'utf8')).toContain(url);
  });

  it('a command that is not found: the same rule', async () => {
    const d = profile();
    const r = await run(['add', 'nocmd', ...d, '--', 'airlock-no-such-command-xyz']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/error: could not start: "airlock-no-such-command-xyz" was not found/);
    expect(r.stderr).toMatch(
      /^airlock: "nocmd" is saved, but it is not reachable yet: could not start/,
    );
    expect(r.stderr).toContain('airlock remote remove nocmd');
  });

  it('a server that answers: exit 0, nothing on stderr', async () => {
    const d = profile();
    const up = new FakeUpstream({ tools: [{ name: 'hi', annotations: { readOnlyHint: true } }] });
    await up.start();
    try {
      const r = await run(['add', 'up', up.url, ...d]);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toMatch(/\tready\t1 tools/);
    } finally {
      await up.stop();
    }
  });
});
