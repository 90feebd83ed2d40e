import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RemoteView } from '../../common/contract/index.js';
import { buildDist } from '../../test-support/build.js';
import { runCli } from '../../test-support/cli-process.js';
import { joinArgValues, stdioFromFlags } from './remote-local.js';
import { tempDir } from '../../test-support/temp-dir.js';

/** `airlock remote add NAME -- COMMAND ARG…` (issue 15). */
const KEYRING = process.env.AIRLOCK_KEYRING_TEST === '1';
const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);

describe('local server flags', () => {
  it('takes the argv after "--" or from --command/--arg, env as K=V, secret values from the environment only', () => {
    expect(
      stdioFromFlags({ env: ['A=1=2'], 'secret-env': ['TOKEN'] }, ['npx', '-y', 'pkg', '/tmp'], {
        TOKEN: 's3cret',
      }),
    ).toEqual({
      command: 'npx',
      args: ['-y', 'pkg', '/tmp'],
      env: { A: '1=2' },
      secretEnv: { TOKEN: 's3cret' },
    });
    expect(stdioFromFlags({ command: 'npx', arg: ['-y', 'pkg'], cwd: '/srv' }, [])).toEqual({
      command: 'npx',
      args: ['-y', 'pkg'],
      cwd: '/srv',
      env: {},
    });
    expect(() => stdioFromFlags({ 'secret-env': ['NOPE_NOT_SET'] }, ['x'], {})).toThrow(
      /set NOPE_NOT_SET in this shell first/,
    );
    expect(() => stdioFromFlags({ command: 'a' }, ['b'])).toThrow(/not both/);
    expect(() => stdioFromFlags({ env: ['novalue'] }, ['b'])).toThrow(/NAME=value/);
    expect(joinArgValues(['add', 'fs', '--arg', '-y', '--', '--arg', 'x'])).toEqual([
      'add',
      'fs',
      '--arg=-y',
      '--',
      '--arg',
      'x',
    ]);
  });
});

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(args, { ...process.env, ...env });
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(!KEYRING)('airlock remote add (local server, CLI)', () => {
  beforeAll(async () => {
    await buildDist();
  }, 150_000);

  it('adds with "--" and with --command/--arg, lists the command and pid, leaves no process behind', async () => {
    const d = ['--data-dir', tempDir('airlock-cli-local-')];
    const secret = `local_secret_${Date.now()}`;
    const added = await cli(
      [
        'remote',
        'add',
        'ev',
        '--secret-env',
        'AIRLOCK_T_KEY',
        ...d,
        '--',
        process.execPath,
        EVERYTHING,
        'stdio',
      ],
      { AIRLOCK_T_KEY: secret },
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(
      /^ev\t.*server-everything.*index\.js stdio\tready\t\d+ tools.*secret env: AIRLOCK_T_KEY/m,
    );
    const second = await cli([
      'remote',
      'add',
      'ev2',
      '--command',
      process.execPath,
      '--arg',
      EVERYTHING,
      '--arg',
      'stdio',
      ...d,
    ]);
    expect(second.code).toBe(0);

    const listed = await cli(['remote', 'list', '--json', ...d]);
    const views = JSON.parse(listed.stdout) as RemoteView[];
    expect(views.map((v) => [v.name, v.state, v.transport, v.stdio?.args])).toEqual([
      ['ev', 'ready', 'stdio', [EVERYTHING, 'stdio']],
      ['ev2', 'ready', 'stdio', [EVERYTHING, 'stdio']],
    ]);
    // The CLI's in-process core started them and ended them when it exited.
    for (const v of views) expect(alive(v.process!.pid!)).toBe(false);

    // Issue 35: its sandbox from the CLI. Narrowing applies; widening needs a running Airlock's window.
    expect(views[0]!.stdio!.sandbox).toMatchObject({ network: 'any', write: [], read: [] });
    const narrowed = await cli(['remote', 'update', 'ev', '--network', 'none', ...d]);
    expect(narrowed.code).toBe(0);
    expect(narrowed.stdout).toMatch(/sandbox bubblewrap: no folders, network none/);
    const widened = await cli(['remote', 'update', 'ev', '--network', 'any', ...d]);
    expect(widened.code).not.toBe(0);
    expect(widened.stderr).toMatch(
      /no window to confirm this in: let local server "ev" reach any host/,
    );
    expect(readFileSync(join(d[1]!, 'settings.json'), 'utf8')).not.toContain(secret);

    const bad = await cli(['remote', 'add', 'bad', ...d, '--', 'airlock-no-such-command-xyz']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(
      /error: could not start: "airlock-no-such-command-xyz" was not found/,
    );
    for (const n of ['ev', 'ev2', 'bad'])
      expect((await cli(['remote', 'remove', n, ...d])).code).toBe(0);
  }, 120_000);
});
