import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleHome } from '../../test-support/client-configs.js';
import { startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 29.3, checked by the real client: Gemini CLI's own `gemini mcp list` reads the entry
 * `clients connect gemini` wrote into ~/.gemini/settings.json (comments kept) and connects to
 * Airlock with its token. Gemini CLI is not a dependency of Airlock: install it anywhere
 * (`npm install --prefix /tmp/gem @google/gemini-cli`) and point AIRLOCK_TEST_GEMINI_BIN at
 * its `gemini`; without it this test is skipped.
 */
const GEMINI = process.env.AIRLOCK_TEST_GEMINI_BIN;
const have = GEMINI !== undefined && existsSync(GEMINI);
if (!have) console.log('gemini-cli.test: set AIRLOCK_TEST_GEMINI_BIN to a gemini binary to run it');

function gemini(args: string[], home: string, cwd: string): Promise<string> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, USERPROFILE: home };
    delete env.GEMINI_CLI_HOME;
    const child = spawn(GEMINI!, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', () => resolve(out));
  });
}

let t: RemoteTestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe.skipIf(!have)('Gemini CLI reads what clients connect wrote', () => {
  it('gemini mcp list: airlock (http) Connected in a trusted folder; the agent was seen', async () => {
    const h = sampleHome({ home: tempDir('airlock-home-'), only: [] });
    mkdirSync(join(h.home, '.gemini'), { recursive: true });
    writeFileSync(
      join(h.home, '.gemini', 'settings.json'),
      '{\r\n  // mine\r\n  "ui": { "theme": "Default" }\r\n}\r\n',
    );
    t = await startRemoteApp({ clientsEnv: h.env });
    const r = await t.app.control.connectClient('gemini');
    expect(r).toMatchObject({ agent: 'Gemini CLI', url: t.started.mcpUrl });

    // Gemini CLI starts MCP servers only in trusted folders (its "Trusted Folders" docs).
    const project = tempDir('airlock-gemini-project-');
    const untrusted = await gemini(['mcp', 'list'], h.home, project);
    expect(untrusted).toContain(`airlock: ${t.started.mcpUrl} (http) - Disabled`);
    writeFileSync(
      join(h.home, '.gemini', 'trustedFolders.json'),
      JSON.stringify({ [project]: 'TRUST_FOLDER' }),
    );
    const listed = await gemini(['mcp', 'list'], h.home, project);
    expect(listed).toContain(`airlock: ${t.started.mcpUrl} (http) - Connected`);
    const [agent] = (await t.app.control.listAgents()).filter((a) => a.name === 'Gemini CLI');
    expect(agent!.lastSeen).toBeTruthy();
  }, 120_000);
});
