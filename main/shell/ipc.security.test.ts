import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CONTROL_METHODS,
  ControlError,
  type ControlApi,
  type ControlBridge,
} from '../../common/contract/index.js';
import {
  CONTROL_CHANNELS,
  controlChannel,
  EVENT_CHANNEL,
  NAVIGATE_CHANNEL,
  parseBridgeError,
} from '../../common/ipc-contract.js';
import { CoreEvents } from '../platform/events.js';
import { VaultError } from '../platform/vault/vault.js';
import { ControlIpc, UntrustedSenderError } from './ipc.js';
import {
  BrowserWindow as FakeWindow,
  contextBridge,
  FakeWebContents,
  FakeWebFrame,
  ipcMain,
  ipcRenderer,
  resetFakeElectron,
} from '../../test-support/fake-electron.js';
import { ExternalLinkGate } from './link-gate.js';
import { WindowManager } from './windows.js';

vi.mock('electron', () => import('../../test-support/fake-electron.js'));

beforeEach(() => resetFakeElectron());

function fakeApi() {
  const api = Object.fromEntries(
    CONTROL_METHODS.map((m) => [m, vi.fn(async (..._a: unknown[]) => ({ method: m }))]),
  ) as unknown as Record<keyof ControlApi, ReturnType<typeof vi.fn>>;
  return api;
}

function setup() {
  const api = fakeApi();
  const events = new CoreEvents();
  const windows = new WindowManager({
    preloadPath: '/p/preload.cjs',
    links: new ExternalLinkGate(),
  });
  const warn = vi.fn();
  const ipc = new ControlIpc({
    api: api as unknown as ControlApi,
    events,
    windows,
    logger: { warn },
  });
  ipc.start();
  const main = windows.openMain() as unknown as FakeWindow;
  const frame = main.webContents.mainFrame;
  const from = (sender: FakeWebContents, senderFrame: FakeWebFrame | null) => ({
    sender,
    senderFrame,
  });
  return { api, events, windows, ipc, main, frame, from, warn };
}

describe('IPC: one typed handler per ControlApi method, behind the sender check', () => {
  it('registers exactly the channels derived from CONTROL_METHODS', () => {
    setup();
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...CONTROL_CHANNELS].sort());
    expect(CONTROL_CHANNELS).toHaveLength(CONTROL_METHODS.length);
  });

  it('answers our window on app://airlock and passes the arguments through', async () => {
    const { api, main, frame, from } = setup();
    const res = await ipcMain.invoke(
      controlChannel('decide'),
      from(main.webContents, frame),
      'a1',
      { kind: 'allow_once' },
    );
    expect(res).toEqual({ ok: true, value: { method: 'decide' } });
    expect(api.decide).toHaveBeenCalledWith('a1', { kind: 'allow_once' });
  });

  it('rejects a webContents that is not one of our windows', async () => {
    const { api, from, warn } = setup();
    const stranger = new FakeWebContents();
    const strangerFrame = new FakeWebFrame('app://airlock/index.html');
    await expect(
      ipcMain.invoke(controlChannel('getStatus'), from(stranger, strangerFrame)),
    ).rejects.toBeInstanceOf(UntrustedSenderError);
    expect(api.getStatus).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith(
      'IPC from an untrusted sender refused',
      expect.objectContaining({ method: 'getStatus' }),
    );
  });

  it('rejects our window once it shows anything but our app origin', async () => {
    const { api, main, frame, from } = setup();
    for (const url of [
      'https://evil.example/',
      'file:///etc/passwd',
      'app://other/index.html',
      'http://127.0.0.1:47821/',
      'about:blank',
      '',
    ]) {
      frame.url = url;
      await expect(
        ipcMain.invoke(controlChannel('setPaused'), from(main.webContents, frame), true),
      ).rejects.toThrow(/not an Airlock window/);
    }
    expect(api.setPaused).not.toHaveBeenCalled();
  });

  it('rejects a sub-frame and a frame that is gone', async () => {
    const { api, main, frame, from } = setup();
    const child = new FakeWebFrame('app://airlock/index.html');
    child.parent = frame;
    await expect(
      ipcMain.invoke(controlChannel('listAgents'), from(main.webContents, child)),
    ).rejects.toBeInstanceOf(UntrustedSenderError);
    await expect(
      ipcMain.invoke(controlChannel('listAgents'), from(main.webContents, null)),
    ).rejects.toBeInstanceOf(UntrustedSenderError);
    expect(api.listAgents).not.toHaveBeenCalled();
  });

  it('rejects a closed window that used to be ours', async () => {
    const { api, main, frame, from } = setup();
    main.destroy();
    await expect(
      ipcMain.invoke(controlChannel('getStatus'), from(main.webContents, frame)),
    ).rejects.toBeInstanceOf(UntrustedSenderError);
    expect(api.getStatus).not.toHaveBeenCalled();
  });

  it('refuses too many arguments before the core sees them', async () => {
    const { api, main, frame, from } = setup();
    const res = await ipcMain.invoke(
      controlChannel('decide'),
      from(main.webContents, frame),
      'a',
      {},
      'extra',
    );
    expect(res).toMatchObject({ ok: false, code: 'INVALID' });
    expect(api.decide).not.toHaveBeenCalled();
  });

  it('checks each argument against the contract, as HTTP and the socket do (issue 27, item 8)', async () => {
    const { api, main, frame, from } = setup();
    const sender = from(main.webContents, frame);
    const res = await ipcMain.invoke(controlChannel('listActivity'), sender, { agent: {} });
    expect(res).toMatchObject({ ok: false, code: 'INVALID', message: /argument 1 agent/ });
    expect(api.listActivity).not.toHaveBeenCalled();
    expect(
      await ipcMain.invoke(controlChannel('listActivity'), sender, { agent: 'a', limit: 5 }),
    ).toMatchObject({ ok: true });
    expect(api.listActivity).toHaveBeenCalledWith({ agent: 'a', limit: 5 });
  });

  it('carries ControlError and VaultError codes as data', async () => {
    const { api, main, frame, from } = setup();
    api.decide.mockRejectedValueOnce(new ControlError('CONFLICT', 'already denied'));
    api.addAgent.mockRejectedValueOnce(new VaultError('VAULT_LOCKED', 'unlock the keyring'));
    api.getStatus.mockRejectedValueOnce(new Error('boom'));
    const sender = from(main.webContents, frame);
    expect(await ipcMain.invoke(controlChannel('decide'), sender, 'a', { kind: 'deny' })).toEqual({
      ok: false,
      code: 'CONFLICT',
      message: 'already denied',
    });
    expect(await ipcMain.invoke(controlChannel('addAgent'), sender, 'x')).toEqual({
      ok: false,
      code: 'VAULT_LOCKED',
      message: 'unlock the keyring',
    });
    expect(await ipcMain.invoke(controlChannel('getStatus'), sender)).toEqual({
      ok: false,
      code: 'INTERNAL',
      message: 'boom',
    });
  });

  it('pushes core events to our windows only, and stop() removes every handler', () => {
    const { events, main, ipc } = setup();
    const popup = new WindowManager({ preloadPath: '/p', links: new ExternalLinkGate() }); // another manager's window is not ours
    const foreign = popup.openMain() as unknown as FakeWindow;
    events.emit({ type: 'state.changed' });
    expect(main.webContents.sent).toEqual([
      { channel: EVENT_CHANNEL, args: [{ type: 'state.changed' }] },
    ]);
    expect(foreign.webContents.sent).toEqual([]);
    ipc.stop();
    expect(ipcMain.handlers.size).toBe(0);
    events.emit({ type: 'tools.changed' });
    expect(main.webContents.sent).toHaveLength(1);
  });

  it('does not push events to our window once it navigated away from the app', () => {
    const { events, main } = setup();
    main.webContents.url = 'https://evil.example/';
    events.emit({ type: 'state.changed' });
    expect(main.webContents.sent).toEqual([]);
  });
});

