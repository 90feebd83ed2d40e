import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  _electron as electron,
  expect,
  test,
  type ElectronApplication,
  type Page,
} from '@playwright/test';
import { CONTROL_METHODS } from '../common/contract/index.js';
import { electronBinary } from '../main/shell/launch-check.js';
import {
  addAgent,
  newProfile,
  TEST_ELECTRON_MAIN,
  type Profile,
} from './helpers/airlock-server.js';
import { runs } from './helpers/files.js';
import { callTool, connectAgent, textOf } from './helpers/mcp-client.js';

/**
 * The desktop app in a real Electron (issues 9 and 21): launch, the tray's
 * state, the approval popup deciding a real agent's call (which then runs
 * once), and a Copy button writing the system clipboard. Needs Electron's
 * binary (downloaded by the `electron` package from GitHub), a display (on
 * Linux e.g. `xvfb-run`), the OS keychain (`bash scripts/with-keyring.sh`)
 * and `npm run build`. They run wherever those exist (CI included); where
 * the binary or a display is missing they skip and print why.
 *
 * The app is started from the tests' own entry (test-support/electron-main.mjs), which passes
 * the counting test tools into main/desktop.ts and puts the shell in the main process as
 * globalThis.airlockShell; the app itself honours no test hook.
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
const needsDisplay =
  process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
/** A Linux CI box with the binary but no display starts its own X server, when it has one. */
const xvfb = needsDisplay
  ? ['/usr/bin/Xvfb', '/usr/local/bin/Xvfb'].find((p) => existsSync(p))
  : undefined;
const skipReason =
  'reason' in binary
    ? `no Electron binary: ${binary.reason}`
    : needsDisplay && !xvfb
      ? 'no display and no Xvfb (install xvfb, or run under xvfb-run)'
      : null;
/** Starts Xvfb on a free display (it reports the number on fd 3: `-displayfd`). */
function startXvfb(path: string): Promise<{ name: string; stop(): void }> {
  return new Promise((resolveStart, reject) => {
    const child = spawn(
      path,
      ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'],
      {
        stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
      },
    );
    let out = '';
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`Xvfb exited (${code}) before reporting a display`)),
    );
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('\n')) return;
      resolveStart({ name: `:${out.trim()}`, stop: () => void child.kill() });
    });
  });
}

if (skipReason)
  process.stdout.write(`e2e/electron.spec.ts: skipping the Electron specs — ${skipReason}\n`);

