import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { APP_ID } from './main-process.js';
import { TRAY_ICON_FILES, TRAY_IDLE_COLOUR_FILE } from './tray-icons.js';

vi.mock('electron', () => import('../../test-support/fake-electron.js'));

/**
 * The configuration, checked against electron-builder's own schema and for what issue 9 item 5
 * asks of it. What the configuration *produces* — the files in each package — is checked by
 * main/shell/packaging.test.ts, which runs electron-builder itself (issue 32, item 1).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed YAML, checked key by key below
type Yaml = Record<string, any>;
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Yaml;

const targets = (platform: string) =>
  (config[platform].target as (string | { target: string })[]).map((t) =>
    typeof t === 'string' ? t : t.target,
  );

describe('electron-builder.yml', () => {
  it("is valid for the installed electron-builder's schema", async () => {
    const require = createRequire(import.meta.url);
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration(
        config: unknown,
        debugLogger: { isEnabled: boolean; add(): void },
      ): Promise<void>;
    };
    await expect(
      validateConfiguration(structuredClone(config), { isEnabled: false, add: () => {} }),
    ).resolves.toBeUndefined();
    // The check itself can fail: an unknown key is refused.
    await expect(
      validateConfiguration(
        { ...structuredClone(config), notAnOption: true },
        { isEnabled: false, add: () => {} },
      ),
    ).rejects.toThrow(/notAnOption/);
  });

  it('builds macOS dmg+zip, Windows nsis, Linux AppImage+deb, inside an asar', () => {
    expect(targets('mac')).toEqual(['dmg', 'zip']);
    expect(targets('win')).toEqual(['nsis']);
    expect(targets('linux')).toEqual(['AppImage', 'deb']);
    // macOS for Intel and Apple silicon (issue 21, item 8).
    for (const t of config.mac.target) expect(t.arch).toEqual(['x64', 'arm64']);
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('**/*.node');
  });

  it('sets the fuses: RunAsNode off, NODE_OPTIONS off, inspect off, cookie encryption on, app only from an integrity-checked asar', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      loadBrowserProcessSpecificV8Snapshot: false,
    });
  });

  it('macOS: LSUIElement (no Dock icon), alert-style notifications, hardened runtime with entitlements, notarization on', () => {
    expect(config.mac.extendInfo).toMatchObject({
      LSUIElement: true,
      NSUserNotificationAlertStyle: 'alert',
    });
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.notarize).toBe(true);
    const entitlements = readFileSync(join(root, config.mac.entitlements), 'utf8');
    expect(entitlements).toContain('com.apple.security.cs.allow-jit');
    // Nothing beyond what V8 needs.
    expect(entitlements.match(/<key>/g)).toHaveLength(1);
    expect(config.mac.entitlementsInherit).toBe(config.mac.entitlements);
  });

  it('uses the same appId as the AppUserModelId and registers the airlock:// scheme', () => {
    expect(config.appId).toBe(APP_ID);
    expect(config.protocols).toEqual([{ name: 'Airlock', schemes: ['airlock'] }]);
  });

  it('ships every tray icon (1x and @2x) and the app icon from resources/, and leaves test fakes out', () => {
    const filter = config.extraResources[0].filter as string[];
    for (const file of [...Object.values(TRAY_ICON_FILES), TRAY_IDLE_COLOUR_FILE, 'icon.png']) {
      for (const name of file === 'icon.png' ? [file] : [file, file.replace('.png', '@2x.png')]) {
        expect(existsSync(join(root, 'resources', name)), name).toBe(true);
        expect(
          filter.some((f) =>
            new RegExp(`^${f.replace('.', '\\.').replace('*', '.*')}$`).test(name),
          ),
          name,
        ).toBe(true);
      }
    }
    // Each platform's `files` is complete (a list of exclusions alone would ship the repository:
    // electron-builder.yml, issue 32 item 1) and has no top-level list to be merged with. The
    // headless CLI's bundle (scripts/build-cli.mjs) is not the app's: it runs dist/main/index.js.
    expect(config.files).toBeUndefined();
    for (const p of ['mac', 'win', 'linux'])
      expect((config[p].files as string[]).slice(0, 4), p).toEqual([
        'dist/**',
        '!**/*.map',
        '!dist/main/bundle/**',
        'package.json',
      ]);
  });
});

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): [number, number] {
  const b = readFileSync(join(root, 'resources', file));
  expect(b.toString('ascii', 12, 16)).toBe('IHDR');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

const require = createRequire(import.meta.url);
const nativeHook = require(join(root, config.beforePack as string)) as {
  (context: unknown): Promise<void>;
  nativePackagesFor(platform: string, arch: string): { name: string; version: string }[];
  sqlitePrebuildFor(platform: string, arch: string): string;
};
const signHook = require(join(root, config.win.signtoolOptions.sign as string)) as {
  (configuration: { path: string; hash: string }): Promise<void>;
  signCommandFrom(env: Record<string, string | undefined>): string | null;
};

const TARGETS = [
  { builder: 'mac', platform: 'darwin', arch: 'x64' },
  { builder: 'mac', platform: 'darwin', arch: 'arm64' },
  { builder: 'win', platform: 'win32', arch: 'x64' },
  { builder: 'linux', platform: 'linux', arch: 'x64' },
  { builder: 'linux', platform: 'linux', arch: 'arm64' },
] as const;

describe('packaging: native modules for every target, from any host (issue 21, item 8)', () => {
  it('lists a target for each arch the config builds', () => {
    const built = (p: 'mac' | 'win' | 'linux') =>
      [...new Set((config[p].target as { arch: string[] }[]).flatMap((t) => t.arch))].sort();
    for (const p of ['mac', 'win', 'linux'] as const)
      expect(built(p)).toEqual(
        TARGETS.filter((t) => t.builder === p)
          .map((t) => t.arch)
          .sort(),
      );
  });

  it.each(TARGETS)(
    '$platform-$arch: the hook fetches its keyring binary at the pinned version',
    ({ platform, arch }) => {
      const [pkg, ...more] = nativeHook.nativePackagesFor(platform, arch);
      expect(more).toEqual([]);
      const keyring = JSON.parse(
        readFileSync(join(root, 'node_modules/@napi-rs/keyring/package.json'), 'utf8'),
      ) as { version: string; optionalDependencies: Record<string, string> };
      expect(pkg!.name).toMatch(
        new RegExp(`^@napi-rs/keyring-${platform}-${arch === 'x64' ? 'x64' : 'arm64'}`),
      );
      expect(pkg!.version).toBe(keyring.optionalDependencies[pkg!.name]);
      // Which binaries each package then holds (its own, unpacked, no other platform's) is read
      // from the packages electron-builder builds: main/shell/packaging.test.ts.
    },
  );

  it('the hook refuses a target with no binary instead of shipping a build that cannot open its vault', () => {
    expect(() => nativeHook.nativePackagesFor('darwin', 'ia32')).toThrow(/cannot be packaged/);
    expect(nativeHook.nativePackagesFor('darwin', 'universal').map((p) => p.name)).toEqual([
      '@napi-rs/keyring-darwin-x64',
      '@napi-rs/keyring-darwin-arm64',
    ]);
  });

  it('npmRebuild stays off (better-sqlite3 would be compiled from source), and the hook runs before files are collected', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.beforePack).toBe('scripts/packaging/native-modules.cjs');
    expect(typeof nativeHook).toBe('function');
  });
});

