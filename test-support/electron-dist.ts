import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import JSZip from 'jszip';

/**
 * A stand-in for Electron's release zips (`electron-v<version>-<platform>-<arch>.zip`), so that
 * electron-builder can package Airlock on a machine that cannot download Electron (issue 32).
 * Given as `electronDist` (a folder holding the zips), electron-builder unpacks the one for each
 * target instead of downloading it (app-builder-lib/out/electron/ElectronFramework.js `unpack`:
 * "if electronDist is a directory, check for the default zip file inside it").
 *
 * Each zip has the layout electron-builder works on, and nothing that runs:
 *   - every executable holds a fuse wire (the @electron/fuses sentinel, wire version 1, eight fuses
 *     left "inherit"), so electron-builder's `electronFuses` step flips them as it would Electron's;
 *   - macOS: Electron.app with its Info.plist, the helper apps electron-builder renames, and the
 *     Electron Framework binary that holds the fuse wire (@electron/fuses `pathToFuseFile`);
 *   - Windows: electron.exe is a real (empty) PE image with a VERSIONINFO resource, which
 *     electron-builder edits with resedit (product name, icon, the asar integrity resource).
 * Never packaged: it lives in test-support/ and only tests create it.
 */

/** @electron/fuses SENTINEL (dist/constants.js), then wire version 1 and the wire's length. */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const INHERIT = 0x90;
export const FUSE_COUNT = 8;

/** Bytes standing in for an executable: a marker saying what it is, and a fuse wire. */
function fakeBinary(what: string): Buffer {
  return Buffer.concat([
    Buffer.from(`stand-in ${what}, not Electron\n`),
    Buffer.from(SENTINEL, 'ascii'),
    Buffer.from([1, FUSE_COUNT, ...Array<number>(FUSE_COUNT).fill(INHERIT)]),
  ]);
}

/** The part of resedit's API used here. */
interface ResEditApi {
  NtExecutable: { createEmpty(is32: boolean, isDll: boolean): { generate(): ArrayBuffer } };
  NtExecutableResource: {
    from(exe: unknown): {
      entries: {
        type: number;
        id: number;
        lang: number;
        codepage: number;
        bin: ArrayBuffer;
      }[];
      outputResource(exe: unknown): void;
    };
  };
  Resource: {
    VersionInfo: {
      createEmpty(): {
        lang: number;
        setStringValues(
          lang: { lang: number; codepage: number },
          values: Record<string, string>,
        ): void;
        setFileVersion(version: string): void;
        outputToResourceEntries(entries: unknown[]): void;
      };
    };
  };
}

/** A minimal Windows executable electron-builder's resedit can open: VERSIONINFO, fuse wire in RCDATA. */
function fakeExe(): Buffer {
  // The resedit electron-builder itself uses (a dependency of app-builder-lib).
  const requireFromBuilder = createRequire(
    createRequire(import.meta.url).resolve('app-builder-lib/package.json'),
  );
  // Typed by hand: resedit's own declarations pull in lib "dom", which changes `fetch`'s types
  // for the whole program (Buffer stops being a BodyInit).
  const ResEdit = requireFromBuilder('resedit') as ResEditApi;
  const exe = ResEdit.NtExecutable.createEmpty(false, false);
  const res = ResEdit.NtExecutableResource.from(exe);
  const lang = { lang: 1033, codepage: 1200 };
  const info = ResEdit.Resource.VersionInfo.createEmpty();
  info.lang = lang.lang;
  info.setStringValues(lang, { ProductName: 'Electron', FileDescription: 'Electron' });
  info.setFileVersion('45.5.0.0');
  info.outputToResourceEntries(res.entries);
  // RT_RCDATA = 10: the fuse wire survives every resource rewrite electron-builder does.
  res.entries.push({
    type: 10,
    id: 1,
    lang: lang.lang,
    codepage: lang.codepage,
    bin: new Uint8Array(fakeBinary('electron.exe')).buffer,
  });
  res.outputResource(exe);
  return Buffer.from(exe.generate());
}

const plist = (entries: Record<string, string>) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
${Object.entries(entries)
  .map(([k, v]) => `  <key>${k}</key>\n  <string>${v}</string>`)
  .join('\n')}
