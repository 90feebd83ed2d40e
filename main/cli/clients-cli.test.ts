import { readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult } from '../../common/contract/index.js';
import { buildDist } from '../../test-support/build.js';
import { runCli } from '../../test-support/cli-process.js';
import { sampleHome } from '../../test-support/client-configs.js';
import { tempDir } from '../../test-support/temp-dir.js';

/** `airlock clients list|import|connect` (issue 15), against a fresh temp HOME — never the real one. */
const KEYRING = process.env.AIRLOCK_KEYRING_TEST === '1';

function cli(args: string[], home: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, USERPROFILE: home };
  delete env.XDG_CONFIG_HOME;
  delete env.CODEX_HOME;
  return runCli(args, env);
}

describe.skipIf(!KEYRING || process.platform !== 'linux')('airlock clients (CLI)', () => {
  beforeAll(async () => {
    await buildDist();
  }, 150_000);

  it('list, import --dry-run, connect --dry-run, connect; secrets never printed', async () => {
    const h = sampleHome({ home: tempDir('airlock-home-'), only: ['codex', 'windsurf'] });
    const d = ['--data-dir', tempDir('airlock-cli-clients-')];
    const list = await cli(['clients', 'list', ...d], h.home);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^codex\tCodex\tinstalled$/m);
    expect(list.stdout).toContain(`${h.paths.codex}\t2 servers`);

    const dry = await cli(
      ['clients', 'import', 'codex', 'windsurf', '--dry-run', '--json', ...d],
      h.home,
    );
    expect(dry.code).toBe(0);
    const plan = JSON.parse(dry.stdout) as ImportResult;
    expect(plan.items.filter((i) => i.action === 'add').map((i) => i.as)).toEqual([
      'docs',
      'figma',
      'brave-search',
      'remote-x',
    ]);
    const text = await cli(['clients', 'import', '--dry-run', ...d], h.home);
    expect(text.stdout).toContain('would add as "docs" (to the keychain: DOCS_TOKEN)');
    expect(text.stdout).toContain('Dry run: nothing was changed.');
    for (const out of [list, dry, text])
      for (const s of h.secrets) expect(out.stdout).not.toContain(s);

    const before = readFileSync(h.paths.codex, 'utf8');
    const wouldConnect = await cli(['clients', 'connect', 'codex', '--dry-run', ...d], h.home);
    expect(wouldConnect.stdout).toContain('Airlock entry would be added');
    expect(readFileSync(h.paths.codex, 'utf8')).toBe(before);

    const connect = await cli(['clients', 'connect', 'codex', ...d], h.home);
    expect(connect.stderr).toBe('');
    expect(connect.stdout).toMatch(
      /config\.toml: Airlock entry added\n {2}backup: .*config\.toml\.airlock-backup-/,
    );
    const parsed = parseToml(readFileSync(h.paths.codex, 'utf8')) as {
      mcp_servers: Record<string, { url?: string; http_headers?: Record<string, string> }>;
    };
    expect(parsed.mcp_servers.airlock!.url).toBe('http://127.0.0.1:47821/mcp');
    expect(parsed.mcp_servers.airlock!.http_headers!.Authorization).toMatch(/^Bearer alk_/);
    expect(connect.stdout).not.toContain('alk_');
    const second = await cli(['clients', 'connect', 'codex', ...d], h.home);
    expect(second.stdout).toContain('already set up; nothing to change');

    const bad = await cli(['clients', 'connect', 'notepad', ...d], h.home);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/Unknown client "notepad"/);
  }, 120_000);
});