describe('packaging: signing and icons (issue 21, item 8)', () => {
  it('Windows: a signing hook driven by AIRLOCK_WIN_SIGN_COMMAND, SHA-256 only, no secret in the repository', async () => {
    expect(config.win.signtoolOptions).toEqual({
      sign: 'scripts/packaging/sign-windows.cjs',
      signingHashAlgorithms: ['sha256'],
    });
    expect(signHook.signCommandFrom({})).toBeNull();
    expect(signHook.signCommandFrom({ AIRLOCK_WIN_SIGN_COMMAND: '  ' })).toBeNull();
    expect(signHook.signCommandFrom({ AIRLOCK_WIN_SIGN_COMMAND: 'smctl sign' })).toBe('smctl sign');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const saved = process.env.AIRLOCK_WIN_SIGN_COMMAND;
    delete process.env.AIRLOCK_WIN_SIGN_COMMAND;
    try {
      await signHook({ path: 'C:/x/Airlock.exe', hash: 'sha256' });
      expect(log).toHaveBeenCalledWith(expect.stringContaining('Windows signing skipped'));
    } finally {
      log.mockRestore();
      if (saved !== undefined) process.env.AIRLOCK_WIN_SIGN_COMMAND = saved;
    }
    const text = readFileSync(join(root, 'scripts/packaging/sign-windows.cjs'), 'utf8');
    expect(text).not.toMatch(/password\s*[:=]\s*['"][^'"]+['"]|BEGIN (RSA )?PRIVATE KEY/i);
  });

  it('a 1024 px app icon (macOS .icns source) and tray images drawn at 16 and 32 px', () => {
    expect(pngSize('icon.png')).toEqual([1024, 1024]);
    for (const file of [...Object.values(TRAY_ICON_FILES), TRAY_IDLE_COLOUR_FILE]) {
      expect(pngSize(file), file).toEqual([16, 16]);
      expect(pngSize(file.replace('.png', '@2x.png')), file).toEqual([32, 32]);
    }
  });
});
