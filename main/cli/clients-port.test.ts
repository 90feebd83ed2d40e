import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import {
  airlockBin,
  initializeStatus,
  requireBuilt,
  runCli,
  startUntilReady,
  stop,
  withoutBus,
} from '../../test-support/cli-process.js';
import { sampleHome } from '../../test-support/client-configs.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 29.1 through the real CLI: `airlock serve --port 0` (what `up.sh --port 0` and
 * AIRLOCK_PORT=0 run) listens on a free port; `airlock clients connect` must write that URL —
 * not the settings port — and `clients list` must call an entry on a port that is no longer
 * this Airlock's stale, with the fix. A file vault (passphrase) keeps it off any keychain.
 */
const children: ChildProcess[] = [];
const blockers: Server[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) await stop(c);
  for (const b of blockers.splice(0)) b.close();
});

describe('clients connect writes the port the server listens on', () => {
  it('serve --port 0 → connect claude-code and codex → the written URL and token work; a restart elsewhere is stale until reconnected', async () => {
    requireBuilt();
    const h = sampleHome({ home: tempDir('airlock-home-'), only: ['claudeJson', 'codex'] });
    const dataDir = tempDir('airlock-port-clients-');
    const env = withoutBus({
      ...process.env,
      HOME: h.home,
      USERPROFILE: h.home,
      AIRLOCK_VAULT: 'file',
      AIRLOCK_VAULT_PASSPHRASE: 'correct horse battery staple',
    });
    delete env.XDG_CONFIG_HOME;
    delete env.CODEX_HOME;
    const d = ['--data-dir', dataDir];
    const serve = async () => {
      const s = await startUntilReady(
        process.execPath,
        [airlockBin, 'serve', '--port', '0', ...d],
        env,
      );
      children.push(s.child);
      return s;
    };

    const first = await serve();
    expect(first.ready.port).not.toBe(47821);
    for (const id of ['claude-code', 'codex']) {
      const r = await runCli(['clients', 'connect', id, ...d], env);
      expect({ id, code: r.code, stderr: r.stderr }).toEqual({ id, code: 0, stderr: '' });
      expect(r.stdout).toContain(`at ${first.ready.mcpUrl}.`);
    }
    const claude = () =>
      (
        parseJsonc(readFileSync(h.paths.claudeJson, 'utf8')) as {
          mcpServers: { airlock: { url: string; headers: { Authorization: string } } };
        }
      ).mcpServers.airlock;
    const codex = () =>
      (
        parseToml(readFileSync(h.paths.codex, 'utf8')) as {
          mcp_servers: { airlock: { url: string; http_headers: { Authorization: string } } };
        }
      ).mcp_servers.airlock;
    expect(claude().url).toBe(first.ready.mcpUrl);
    expect(codex().url).toBe(first.ready.mcpUrl);
    const bearer = (auth: string) => auth.replace(/^Bearer /, '');
    expect(await initializeStatus(claude().url, bearer(claude().headers.Authorization))).toBe(200);
    expect(await initializeStatus(codex().url, bearer(codex().http_headers.Authorization))).toBe(
      200,
    );
    const listed = await runCli(['clients', 'list', ...d], env);
    expect(listed.stdout).toMatch(/^claude-code\tClaude Code\tconnected$/m);
    expect(listed.stdout).toMatch(/^codex\tCodex\tconnected$/m);

    // Restart on another free port: the old one is held, so port 0 cannot pick it again.
    expect(await stop(first.child)).toBe(0);
    const blocker = createServer();
    blockers.push(blocker);
    await new Promise<void>((r) => blocker.listen(first.ready.port, '127.0.0.1', r));
    const second = await serve();
    expect(second.ready.port).not.toBe(first.ready.port);

    const stale = await runCli(['clients', 'list', ...d], env);
    expect(stale.code).toBe(0);
    const line = stale.stdout.split('\n').find((l) => l.startsWith('claude-code\t'))!;
    expect(line).toContain(
      `stale: its entry points at ${first.ready.mcpUrl}, but this Airlock answers on ${second.ready.mcpUrl}`,
    );
    expect(line).toContain('run "airlock clients connect claude-code"');
    const json = JSON.parse((await runCli(['clients', 'list', '--json', ...d], env)).stdout) as {
      id: string;
      connected: boolean;
      stale?: string;
      entryUrl?: string;
    }[];
    expect(json.find((c) => c.id === 'codex')).toMatchObject({
      connected: false,
      entryUrl: first.ready.mcpUrl,
      stale: expect.stringContaining('airlock clients connect codex') as unknown,
    });

    const fixed = await runCli(['clients', 'connect', 'claude-code', ...d], env);
    expect(fixed.stdout).toContain('Airlock entry updated');
    expect(claude().url).toBe(second.ready.mcpUrl);
    expect(await initializeStatus(claude().url, bearer(claude().headers.Authorization))).toBe(200);
    expect((await runCli(['clients', 'list', ...d], env)).stdout).toMatch(
      /^claude-code\tClaude Code\tconnected$/m,
    );
  }, 120_000);
});
