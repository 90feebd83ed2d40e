import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { NAVIGATE_CHANNEL } from '../../common/ipc-contract.js';
import { UI_CSP } from '../gateway/static-files.js';
import { tempDir } from '../../test-support/harness.js';
import { checkExternalUrl, ExternalLinkGate } from './link-gate.js';
import { APP_ORIGIN, AppProtocol, registerAppScheme, serveAppRequest } from './protocol.js';
import { hardenSession, hardenWebContents } from './security.js';
import {
  app,
  BrowserWindow,
  clipboard,
  FakeWebContents,
  FakeWebFrame,
  protocol,
  resetFakeElectron,
  session,
  shell,
} from '../../test-support/fake-electron.js';
import { WindowManager } from './windows.js';

vi.mock('electron', () => import('../../test-support/fake-electron.js'));

beforeEach(() => resetFakeElectron());

const EXPECTED_PREFERENCES = {
  preload: '/dist/preload/preload.cjs',
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  devTools: false,
};

function manager(devTools = false) {
  return new WindowManager({
    preloadPath: '/dist/preload/preload.cjs',
    links: new ExternalLinkGate(),
    devTools,
  });
}

describe('every BrowserWindow is locked down', () => {
  it('main and approval windows: contextIsolation, sandbox, no nodeIntegration, webSecurity, no webview, no devtools when packaged', () => {
    const w = manager();
    w.openMain();
    w.openApproval('a1');
    expect(BrowserWindow.instances).toHaveLength(2);
    for (const win of BrowserWindow.instances) {
      expect(win.options.webPreferences).toMatchObject(EXPECTED_PREFERENCES);
      // Nothing in webPreferences turns a protection back off or enables a Blink feature.
      expect(win.options.webPreferences).not.toHaveProperty('enableBlinkFeatures');
      expect(win.options.webPreferences).not.toHaveProperty('additionalArguments');
      expect(win.options.show).toBe(false);
    }
  });

  it('windows load only app://airlock, never a remote URL or file://', () => {
    const w = manager();
    w.openMain('/agents');
    w.openApproval('a1');
    const urls = BrowserWindow.instances.flatMap((b) => b.loaded);
    expect(urls).toEqual([
      'app://airlock/index.html#/agents',
      'app://airlock/index.html#/popup?id=a1',
    ]);
    for (const u of urls) expect(u.startsWith(`${APP_ORIGIN}/`)).toBe(true);
  });

  it('the approval window is small, always on top, and reused for the next request', async () => {
    const w = manager();
    const popup = w.openApproval('a1') as unknown as BrowserWindow;
    expect(popup.options).toMatchObject({
      width: 380,
      alwaysOnTop: true,
      skipTaskbar: true,
      minimizable: false,
    });
    expect(popup.alwaysOnTop).toBe(true);
    await eventually(() => expect(popup.visible).toBe(true));
    expect(w.openApproval('a2')).toBe(popup);
    // Moved to the next request in place (windows.test.ts has the details), never a second window.
    expect(popup.webContents.sent.at(-1)).toEqual({
      channel: NAVIGATE_CHANNEL,
      args: ['/popup?id=a2'],
    });
    expect(BrowserWindow.instances).toHaveLength(1);
  });

  it('devtools are allowed only when running from source', () => {
    manager(true).openMain();
    expect(BrowserWindow.instances[0]!.options.webPreferences).toMatchObject({
      devTools: true,
      sandbox: true,
      contextIsolation: true,
    });
  });
});

