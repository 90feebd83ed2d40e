import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  _electron as electron,
  expect,
  test,
  type ElectronApplication,
  type Page,
} from '@playwright/test';
import { CONTROL_METHODS } from '../common/contract/index.js';
import { electronBinary } from '../main/shell/launch-check.js';

/**
 * The desktop app in a real Electron (issue 9): the main window and the
 * approval window, tray-free. Needs Electron's binary (downloaded by the
 * `electron` package from GitHub), a display (on Linux e.g. `xvfb-run`),
 * the OS keychain (`bash scripts/with-keyring.sh`) and `npm run build`.
 * Where the binary is missing these tests skip and say so.
 */
const ROOT = resolve(import.meta.dirname, '..');

/** The page's globals, typed for the checks below (the e2e tsconfig has no DOM lib). */
type PageGlobals = {
  airlock: Record<string, unknown> & {
    getSettings(): Promise<{ approvals: { waitSeconds: number } }>;
    updateSettings(p: object): Promise<{ approvals: { waitSeconds: number } }>;
  };
  open(url: string): unknown;
  location: { href: string };
  require?: unknown;
  process?: unknown;
};

const binary = electronBinary();
const skipReason =
  'reason' in binary
    ? `no Electron binary: ${binary.reason}`
    : process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY
      ? 'no display (run under xvfb-run)'
      : null;
if (skipReason)
  process.stdout.write(`e2e/electron.spec.ts: skipping the Electron specs — ${skipReason}\n`);

test.describe('desktop app (Electron)', () => {
  test.skip(skipReason !== null, skipReason ?? '');

  let app: ElectronApplication;

  test.beforeEach(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'airlock-electron-'));
    app = await electron.launch({
      executablePath: 'path' in binary ? binary.path : '',
      args: [ROOT],
      cwd: ROOT,
      env: { ...process.env, AIRLOCK_DATA_DIR: dataDir, ELECTRON_ENABLE_LOGGING: '1' } as Record<
        string,
        string
      >,
    });
  });

  test.afterEach(async () => {
    await app?.close();
  });

  async function mainWindow(): Promise<Page> {
    const page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
    return page;
  }

  test('the main (settings) window: app:// origin, the bridge is ControlApi only, settings round-trip over IPC', async () => {
    const page = await mainWindow();
    expect(page.url()).toBe('app://airlock/index.html#/approvals');
    const bridge = await page.evaluate(() =>
      Object.keys((globalThis as unknown as PageGlobals).airlock).sort(),
    );
    expect(bridge).toEqual([...CONTROL_METHODS, 'onEvent'].sort());
    // No Node in the page.
    // No Node in the page (nodeIntegration off, sandbox on), and no ipcRenderer behind the bridge (contextIsolation).
    expect(await page.evaluate(() => typeof (globalThis as unknown as PageGlobals).require)).toBe(
      'undefined',
    );
    expect(await page.evaluate(() => typeof (globalThis as unknown as PageGlobals).process)).toBe(
      'undefined',
    );
    expect(
      await page.evaluate(() =>
        Object.values((globalThis as unknown as PageGlobals).airlock).every(
          (v) => typeof v === 'function',
        ),
      ),
    ).toBe(true);

    const before = await page.evaluate(() =>
      (globalThis as unknown as PageGlobals).airlock.getSettings(),
    );
    const wanted = before.approvals.waitSeconds === 30 ? 31 : 30;
    const after = await page.evaluate(
      (n) => (globalThis as unknown as PageGlobals).airlock.updateSettings({ waitSeconds: n }),
      wanted,
    );
    expect(after.approvals.waitSeconds).toBe(wanted);
  });

  test('the main window refuses navigation and window.open', async () => {
    const page = await mainWindow();
    expect(
      await page.evaluate(
        () => (globalThis as unknown as PageGlobals).open('https://example.com/') === null,
      ),
    ).toBe(true);
    await page.evaluate(() => {
      (globalThis as unknown as PageGlobals).location.href = 'file:///etc/passwd';
    });
    await page.waitForTimeout(300); // a refused navigation leaves no event to wait on
    expect(page.url()).toMatch(/^app:\/\/airlock\//);
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });

  test('the approval window: opened by an airlock:// link, small and always on top, showing the queue', async () => {
    await mainWindow();
    const opened = app.waitForEvent('window');
    await app.evaluate(({ app: electronApp }) => {
      electronApp.emit(
        'second-instance',
        { preventDefault() {} },
        ['airlock', 'airlock://approval/e2e-1'],
        process.cwd(),
        {},
      );
    });
    const popup = await opened;
    await popup.waitForLoadState('domcontentloaded');
    expect(popup.url()).toBe('app://airlock/index.html#/popup?id=e2e-1');
    const info = await app.evaluate(({ BrowserWindow }) =>
      BrowserWindow.getAllWindows()
        .filter((w) => w.webContents.getURL().includes('#/popup'))
        .map((w) => ({ onTop: w.isAlwaysOnTop(), width: w.getBounds().width })),
    );
    expect(info).toEqual([{ onTop: true, width: 380 }]);
    await expect(popup.locator('#main')).toBeVisible();
  });
});
