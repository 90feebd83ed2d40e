import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { nodeFlags } from '../../bin/node-flags.js';
import { requireBuilt, stop, type Ready } from '../../test-support/cli-process.js';
import { nodeOptionsOf } from '../../test-support/node-args.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 34: Airlock's launchers start it with the Node flags bin/node-flags.js names (on Node 22,
 * AsyncLocalStorage without promise hooks). scripts/up.sh is checked by readme-run.test.ts; here
 * the `airlock` launcher scripts/setup.sh writes, and `npm start`'s headless spawn
 * (scripts/start.mjs). Each is checked on the process it starts, not on its text.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * A copy of the clone that needs no install nor build — dependencies present (a stand-in npm says
 * so), dist/ newer than every source, a bin/airlock.js that reports how it was run — and the
 * launcher setup.sh writes for it. The Node setup.sh finds in PATH is this one, behind a path a
 * package manager could upgrade in place (`node(script)` rewrites what answers there).
 */
function launcherSetup() {
  const dir = tempDir('airlock-launcher-flags-');
  const root = join(dir, 'clone');
  for (const d of [
    'scripts',
    'bin',
    'node_modules',
    'dist/main/bundle',
    'dist/renderer',
    'npm-bin',
  ])
    mkdirSync(join(root, d), { recursive: true });
  copyFileSync(join(ROOT, 'scripts', 'setup.sh'), join(root, 'scripts', 'setup.sh'));
  copyFileSync(join(ROOT, 'bin', 'node-flags.js'), join(root, 'bin', 'node-flags.js'));
  writeFileSync(
    join(root, 'bin', 'airlock.js'),
    'process.stdout.write(JSON.stringify({ execArgv: process.execArgv, argv: process.argv.slice(2) }));\n',
  );
  writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
  writeFileSync(join(root, 'dist/main/bundle/cli.js'), '');
  writeFileSync(join(root, 'dist/renderer/index.html'), '');
  writeFileSync(join(root, 'npm-bin', 'npm'), '#!/bin/sh\n[ "$1" = -v ] && echo 11.19.0\nexit 0\n');
  chmodSync(join(root, 'npm-bin', 'npm'), 0o755);
  const nodeBin = join(dir, 'node-bin');
  mkdirSync(nodeBin);
  const node = (script: string) => {
    writeFileSync(join(nodeBin, 'node'), `#!/bin/sh\n${script}exec "${process.execPath}" "$@"\n`);
    chmodSync(join(nodeBin, 'node'), 0o755);
  };
  node('');
  const prefix = join(dir, 'prefix');
  const env = {
    PATH: `${join(root, 'npm-bin')}:${nodeBin}:/usr/bin:/bin`,
    HOME: dir,
    AIRLOCK_NODE_PREFIX: prefix,
    AIRLOCK_SETUP_NO_INSTALL: '1',
    LANG: 'C.UTF-8',
  };
  const setup = () =>
    execFileSync('sh', [join(root, 'scripts', 'setup.sh')], { cwd: root, env, stdio: 'pipe' });
  setup();
  const launcher = join(prefix, 'bin', 'airlock');
  const run = (args: string[]) =>
    JSON.parse(execFileSync(launcher, args, { env, encoding: 'utf8' })) as {
      execArgv: string[];
      argv: string[];
    };
  return { launcher, setup, node, run };
}

describe('the airlock launcher scripts/setup.sh writes', () => {
  it('starts bin/airlock.js with the flags for its Node, passes the arguments on, and is rewritten the same', () => {
    const { launcher, setup, run } = launcherSetup();
    const written = readFileSync(launcher, 'utf8');

    const ran = run(['serve', '--port', '0', 'two words', '$HOME']);
    expect(ran.execArgv).toEqual(nodeFlags());
    expect(ran.argv).toEqual(['serve', '--port', '0', 'two words', '$HOME']);

    setup(); // idempotent: the same launcher again
    expect(readFileSync(launcher, 'utf8')).toBe(written);
  });

  it('runs without the flags once the Node at its path is another version (upgraded in place)', () => {
    // Node 24 has no --experimental-async-context-frame ("bad option"): the flags are for the
    // version setup.sh asked, and `brew upgrade` or apt replace the Node behind the same path.
    const { node, run } = launcherSetup();
    node('[ "$1" = --version ] && { echo v24.0.0; exit 0; }\n');
    const ran = run(['serve', 'two words']);
    expect(ran.execArgv).toEqual([]);
    expect(ran.argv).toEqual(['serve', 'two words']);
  });
});

describe('npm start, headless (scripts/start.mjs)', () => {
  it('starts airlock serve with the flags for this Node', async () => {
    requireBuilt();
    const dir = tempDir('airlock-start-flags-');
    const child = spawn(
      process.execPath,
      [join(ROOT, 'scripts', 'start.mjs'), '--port', '0', '--data-dir', join(dir, 'data')],
      {
        cwd: ROOT,
        env: {
          PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
          HOME: dir,
          AIRLOCK_HEADLESS: '1',
          AIRLOCK_VAULT: 'file',
          AIRLOCK_VAULT_PASSPHRASE: 'launch-flags-test',
          LANG: 'C.UTF-8',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    try {
      const ready = await new Promise<Ready>((res, rej) => {
        child.once('exit', (code) => rej(new Error(`start.mjs exited (${code}):\n${err}`)));
        createInterface({ input: child.stdout }).once('line', (line) => res(JSON.parse(line)));
      });
      expect(ready.event).toBe('ready');
      expect(ready.pid).not.toBe(child.pid); // serve is start.mjs's child
      expect(nodeOptionsOf(ready.pid, '/bin/airlock.js')).toEqual(nodeFlags());
    } finally {
      await stop(child); // start.mjs passes the SIGTERM on to serve and exits when serve has
    }
  });
});