</dict>
</plist>
`;

/** The helper apps of Electron.app (Electron 45: plain, Renderer, GPU, Plugin). */
const MAC_HELPERS = [
  'Electron Helper',
  'Electron Helper (Renderer)',
  'Electron Helper (GPU)',
  'Electron Helper (Plugin)',
];

function files(platform: 'linux' | 'darwin' | 'win32'): Record<string, Buffer | string> {
  const common = {
    LICENSE: 'MIT (stand-in)',
    'LICENSES.chromium.html': '<p>stand-in</p>',
    version: '45.5.0',
  };
  if (platform === 'linux')
    return {
      ...common,
      electron: fakeBinary('electron'),
      chrome_crashpad_handler: 'stand-in',
      'chrome-sandbox': 'stand-in',
      'locales/en-US.pak': 'stand-in',
    };
  if (platform === 'win32')
    return {
      ...common,
      'electron.exe': fakeExe(),
      'locales/en-US.pak': 'stand-in',
    };
  const app = 'Electron.app/Contents';
  const out: Record<string, Buffer | string> = {
    ...common,
    [`${app}/Info.plist`]: plist({
      CFBundleExecutable: 'Electron',
      CFBundleIdentifier: 'com.github.Electron',
      CFBundleName: 'Electron',
      CFBundleDisplayName: 'Electron',
      CFBundleIconFile: 'electron.icns',
      CFBundlePackageType: 'APPL',
      CFBundleVersion: '45.5.0',
      CFBundleShortVersionString: '45.5.0',
    }),
    [`${app}/MacOS/Electron`]: fakeBinary('Electron'),
    [`${app}/Resources/electron.icns`]: 'stand-in',
    [`${app}/Resources/en.lproj/locale.pak`]: 'stand-in',
    [`${app}/Frameworks/Electron Framework.framework/Electron Framework`]:
      fakeBinary('Electron Framework'),
  };
  for (const helper of MAC_HELPERS) {
    out[`${app}/Frameworks/${helper}.app/Contents/Info.plist`] = plist({
      CFBundleExecutable: helper,
      CFBundleIdentifier: 'com.github.Electron.helper',
      CFBundleName: helper,
      CFBundlePackageType: 'APPL',
    });
    out[`${app}/Frameworks/${helper}.app/Contents/MacOS/${helper}`] = fakeBinary(helper);
  }
  return out;
}

const EXECUTABLE = /(^|\/)(electron|Electron[^/]*|chrome[-_][a-z_]+)$/;

/**
 * Writes `electron-v<version>-<platform>-<arch>.zip` for each target into `dir` and returns `dir`,
 * ready for `-c.electronDist=<dir>`.
 */
export async function writeStandInElectronDist(
  dir: string,
  version: string,
  targets: readonly { platform: 'linux' | 'darwin' | 'win32'; arch: string }[],
): Promise<string> {
  mkdirSync(dir, { recursive: true });
  for (const { platform, arch } of targets) {
    const zip = new JSZip();
    for (const [name, content] of Object.entries(files(platform)))
      zip.file(name, content, { unixPermissions: EXECUTABLE.test(name) ? 0o755 : 0o644 });
    const bytes = await zip.generateAsync({ type: 'nodebuffer', platform: 'UNIX' });
    writeFileSync(join(dir, `electron-v${version}-${platform}-${arch}.zip`), bytes);
  }
  return dir;
}

/**
 * The icon tool electron-builder downloads from GitHub (app-builder-lib/out/toolsets/icons.js,
 * `icons@1.2.3`) to turn resources/icon.png into the macOS .icns and the Windows .ico; a stand-in
 * given by ELECTRON_BUILDER_ICONS_TOOLSET_DIR (read by that same file). It wraps the PNG unchanged
 * in an ICNS container ('ic10' = 1024 px PNG) or an ICO directory (one 256 px entry holding the
 * PNG), which is enough for electron-builder and resedit to embed; the icon's pixels are not what
 * the packaging test checks.
 */
const ICON_TOOL = `'use strict';
const fs = require('node:fs');
const path = require('node:path');
const arg = (k) => process.argv.find((a) => a.startsWith('--' + k + '='))?.slice(k.length + 3);
const png = fs.readFileSync(arg('input'));
const format = arg('format');
const out = arg('out');
fs.mkdirSync(out, { recursive: true });
if (format === 'icns') {
  const head = Buffer.alloc(16);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(16 + png.length, 4);
  head.write('ic10', 8, 'ascii');
  head.writeUInt32BE(8 + png.length, 12);
  fs.writeFileSync(path.join(out, 'icon.icns'), Buffer.concat([head, png]));
} else if (format === 'ico') {
  const head = Buffer.alloc(22);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2);
  head.writeUInt16LE(1, 4);
  head.writeUInt8(0, 6); // 0 = 256 px
  head.writeUInt8(0, 7);
  head.writeUInt16LE(1, 10);
  head.writeUInt16LE(32, 12);
  head.writeUInt32LE(png.length, 14);
  head.writeUInt32LE(22, 18);
  fs.writeFileSync(path.join(out, 'icon.ico'), Buffer.concat([head, png]));
} else {
  const w = png.readUInt32BE(16);
  fs.writeFileSync(path.join(out, w + 'x' + w + '.png'), png);
}
`;

/** Writes the stand-in icon tool into `dir` and returns `dir` (for ELECTRON_BUILDER_ICONS_TOOLSET_DIR). */
export function writeStandInIconsToolset(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'icon-tool.js'), ICON_TOOL);
  return dir;
}
