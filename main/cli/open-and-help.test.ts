import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  airlockBin,
  requireBuilt,
  runCli,
  startUntilReady,
  stop,
  withoutBus,
  type Ready,
} from '../../test-support/cli-process.js';
import { COMMANDS } from '../cli.js';
import { usageEntries } from './help.js';
import type { Opener } from './browser.js';
import { openCommand } from './open.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 29.4 and 29.7 through the built CLI: `airlock open` and `status --show-control-url`
 * give back the control URL the ready line printed (and nowhere else: not in plain `status`,
 * not in the logs); every command's --help has an example; mistakes are said with the fix.
 */
const home = tempDir('airlock-open-home-');
const dataDir = tempDir('airlock-open-');
const env = withoutBus({
  ...process.env,
  HOME: home,
  AIRLOCK_VAULT: 'file',
  AIRLOCK_VAULT_PASSPHRASE: 'correct horse battery staple',
});
delete env.DISPLAY;
delete env.WAYLAND_DISPLAY;
delete env.WSL_DISTRO_NAME; // WSL opens the Windows browser without a DISPLAY (browser.ts)
const d = ['--data-dir', dataDir];
let server: ChildProcess;
let ready: Ready & { controlUrl: string };

beforeAll(async () => {
  requireBuilt();
  const s = await startUntilReady(
    process.execPath,
    [airlockBin, 'serve', '--port', '0', ...d],
    env,
  );
  server = s.child;
  ready = s.ready as Ready & { controlUrl: string };
}, 30_000);
afterAll(async () => {
  if (server) await stop(server);
});

describe('the control URL on request', () => {
  it('airlock open prints the ready line’s control URL; status shows it only when asked', async () => {
    expect(ready.controlUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=alc_/);
    const open = await runCli(['open', ...d], env);
    expect(open.code).toBe(0);
    expect(open.stdout).toBe(`${ready.controlUrl}\n`);
    expect(open.stderr).toContain('Open that URL in a browser'); // no display here

    const plain = await runCli(['status', ...d], env);
    expect(plain.stdout).toContain(`MCP URL:  ${ready.mcpUrl}`);
    expect(plain.stdout).not.toContain('#token=');
    expect(plain.stdout).toContain('airlock open');
    const shown = await runCli(['status', '--show-control-url', ...d], env);
    expect(shown.stdout).toContain(`Control:  ${ready.controlUrl}`);
    const json = JSON.parse(
      (await runCli(['status', '--json', '--show-control-url', ...d], env)).stdout,
    ) as {
      controlUrl?: string;
    };
    expect(json.controlUrl).toBe(ready.controlUrl);
    expect(
      JSON.parse((await runCli(['status', '--json', ...d], env)).stdout) as object,
    ).not.toHaveProperty('controlUrl');

    // The token is in no log or file of the data directory.
    const token = ready.controlUrl.split('#token=')[1]!;
    for (const entry of readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      expect(readFileSync(join(entry.parentPath, entry.name)).toString('latin1')).not.toContain(
        token,
      );
    }
  });

  it('not running: open says how to start it', async () => {
    const other = tempDir('airlock-open-none-');
    const r = await runCli(['open', '--data-dir', other], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`Start it with: airlock serve --data-dir ${other}`);
  });

  it('with a display, the browser gets a one-time code, never the control token; stdout the URL', async () => {
    const opened: string[] = [];
    const opener: Opener = {
      open: async (url) => void opened.push(url),
      env: { DISPLAY: ':0' },
      platform: 'linux',
    };
    // This process reads the server's file vault as the CLI would.
    const saved = { v: process.env.AIRLOCK_VAULT, p: process.env.AIRLOCK_VAULT_PASSPHRASE };
    process.env.AIRLOCK_VAULT = 'file';
    process.env.AIRLOCK_VAULT_PASSPHRASE = 'correct horse battery staple';
    const write = process.stdout.write.bind(process.stdout);
    const printed: string[] = [];
    process.stdout.write = ((s: string) => (printed.push(s), true)) as typeof process.stdout.write;
    try {
      expect(await openCommand({ dataDir }, opener)).toBe(0);
      expect(await openCommand({ dataDir, noBrowser: true }, opener)).toBe(0);
    } finally {
      process.stdout.write = write;
      for (const [k, v] of [
        ['AIRLOCK_VAULT', saved.v],
        ['AIRLOCK_VAULT_PASSPHRASE', saved.p],
      ] as const)
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
    expect(printed).toEqual([`${ready.controlUrl}\n`, `${ready.controlUrl}\n`]);
    // What the opener (xdg-open, and the browser's argv for its life) is given carries no token.
    const token = new URL(ready.controlUrl).hash.slice('#token='.length);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(new RegExp(`^${ready.url}/#code=[A-Za-z0-9_-]{43}$`));
    expect(opened[0]).not.toContain(token);
    // The page trades the code once, from its own origin, for the token.
    const code = decodeURIComponent(opened[0]!.split('#code=')[1]!);
    const origin = ready.url;
    expect(await redeem(code, 'https://evil.example')).toMatchObject({ status: 403 });
    expect(await redeem(code, origin)).toEqual({ status: 200, body: { token } });
    expect(await redeem(code, origin)).toMatchObject({
      status: 410,
      body: { error: 'OPEN_CODE_SPENT' },
    });
  });
});

/** POST /api/open-code as a page of `origin` would (Node's http sets Origin as given). */
function redeem(code: string, origin: string): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(ready.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        path: '/api/open-code',
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ code }));
  });
}