test.describe('desktop app (Electron)', () => {
  test.skip(skipReason !== null, skipReason ?? '');

  let app: ElectronApplication;
  let profile: Profile;
  let agentToken: string;
  let display: { name: string; stop(): void } | null = null;

  test.beforeAll(async () => {
    if (xvfb) display = await startXvfb(xvfb);
  });
  test.afterAll(() => display?.stop());

  test.beforeEach(async () => {
    profile = newProfile('airlock-electron-');
    // The agent is added with the CLI before the app holds the data directory.
    agentToken = await addAgent(profile, 'e2e-agent');
    app = await electron.launch({
      executablePath: 'path' in binary ? binary.path : '',
      // The desktop entry with the test tools passed in (test-support/electron-main.mjs).
      args: [TEST_ELECTRON_MAIN],
      cwd: ROOT,
      env: {
        ...process.env,
        AIRLOCK_DATA_DIR: profile.dataDir,
        AIRLOCK_TEST_COUNTER_FILE: profile.counterFile,
        AIRLOCK_TEST_RELEASE_FILE: profile.releaseFile,
        ELECTRON_ENABLE_LOGGING: '1',
        ...(display ? { DISPLAY: display.name } : {}),
      } as Record<string, string>,
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
    // A refused navigation leaves no event to wait on. A negative check: a slow machine can only
    // make it pass without proving much, never fail it.
    // eslint-disable-next-line airlock-tests/test-clock -- see above
    await page.waitForTimeout(300);
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

  /** What the tray shows, read from the shell in the main process (main/shell/tray.ts `state`). */
  type TrayView = {
    status: { running: boolean; mcpUrl: string; paused: boolean };
    pending: { id: string; arguments: Record<string, unknown> }[];
  } | null;
  const trayState = () =>
    app.evaluate(
      () =>
        // Undefined until the shell has started (main/index.ts sets it then).
        (globalThis as unknown as { airlockShell?: { tray: { state: TrayView } } }).airlockShell
          ?.tray.state ?? null,
    );

  test('the tray: running, the MCP URL, nothing pending', async () => {
    await mainWindow();
    await expect.poll(async () => (await trayState())?.status.running).toBe(true);
    const state = (await trayState())!;
    expect(state.status.mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(state.pending).toEqual([]);
  });

  test('an agent call waits in the tray, the popup decides it, and the tool runs exactly once', async () => {
    await mainWindow();
    await expect.poll(async () => (await trayState())?.status.running).toBe(true);
    const agent = await connectAgent((await trayState())!.status.mcpUrl, agentToken);
    try {
      const body = `electron-${Date.now().toString(36)}`;
      const call = callTool(agent, 'test_send', { to: 'bob@example.com', body });
      await expect.poll(async () => (await trayState())?.pending.length).toBe(1);
      const { id } = (await trayState())!.pending[0]!;
      expect(runs(profile.counterFile, 'send', body)).toBe(0);

      // What a click on the notification or the tray item does: open the popup on this request.
      // (Where notifications are unsupported the popup may already be open: it is then moved.)
      await app.evaluate(
        (_e, approvalId) =>
          (
            globalThis as unknown as {
              airlockShell: { activate(l: { kind: 'approval'; id: string }[]): void };
            }
          ).airlockShell.activate([{ kind: 'approval', id: approvalId }]),
        id,
      );
      const popupUrl = `app://airlock/index.html#/popup?id=${id}`;
      await expect.poll(() => app.windows().some((w) => w.url() === popupUrl)).toBe(true);
      const popup = app.windows().find((w) => w.url() === popupUrl)!;
      await popup.waitForLoadState('domcontentloaded');
      const card = popup
        .getByTestId('approval-card')
        .filter({ has: popup.getByTestId('approval-args').getByText(body) });
      const allow = card.getByRole('button', { name: 'Allow once' });
      // The card may hold its buttons for a moment after it appears (no accidental decisions).
      await expect(allow).toBeEnabled();
      await allow.click();

      const result = await call;
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe(`sent to bob@example.com: ${body}`);
      expect(runs(profile.counterFile, 'send', body)).toBe(1);
      await expect.poll(async () => (await trayState())?.pending.length).toBe(0);
    } finally {
      await agent.close();
    }
  });

  test('Copy writes the system clipboard (clipboard-sanitized-write is allowed for our page)', async () => {
    const page = await mainWindow();
    await page.bringToFront();
    await app.evaluate(({ clipboard }) => clipboard.writeText('before'));
    await page.getByRole('button', { name: 'Copy MCP URL' }).click();
    await expect(page.getByRole('button', { name: 'Copy MCP URL' })).toHaveText('Copied');
    const copied = await app.evaluate(({ clipboard }) => clipboard.readText());
    expect(copied).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    // Reading the clipboard stays refused to the page.
    const read = await page.evaluate(async () => {
      try {
        await (
          globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
        ).navigator.clipboard.readText();
        return 'read';
      } catch {
        return 'refused';
      }
    });
    expect(read).toBe('refused');
    // A permission *check* for the same write (the check handler, which Electron gives our origin
    // as app://airlock/ — issue 32, item 4) answers granted too.
    const query = await page.evaluate(async () => {
      const nav = (
        globalThis as unknown as {
          navigator: { permissions: { query(d: { name: string }): Promise<{ state: string }> } };
        }
      ).navigator;
      return (await nav.permissions.query({ name: 'clipboard-write' })).state;
    });
    expect(query).toBe('granted');
  });
});
