import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  asarPath,
  buildPackages,
  packagingWorkDir,
  requireFromBuilder,
  stageRepository,
  unpackedDir,
  type BuiltTarget,
  type Target,
} from '../../test-support/packaging.js';

/**
 * The package as it would ship (issue 32, item 1): electron-builder itself builds Airlock for every
 * platform and arch electron-builder.yml names — on a copy of the repository with its dist/ built,
 * against a stand-in Electron, as `dir` targets (the app folder each installer wraps) — and the test
 * reads each app.asar's file list with @electron/asar. Run by `npm test` in its own stage
 * (scripts/test.sh, "packaging"), after the build; alone: `npm run build && npx vitest run -c
 * vitest.packaging.config.ts`. It needs the npm registry: the beforePack hook fetches the other
 * platforms' keyring binaries.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed YAML, read key by key
type Yaml = Record<string, any>;
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Yaml;
const asar = requireFromBuilder('@electron/asar') as typeof import('@electron/asar');
const fuses = requireFromBuilder('@electron/fuses') as typeof import('@electron/fuses');

const PLATFORM = { mac: 'darwin', win: 'win32', linux: 'linux' } as const;
/** Every (platform, arch) electron-builder.yml builds. */
const TARGETS: Target[] = (['linux', 'mac', 'win'] as const).flatMap((builder) => {
  const archs = new Set((config[builder].target as { arch: string[] }[]).flatMap((t) => t.arch));
  return [...archs].map((arch) => ({ builder, platform: PLATFORM[builder], arch }));
});

/** @napi-rs/keyring's package suffix per target (its package.json optionalDependencies). */
const KEYRING: Record<string, string> = {
  'darwin-x64': 'darwin-x64',
  'darwin-arm64': 'darwin-arm64',
  'win32-x64': 'win32-x64-msvc',
  'linux-x64': 'linux-x64-gnu',
  'linux-arm64': 'linux-arm64-gnu',
};

/** Which OS and CPU a native binary is for, from its header (ELF, Mach-O, PE). */
function binaryTarget(file: string): string {
  const b = readFileSync(file);
  if (b.readUInt32BE(0) === 0x7f454c46) {
    const machine = b.readUInt16LE(18);
    return `linux-${machine === 0x3e ? 'x64' : machine === 0xb7 ? 'arm64' : machine}`;
  }
  if (b.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = b.readUInt32LE(4);
    return `darwin-${cpu === 0x01000007 ? 'x64' : cpu === 0x0100000c ? 'arm64' : cpu}`;
  }
  if (b.toString('ascii', 0, 2) === 'MZ') {
    const pe = b.readUInt32LE(0x3c);
    const machine = b.readUInt16LE(pe + 4);
    return `win32-${machine === 0x8664 ? 'x64' : machine === 0xaa64 ? 'arm64' : machine}`;
  }
  return 'unknown';
}

interface Lock {
  packages: Record<string, { dev?: boolean; devOptional?: boolean; optional?: boolean }>;
}
/**
 * The production packages a target should carry, by name, from package-lock.json (npm's record
 * of the tree, independent of electron-builder's collector): everything not marked dev or
 * devOptional (a dev package that is only an optional peer elsewhere, e.g. @types/node), with the
 * keyring's per-platform packages reduced to the target's own.
 */
function expectedPackages(t: Target): Set<string> {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Lock;
  const names = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path || entry.dev || entry.devOptional) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (name.startsWith('@napi-rs/keyring-')) continue;
    if (entry.optional && !existsSync(join(root, path))) continue;
    names.add(name);
  }
  names.add(`@napi-rs/keyring-${KEYRING[`${t.platform}-${t.arch}`]}`);
  return names;
}

/** Every dev-only package name (never to be shipped). */
function devOnlyPackages(): Set<string> {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Lock;
  const dev = new Set<string>();
  const prod = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    (entry.dev || entry.devOptional ? dev : prod).add(name);
  }
  return new Set([...dev].filter((n) => !prod.has(n)));
}

let work: string;
let targets: BuiltTarget[] = [];
/** app.asar's entries per target, without the leading '/'. */
const listings = new Map<BuiltTarget, string[]>();