describe('preload: exposes only ControlBridge', () => {
  it('exposes window.airlock with exactly the ControlApi methods and onEvent — no ipcRenderer, no send', async () => {
    // First import of the preload in this file: its top level calls contextBridge.exposeInMainWorld.
    await import('../../preload/preload.js');
    expect([...contextBridge.exposed.keys()]).toEqual(['airlock']);
    const bridge = contextBridge.exposed.get('airlock') as Record<string, unknown>;
    expect(Object.keys(bridge).sort()).toEqual([...CONTROL_METHODS, 'onEvent'].sort());
    for (const v of Object.values(bridge)) expect(typeof v).toBe('function');
    expect(Object.values(bridge)).not.toContain(ipcRenderer);
  });

  it('invokes the method channel and turns an error result into an Error whose code survives the bridge', async () => {
    const { createBridge } = await import('../../preload/preload.js');
    const bridge: ControlBridge = createBridge(ipcRenderer as never);
    ipcRenderer.reply = (channel) =>
      channel === controlChannel('getStatus')
        ? { ok: true, value: { running: true } }
        : {
            ok: false,
            code: 'CONFLICT',
            message: 'This request is already denied; nothing changed.',
          };
    expect(await bridge.getStatus()).toEqual({ running: true });
    expect(ipcRenderer.invoked[0]).toEqual({ channel: 'airlock:control:getStatus', args: [] });
    const err = await bridge.decide('a', { kind: 'allow_once' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(parseBridgeError((err as Error).message)).toEqual({
      code: 'CONFLICT',
      message: 'This request is already denied; nothing changed.',
    });
  });

  it('onEvent hands the page only the event payload, and unsubscribes', async () => {
    const { createBridge } = await import('../../preload/preload.js');
    const bridge: ControlBridge = createBridge(ipcRenderer as never);
    const seen: unknown[] = [];
    const off = bridge.onEvent((e) => seen.push(e));
    const [listener] = [...ipcRenderer.listeners.get(EVENT_CHANNEL)!];
    listener!({ sender: 'the IPC event must not leak' }, { type: 'state.changed' });
    expect(seen).toEqual([{ type: 'state.changed' }]);
    off();
    expect(ipcRenderer.listeners.get(EVENT_CHANNEL)!.size).toBe(0);
  });

  it('moves the page to a route the shell sends by a hash change, and ignores anything not a route', async () => {
    const { listenForNavigation } = await import('../../preload/preload.js');
    ipcRenderer.listeners.clear();
    const location = { hash: '#/popup' };
    listenForNavigation(ipcRenderer as never, location);
    const [listener] = [...ipcRenderer.listeners.get(NAVIGATE_CHANNEL)!];
    listener!({}, '/popup?id=3f2a-77');
    expect(location.hash).toBe('/popup?id=3f2a-77');
    for (const bad of [
      'javascript:alert(1)',
      'https://evil.example/',
      '//evil',
      '/a b',
      42,
      null,
    ]) {
      listener!({}, bad);
      expect(location.hash).toBe('/popup?id=3f2a-77');
    }
  });
});
