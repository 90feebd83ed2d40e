import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applySandboxInput,
  defaultPermissions,
  importedPermissions,
  notGranted,
  type GrantContext,
} from './permissions.js';
import { runtimeFacts, shebang } from './runtime-paths.js';
import { tempDir } from '../../../../test-support/temp-dir.js';

/** Issue 35: what may be granted, the defaults, and what a program needs to run. */
function world() {
  const root = realpathSync(tempDir('airlock-perm-'));
  const home = join(root, 'home');
  const data = join(home, '.config', 'airlock');
  for (const d of [data, join(home, 'project'), join(home, 'docs')])
    mkdirSync(d, { recursive: true });
  const ctx: GrantContext = {
    home,
    guard: [{ path: data, what: "Airlock's data directory" }],
    platform: 'linux',
  };
  return { root, home, data, ctx };
}

describe('permissions', () => {
  it('added by hand: its folder read-write and any network; a home folder as its folder grants nothing', () => {
    const { home, ctx } = world();
    expect(defaultPermissions(join(home, 'project'), ctx)).toEqual({
      read: [],
      write: [join(home, 'project')],
      network: 'any',
      hosts: [],
      allowUnsandboxed: false,
    });
    expect(defaultPermissions(home, ctx).write).toEqual([]);
    expect(defaultPermissions(undefined, ctx).write).toEqual([]);
  });

  it('imported: no folders, and only the registry its launcher fetches from', () => {
    expect(importedPermissions('npx')).toMatchObject({
      write: [],
      read: [],
      network: 'hosts',
      hosts: ['registry.npmjs.org'],
    });
    expect(importedPermissions('C:\\Program Files\\nodejs\\npx.cmd').hosts).toEqual([
      'registry.npmjs.org',
    ]);
    expect(importedPermissions('/usr/local/bin/uvx').hosts).toEqual([
      'pypi.org',
      'files.pythonhosted.org',
    ]);
    expect(importedPermissions('node')).toMatchObject({ network: 'none', hosts: [] });
  });

  it('applies only the fields given; expands ~/; read+write of one folder is write; hosts imply a host list', () => {
    const { home, ctx } = world();
    const start = defaultPermissions(join(home, 'project'), ctx);
    const next = applySandboxInput(
      start,
      { read: ['~/docs', join(home, 'project')], hosts: ['API.github.com'] },
      ctx,
    );
    expect(next).toEqual({
      read: [join(home, 'docs')],
      write: [join(home, 'project')],
      network: 'hosts',
      hosts: ['api.github.com'],
      allowUnsandboxed: false,
    });
    expect(applySandboxInput(next, { network: 'none' }, ctx)).toMatchObject({
      network: 'none',
      hosts: ['api.github.com'],
    });
    expect(applySandboxInput(next, undefined, ctx)).toBe(next);
  });

  it('refuses protected, home-wide, relative, missing and file-for-write paths with a reason', () => {
    const { root, home, data, ctx } = world();
    symlinkSync(data, join(home, 'link'));
    writeFileSync(join(home, 'f.txt'), 'x');
    const base = defaultPermissions(undefined, ctx);
    const cases: [unknown, RegExp][] = [
      [{ read: [data] }, /inside Airlock's data directory/],
      [{ read: [join(home, '.config')] }, /contains Airlock's data directory/],
      [{ read: [join(home, 'link')] }, /Airlock's data directory/],
      [{ read: ['~'] }, /whole home folder/],
      [{ read: [root] }, /contains your whole home folder/],
      [{ read: ['docs'] }, /absolute/],
      [{ read: [join(home, 'missing')] }, /does not exist/],
      [{ write: [join(home, 'f.txt')] }, /not a folder/],
      [{ network: 'everything' }, /network must be/],
      [{ hosts: ['*'] }, /only a leading/],
      [{ allowUnsandboxed: 'yes' }, /true or false/],
      ['nope', /sandbox expects/],
    ];
    for (const [input, message] of cases)
      expect(() => applySandboxInput(base, input, ctx), JSON.stringify(input)).toThrow(message);
  });

  it('says what the command line asks for that is not granted', () => {
    const { home, ctx } = world();
    const perm = { ...defaultPermissions(join(home, 'project'), ctx), network: 'none' as const };
    expect(
      notGranted(
        {
          args: [
            '-y',
            'pkg',
            join(home, 'docs'),
            join(home, 'project', '.'),
            '--root=~/docs',
            'https://api.example.com/v1',
          ],
          env: { URL: 'wss://live.example.com:8443/x' },
          cwd: join(home, 'project'),
        },
        perm,
        ctx,
      ),
    ).toEqual([join(home, 'docs'), 'api.example.com', 'live.example.com:8443']);
    // Its program and runtime are readable anyway: not "asked for".
    writeFileSync(join(home, 'docs', 'server.js'), '');
    expect(notGranted({ args: [join(home, 'docs', 'server.js')], env: {} }, perm, ctx)).toEqual([
      join(home, 'docs', 'server.js'),
    ]);
    expect(
      notGranted({ args: [join(home, 'docs', 'server.js')], env: {} }, perm, ctx, [
        join(home, 'docs'),
      ]),
    ).toEqual([]);
  });
});

describe('runtime paths', () => {
  it('binds the program, its install and its interpreter read-only, never home or a protected folder', () => {
    const { home, data, ctx } = world();
    const prefix = join(home, '.nvm', 'versions', 'node', 'v22');
    mkdirSync(join(prefix, 'bin'), { recursive: true });
    mkdirSync(join(prefix, 'lib', 'node_modules', 'npm', 'bin'), { recursive: true });
    const npxCli = join(prefix, 'lib', 'node_modules', 'npm', 'bin', 'npx-cli.js');
    writeFileSync(npxCli, '#!/usr/bin/env node\n');
    chmodSync(npxCli, 0o755);
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(prefix, 'bin', 'npx'));
    symlinkSync(process.execPath, join(prefix, 'bin', 'node'));
    // A tool installed straight into ~/.local/bin: ~/.local holds the keychain, so only bin is bound.
    const local = join(home, '.local', 'bin');
    mkdirSync(local, { recursive: true });
    writeFileSync(join(local, 'uvx'), '\x7fELF');
    chmodSync(join(local, 'uvx'), 0o755);
    const rt = (cmd: string, args: string[] = []) =>
      runtimeFacts(cmd, args, {
        cwd: join(home, 'project'),
        pathVar: `${join(prefix, 'bin')}:${local}:/usr/bin`,
        home,
        guard: [
          ...ctx.guard,
          { path: join(home, '.local', 'share', 'keyrings'), what: 'keychain' },
        ],
        system: ['/usr', '/bin'],
        platform: 'linux',
      });
    expect(shebang(npxCli)).toBe('node');
    const npx = rt('npx');
    expect(npx.program).toBe(join(prefix, 'bin', 'npx'));
    expect(npx.paths).toEqual(
      expect.arrayContaining([join(prefix, 'bin'), join(prefix, 'lib', 'node_modules')]),
    );
    mkdirSync(join(home, '.local', 'share', 'keyrings'), { recursive: true });
    expect(rt('uvx').paths).toEqual([local]);
    expect(rt('no-such-program').program).toBeUndefined();
    const all = [...npx.paths, ...rt('uvx').paths];
    expect(all).not.toContain(home);
    expect(all.some((p) => data.startsWith(p))).toBe(false);
  });

  it('node with a script: the script’s project is bound, an -e snippet is not a file', () => {
    const { home } = world();
    const proj = join(home, 'srv');
    mkdirSync(join(proj, 'dist'), { recursive: true });
    writeFileSync(join(proj, 'package.json'), '{}');
    writeFileSync(join(proj, 'dist', 'index.js'), '');
    const c = {
      cwd: proj,
      pathVar: '/usr/bin',
      home,
      guard: [],
      system: [],
      platform: 'linux' as const,
    };
    expect(runtimeFacts(process.execPath, ['dist/index.js'], c).paths).toContain(proj);
    expect(runtimeFacts(process.execPath, ['-e', 'dist/index.js'], c).paths).not.toContain(proj);
  });
});
