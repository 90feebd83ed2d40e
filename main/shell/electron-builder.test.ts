import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { APP_ID } from './main-process.js';
import { TRAY_ICON_FILES } from './tray-icons.js';

vi.mock('electron', () => import('../../test-support/fake-electron.js'));

/**
 * Packaging cannot run here (it downloads Electron from GitHub), so the
 * configuration is checked instead: against electron-builder's own schema,
 * and for what issue 9 item 5 asks of it.
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
    for (const file of [...Object.values(TRAY_ICON_FILES), 'icon.png']) {
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
    expect(config.files).toContain('!dist/test-support/**');
  });
});