describe('navigation and new windows are denied', () => {
  it('will-navigate and will-redirect are prevented for every URL; http(s) goes to the system browser', () => {
    const win = manager().openMain() as unknown as BrowserWindow;
    const wc = win.webContents;
    expect(wc.tryNavigate('https://example.com/docs')).toBe(true);
    expect(wc.tryNavigate('file:///etc/passwd')).toBe(true);
    expect(wc.tryNavigate('javascript:alert(1)')).toBe(true);
    expect(wc.tryNavigate('app://airlock/other.html')).toBe(true);
    expect(wc.tryNavigate('https://evil.example/', 'will-redirect')).toBe(true);
    expect(shell.opened).toEqual(['https://example.com/docs', 'https://evil.example/']);
  });

  it('window.open is denied; only an http(s) URL is handed to the system browser', () => {
    const win = manager().openApproval('a') as unknown as BrowserWindow;
    const wc = win.webContents;
    expect(wc.tryOpenWindow('https://myaccount.google.com/permissions')).toEqual({
      action: 'deny',
    });
    expect(wc.tryOpenWindow('file:///Users/me/.ssh/id_rsa')).toEqual({ action: 'deny' });
    expect(wc.tryOpenWindow('javascript:fetch("//x")')).toEqual({ action: 'deny' });
    expect(wc.tryOpenWindow('app://airlock/index.html')).toEqual({ action: 'deny' });
    expect(shell.opened).toEqual(['https://myaccount.google.com/permissions']);
    expect(BrowserWindow.instances).toHaveLength(1);
  });

  it('<webview> attachment is refused, and hardening any other webContents works the same', () => {
    const wc = new FakeWebContents();
    hardenWebContents(wc as never, new ExternalLinkGate());
    hardenWebContents(wc as never, new ExternalLinkGate()); // twice: listeners go on once
    expect(wc.listenerCount('will-navigate')).toBe(1);
    const e = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    wc.emit('will-attach-webview', e, {}, {});
    expect(e.defaultPrevented).toBe(true);
    expect(wc.tryOpenWindow('https://a.example')).toEqual({ action: 'deny' });
  });
});

describe('the external-link gate', () => {
  it('opens http and https only', () => {
    const gate = new ExternalLinkGate();
    expect(gate.open('https://example.com/a?b=c#d')).toBe(true);
    expect(gate.open('http://example.com')).toBe(true);
    expect(shell.opened).toEqual(['https://example.com/a?b=c#d', 'http://example.com/']);
  });

  it('refuses file:, javascript:, data:, other schemes, credentials and garbage', () => {
    const warn = vi.fn();
    const gate = new ExternalLinkGate({ logger: { warn } });
    for (const url of [
      'file:///etc/passwd',
      'FILE:///C:/Windows/System32/calc.exe',
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox',
      'smb://attacker/share',
      'ms-msdt:/id PCWDiagnostic',
      'app://airlock/index.html',
      'https://user:pass@example.com/',
      'not a url',
      '',
      42,
      null,
    ]) {
      expect(gate.open(url)).toBe(false);
    }
    expect(shell.opened).toEqual([]);
    expect(checkExternalUrl('file:///etc/passwd')).toEqual({
      ok: false,
      reason: 'scheme file: is not opened',
    });
    expect(checkExternalUrl('javascript:alert(1)')).toEqual({
      ok: false,
      reason: 'scheme javascript: is not opened',
    });
    // The refused URL is not logged (it is page content).
    expect(JSON.stringify(warn.mock.calls)).not.toContain('passwd');
  });
});

