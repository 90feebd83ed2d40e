// electron-builder `beforePack` hook (electron-builder.yml): puts the target's own native
// binaries in node_modules before electron-builder collects the app's files, so a package built
// on any host carries the right ones (issue 21, item 8).
//
// - better-sqlite3 (Node-API) ships every platform's prebuilt binary in its own package
//   (node_modules/better-sqlite3/prebuilds/<platform>-<arch>.node): nothing to fetch, and no
//   rebuild against Electron is needed (Node-API is ABI-stable); electron-builder.yml keeps each
//   platform's files only.
// - @napi-rs/keyring (Node-API) ships one optional package per platform/arch
//   (@napi-rs/keyring-darwin-arm64, …-win32-x64-msvc, …); npm installs only the host's. This hook
//   fetches the target's with npm's own client (`npm pack`, which checks the registry's
//   integrity hash) at the exact version @napi-rs/keyring pins in its optionalDependencies.
//
// CommonJS because electron-builder loads hooks with require().
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS hook: electron-builder require()s it */
const { execFileSync } = require('node:child_process');
const { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');

/** electron-builder's Arch enum (builder-util/out/arch.js). */
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/** The napi-rs platform suffix of a (platform, arch) target, as @napi-rs/keyring names its packages. */
function napiSuffix(platform, arch) {
  const table = {
    darwin: { x64: 'darwin-x64', arm64: 'darwin-arm64' },
    win32: { x64: 'win32-x64-msvc', arm64: 'win32-arm64-msvc', ia32: 'win32-ia32-msvc' },
    // AppImage and deb run on glibc distributions.
    linux: { x64: 'linux-x64-gnu', arm64: 'linux-arm64-gnu', armv7l: 'linux-arm-gnueabihf' },
  };
  const suffix = table[platform] && table[platform][arch];
  if (!suffix)
    throw new Error(`Airlock cannot be packaged for ${platform}-${arch}: no keyring binary`);
  return suffix;
}

/**
 * The native packages a target needs beyond what npm installed, with exact versions:
 * [{ name: '@napi-rs/keyring-darwin-arm64', version: '2.1.2' }]. A macOS universal build needs both
 * architectures.
 */
function nativePackagesFor(platform, arch, root = ROOT) {
  if (arch === 'universal') {
    return [
      ...nativePackagesFor(platform, 'x64', root),
      ...nativePackagesFor(platform, 'arm64', root),
    ];
  }
  const keyring = JSON.parse(
    readFileSync(join(root, 'node_modules', '@napi-rs', 'keyring', 'package.json'), 'utf8'),
  );
  const name = `@napi-rs/keyring-${napiSuffix(platform, arch)}`;
  const version = (keyring.optionalDependencies || {})[name];
  if (!version) throw new Error(`@napi-rs/keyring ${keyring.version} has no ${name}`);
  return [{ name, version }];
}

/** The prebuilt better-sqlite3 binary a target loads (better-sqlite3/lib/binding.js). */
function sqlitePrebuildFor(platform, arch) {
  return `node_modules/better-sqlite3/prebuilds/${platform}-${arch}.node`;
}

/** Puts one package into node_modules (no-op when the same version is already there). */
function fetchPackage({ name, version }, root = ROOT) {
  const dest = join(root, 'node_modules', ...name.split('/'));
  const manifest = join(dest, 'package.json');
  if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).version === version)
    return;
  const tmp = mkdtempSync(join(tmpdir(), 'airlock-native-'));
  try {
    const out = execFileSync(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      ['pack', `${name}@${version}`, '--pack-destination', tmp, '--json'],
      { cwd: root, encoding: 'utf8', shell: process.platform === 'win32' },
    );
    const [{ filename }] = JSON.parse(out);
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(dest, { recursive: true });
    execFileSync('tar', ['-xzf', join(tmp, filename), '-C', dest, '--strip-components=1']);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The hook: `context.electronPlatformName` is darwin/win32/linux, `context.arch` the Arch enum. */
async function beforePack(context) {
  const platform = context.electronPlatformName;
  const arch = ARCH_NAMES[context.arch];
  for (const pkg of nativePackagesFor(platform, arch)) fetchPackage(pkg);
  const sqlite = arch === 'universal' ? ['x64', 'arm64'] : [arch];
  for (const a of sqlite) {
    if (!existsSync(join(ROOT, sqlitePrebuildFor(platform, a))))
      throw new Error(`better-sqlite3 has no prebuilt binary for ${platform}-${a}`);
  }
}

module.exports = beforePack;
module.exports.default = beforePack;
module.exports.nativePackagesFor = nativePackagesFor;
module.exports.sqlitePrebuildFor = sqlitePrebuildFor;
module.exports.napiSuffix = napiSuffix;