beforeAll(async () => {
  work = packagingWorkDir();
  const stage = stageRepository(root, work);
  const electron = JSON.parse(
    readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'),
  ) as { version: string };
  const result = await buildPackages(stage, work, TARGETS, electron.version);
  targets = result.built;
  for (const t of targets)
    listings.set(
      t,
      asar.listPackage(asarPath(t), { isPack: false }).map((e) => e.replace(/\\/g, '/').slice(1)),
    );
  // A hang guard for a child process, not a verdict: the packaging itself takes about 2 minutes.
}, 900_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const label = (t: Target) => `${t.platform}-${t.arch}`;

describe('the packaged app, as electron-builder builds it for every target (issue 32, item 1)', () => {
  it('builds every platform and arch the config names: Linux x64+arm64, macOS x64+arm64, Windows x64', () => {
    expect(TARGETS.map(label).sort()).toEqual(
      ['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64', 'win32-x64'].sort(),
    );
    for (const t of targets) expect(existsSync(asarPath(t)), label(t)).toBe(true);
  });

  it.each(TARGETS.map(label))(
    '%s: outside node_modules, app.asar holds exactly dist/ without source maps and the CLI bundle, and package.json',
    (name) => {
      const t = targets.find((x) => label(x) === name)!;
      const entries = listings.get(t)!.filter((f) => !f.split('/').includes('node_modules'));
      const files = entries.filter((f) => !('files' in asar.statFile(asarPath(t), f)));
      // Exactly the built dist/ (every file but source maps and the headless CLI's bundle, which
      // only bin/airlock.js runs, scripts/build-cli.mjs) and package.json: no sources, tests,
      // docs, CI scripts or fakes of the repository.
      const built = readdirSync(join(root, 'dist'), { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile() && !d.name.endsWith('.map'))
        .map((d) => relative(root, join(d.parentPath, d.name)).replace(/\\/g, '/'))
        .filter((f) => !f.startsWith('dist/main/bundle/'));
      expect(built.length).toBeGreaterThan(100);
      expect(existsSync(join(root, 'dist', 'main', 'bundle', 'cli.js'))).toBe(true);
      expect(files.sort()).toEqual(['package.json', ...built].sort());
      // Said plainly, for the kinds of file issue 32 found in the package:
      expect(entries.filter((f) => /\.(map|ts|tsx)$/.test(f))).toEqual([]);
      expect(
        entries.filter(
          (f) =>
            /^(\.ci|bin|common|docs|e2e|main|preload|renderer|scripts|test-support)(\/|$)/.test(
              f,
            ) || /\.(test|spec)\.|fake-electron|electron-dist/.test(f),
        ),
      ).toEqual([]);
      const main = JSON.parse(asar.extractFile(asarPath(t), 'package.json').toString()) as {
        main: string;
        type: string;
      };
      expect(main).toMatchObject({ main: 'dist/main/index.js', type: 'module' });
    },
  );

  it.each(TARGETS.map(label))(
    '%s: node_modules holds exactly the production dependencies (package-lock.json), no dev package',
    (name) => {
      const t = targets.find((x) => label(x) === name)!;
      const shipped = new Set<string>();
      for (const f of listings.get(t)!) {
        const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\/package\.json$/.exec(f);
        if (m) shipped.add(m[1]!);
      }
      const expected = expectedPackages(t);
      expect([...expected].filter((n) => !shipped.has(n)).sort(), 'missing').toEqual([]);
      expect([...shipped].filter((n) => !expected.has(n)).sort(), 'unexpected').toEqual([]);
      const dev = devOnlyPackages();
      expect([...shipped].filter((n) => dev.has(n))).toEqual([]);
      expect(dev.has('electron') && dev.has('vitest')).toBe(true);
    },
  );

  it.each(TARGETS.map(label))(
    '%s: exactly its own better-sqlite3 and keyring binaries, unpacked from the archive, built for its OS and CPU',
    (name) => {
      const t = targets.find((x) => label(x) === name)!;
      const natives = listings
        .get(t)!
        .filter((f) => f.endsWith('.node'))
        .sort();
      const suffix = KEYRING[name]!;
      expect(natives).toEqual(
        [
          `node_modules/@napi-rs/keyring-${suffix}/keyring.${suffix}.node`,
          `node_modules/better-sqlite3/prebuilds/${name}.node`,
        ].sort(),
      );
      for (const f of natives) {
        // Listed in the archive as unpacked, and there as a real file the OS loader can open.
        expect(asar.statFile(asarPath(t), f), f).toMatchObject({ unpacked: true });
        const file = join(unpackedDir(t), f);
        expect(existsSync(file), f).toBe(true);
        expect(binaryTarget(file), f).toBe(name);
      }
    },
  );

  it.each(TARGETS.map(label))(
    '%s: the binary has the fuses electron-builder.yml sets',
    async (name) => {
      const t = targets.find((x) => label(x) === name)!;
      const wire = await fuses.getCurrentFuseWire(t.fuseBinary);
      // @electron/fuses' FuseState (dist/constants.js): '1' enabled, '0' disabled.
      const on = '1'.charCodeAt(0);
      const off = '0'.charCodeAt(0);
      const want = config.electronFuses as Record<string, boolean>;
      const O = fuses.FuseV1Options;
      expect(wire).toMatchObject({
        [O.RunAsNode]: want.runAsNode ? on : off,
        [O.EnableCookieEncryption]: want.enableCookieEncryption ? on : off,
        [O.EnableNodeOptionsEnvironmentVariable]: want.enableNodeOptionsEnvironmentVariable
          ? on
          : off,
        [O.EnableNodeCliInspectArguments]: want.enableNodeCliInspectArguments ? on : off,
        [O.EnableEmbeddedAsarIntegrityValidation]: want.enableEmbeddedAsarIntegrityValidation
          ? on
          : off,
        [O.OnlyLoadAppFromAsar]: want.onlyLoadAppFromAsar ? on : off,
        [O.LoadBrowserProcessSpecificV8Snapshot]: want.loadBrowserProcessSpecificV8Snapshot
          ? on
          : off,
        [O.GrantFileProtocolExtraPrivileges]: want.grantFileProtocolExtraPrivileges ? on : off,
      });
    },
  );
});

describe('the schema-validation worker in the package (issue 32, item 9)', () => {
  const WORKER_FILES = ['package.json', 'dist/main/tools/schema-validator.js'];

  it.each(TARGETS.map(label))(
    '%s: the validator and what it loads are unpacked from app.asar',
    (name) => {
      const t = targets.find((x) => label(x) === name)!;
      for (const f of WORKER_FILES) expect(existsSync(join(unpackedDir(t), f)), f).toBe(true);
    },
  );

  it('runs with plain Node from app.asar.unpacked alone (no asar support in the worker thread)', async () => {
    const t = targets.find((x) => label(x) === 'linux-x64')!;
    const { validatorUrlFor } = await import('../tools/schema-worker-pool.js');
    // Where the pool, loaded from inside app.asar, points its worker.
    const insideAsar = pathToFileURL(
      join(asarPath(t), 'dist', 'main', 'tools', 'schema-worker-pool.js'),
    ).href;
    const url = validatorUrlFor(insideAsar);
    expect(url).toBe(
      pathToFileURL(join(unpackedDir(t), 'dist', 'main', 'tools', 'schema-validator.js')).href,
    );
    // A plain Node (no Electron, no asar patches) imports it and validates — a pattern (re2js)
    // and a type error (ajv) — with nothing but the unpacked files; its working folder is outside
    // the repository, so the repository's node_modules cannot stand in for missing ones.
    const script = `
      const { SchemaValidator } = await import(${JSON.stringify(url)});
      const v = new SchemaValidator();
      const schema = { type: 'object', properties: { a: { type: 'string', pattern: '^x+$' }, n: { type: 'integer' } } };
      console.log(JSON.stringify([v.validate(schema, { a: 'xx', n: 1 }), v.validate(schema, { a: 'y' }), v.validate(schema, { n: 'z' })]));
    `;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', script],
      {
        cwd: work,
      },
    );
    const [ok, badPattern, badType] = JSON.parse(stdout) as (string | null)[];
    expect(ok).toBeNull();
    expect(badPattern).toMatch(/pattern/);
    expect(badType).toMatch(/integer/);
  });
});