describe('session permissions', () => {
  /** One of our windows, on our page, with app:// registered and the session hardened as the shell does. */
  async function ourPage() {
    await resetFakeElectron({ ready: 'later' });
    registerAppScheme();
    await app.whenReady();
    hardenSession(session.defaultSession as never);
    const win = manager().openMain() as unknown as BrowserWindow;
    return win.webContents;
  }

  it('a Copy button in our page writes the clipboard (clipboard-sanitized-write is allowed there)', async () => {
    const wc = await ourPage();
    // What renderer/src/lib/clipboard.ts calls: navigator.clipboard.writeText (a request).
    await expect(wc.clipboardWriteText('airlock-token-123')).resolves.toBeUndefined();
    expect(clipboard.text).toBe('airlock-token-123');
  });

  it('a permission check from our page matches: Electron passes the origin as app://airlock/ (issue 32, item 4)', async () => {
    const wc = await ourPage();
    // navigator.permissions.query({ name: 'clipboard-write' }) in our page.
    expect(wc.checkPermission('clipboard-sanitized-write')).toBe(true);
    // Exactly what Electron hands the handler (electron_permission_manager.cc).
    const check = session.defaultSession.permissionCheckHandler!;
    const details = {
      isMainFrame: true,
      requestingUrl: wc.getURL(),
      embeddingOrigin: 'app://airlock/',
    };
    expect(check(wc, 'clipboard-sanitized-write', 'app://airlock/', details)).toBe(true);
    // Lookalikes of our origin are not it.
    for (const origin of [
      'app://airlock.evil/',
      'app://evil/',
      'https://airlock/',
      'app://user@airlock/',
      'app://airlock/x',
      '',
      'null',
    ])
      expect(check(wc, 'clipboard-sanitized-write', origin, details), origin).toBe(false);
  });

  it('no other permission is granted to our page, by check or by request', async () => {
    const wc = await ourPage();
    const others = [
      'clipboard-read',
      'deprecated-sync-clipboard-read',
      'media',
      'notifications',
      'geolocation',
      'openExternal',
      'fullscreen',
      'pointerLock',
      'hid',
      'usb',
      'serial',
      'fileSystem',
      'window-management',
      'unknown',
    ];
    for (const p of others) {
      expect(await wc.requestPermission(p), p).toBe(false);
      expect(wc.checkPermission(p), p).toBe(false);
    }
  });

  it('the clipboard stays refused to a sub-frame, to another origin, and to our window once it shows anything else', async () => {
    const wc = await ourPage();
    const sub = new FakeWebFrame('app://airlock/index.html');
    sub.parent = wc.mainFrame;
    await expect(wc.clipboardWriteText('x', sub)).rejects.toThrow(/denied/);
    expect(wc.checkPermission('clipboard-sanitized-write', sub)).toBe(false);
    const evil = new FakeWebFrame('https://evil.example/');
    await expect(wc.clipboardWriteText('x', evil)).rejects.toThrow(/denied/);
    expect(wc.checkPermission('clipboard-sanitized-write', evil)).toBe(false);
    wc.mainFrame.url = wc.url = 'file:///etc/passwd';
    await expect(wc.clipboardWriteText('x')).rejects.toThrow(/denied/);
    expect(wc.checkPermission('clipboard-sanitized-write')).toBe(false);
    expect(clipboard.text).toBe('');
  });
});

describe('app:// protocol', () => {
  /** <tmp>/renderer with a page and a script, next to <tmp>/secret.txt that must stay out of reach. */
  function rendererDir() {
    const root = tempDir('airlock-renderer-');
    const dir = join(root, 'renderer');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Airlock</title>');
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(root, 'secret.txt'), 'outside');
    return dir;
  }

  it('is registered as a standard, secure scheme without CSP bypass (before ready, as Electron demands)', async () => {
    await resetFakeElectron({ ready: 'later' });
    registerAppScheme();
    await app.whenReady();
    expect(() => registerAppScheme()).toThrow(/before app is ready/);
    expect(protocol.privileged).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
  });

  it('serves the renderer with the strict CSP', async () => {
    const dir = rendererDir();
    new AppProtocol(dir).start();
    const handler = protocol.handlers.get('app')!;
    const page = await handler(new Request('app://airlock/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(UI_CSP);
    expect(UI_CSP).toContain("script-src 'self'");
    expect(UI_CSP).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(await page.text()).toContain('<title>Airlock</title>');
    const js = await serveAppRequest(dir, new Request('app://airlock/assets/app.js'));
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    // A route without an extension is the single page.
    expect((await serveAppRequest(dir, new Request('app://airlock/approvals'))).status).toBe(200);
  });

  it('refuses paths outside the renderer, other hosts, and writes', async () => {
    const dir = rendererDir();
    expect(
      (await serveAppRequest(dir, new Request('app://airlock/%2e%2e/secret.txt'))).status,
    ).toBe(404);
    expect(
      (await serveAppRequest(dir, new Request('app://airlock/assets/..%2f..%2fsecret.txt'))).status,
    ).toBe(404);
    expect((await serveAppRequest(dir, new Request('app://evil/index.html'))).status).toBe(404);
    expect((await serveAppRequest(dir, new Request('app://airlock/missing.js'))).status).toBe(404);
    expect(
      (
        await serveAppRequest(
          dir,
          new Request('app://airlock/index.html', { method: 'POST', body: 'x' }),
        )
      ).status,
    ).toBe(405);
  });
});