describe('a CLI that explains', () => {
  it('-v prints the version; every command’s --help has a usage line and an example', async () => {
    expect(await runCli(['-v'], env)).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^airlock \d+\.\d+\.\d+\n$/) as unknown,
    });
    const commands = [...new Set(usageEntries(COMMANDS).map((e) => e.words.join(' ')))].filter(
      (c) => !c.startsWith('google') && c !== 'connect google', // google prints its own help
    );
    for (const c of commands) {
      const r = await runCli([...c.split(' '), '--help'], env);
      expect({ c, code: r.code }).toEqual({ c, code: 0 });
      expect(r.stdout).toMatch(new RegExp(`^Usage: airlock ${c}`));
      expect(r.stdout, c).toMatch(new RegExp(`\\nExamples?:\\n {2}airlock ${c}`));
    }
  }, 120_000);

  it('a missing name, a typo, an unknown option: exit 2 with what to do', async () => {
    const add = await runCli(['agent', 'add', ...d], env);
    expect(add.code).toBe(2);
    expect(add.stderr).toContain('"airlock agent add" needs NAME.');
    expect(add.stderr).toContain('airlock agent add "Claude Code"');
    expect(add.stderr).not.toContain('unknown command');
    // remote and clients parse their own arguments: the same answer, not their group's usage.
    for (const [args, says, example] of [
      [['remote', 'add'], '"airlock remote add" needs NAME URL.', 'airlock remote add linear'],
      [['remote', 'remove'], '"airlock remote remove" needs NAME.', 'airlock remote remove linear'],
      [['clients', 'connect'], '"airlock clients connect" needs CLIENT.', 'clients connect gemini'],
    ] as const) {
      const r = await runCli([...args, ...d], env);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toContain(says);
      expect(r.stderr).toContain(example);
      expect(r.stderr).not.toContain('usage:');
    }
    for (const [args, says] of [
      [['stauts'], 'Did you mean "status"?'],
      [['agent', 'lst'], 'Did you mean "agent list"?'],
      [['clients', 'conect', 'cursor'], 'Did you mean "clients connect"?'],
      [['remote', 'lst'], 'Did you mean "remote list"?'],
      [['clients', 'connect', 'gemni', ...d], 'Did you mean "gemini"?'],
      [['agent', 'list', '--jsn'], 'unknown option --jsn. Did you mean "--json"?'],
      [['serve', '--port'], '--port needs a value.'],
    ] as const) {
      const r = await runCli([...args], env);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toContain(says);
      expect(r.stderr).not.toMatch(/To specify a positional argument/);
    }
  }, 60_000);
});
