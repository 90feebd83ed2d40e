import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import type { ApprovalView, SourceStatusView, StatusView } from '../../common/contract/index.js';
import { CoreEvents } from '../platform/events.js';
import {
  clipboard,
  Menu,
  nativeImage,
  platformRules,
  resetFakeElectron,
  Tray,
  type FakeImage,
} from '../../test-support/fake-electron.js';
import { traySupport } from './tray-support.js';
import { TrayIcons } from './tray-icons.js';
import { MAX_PENDING_ITEMS, type TrayActions } from './tray-menu.js';
import { MENU_OPEN_LIMIT_MS, TrayService, type MenuTimers } from './tray.js';

vi.mock('electron', () => import('../../test-support/fake-electron.js'));

/** The real icons (scripts/make-icons.mjs): the fake reads their PNG size; a missing file is an empty image. */
const RES = fileURLToPath(new URL('../../resources', import.meta.url));

type Item = {
  id?: string;
  label?: string;
  type?: string;
  checked?: boolean;
  enabled?: boolean;
  submenu?: Item[];
  click?: () => void;
};

function status(over: Partial<StatusView> = {}): StatusView {
  return {
    version: '0.1.0',
    running: true,
    mcpUrl: 'http://127.0.0.1:47821/mcp',
    dataDir: '/tmp/x',
    paused: false,
    agentsConnected: 2,
    pendingApprovals: 0,
    tools: { total: 3, needApproval: 1 },
    sources: [],
    ...over,
  };
}

function approval(
  id: string,
  agent = 'Claude Code',
  effect = 'Send an e-mail to bob@example.com',
): ApprovalView {
  return {
    id,
    agent,
    tool: 'gmail_send',
    effect,
    arguments: { to: 'bob@example.com' },
    inputSchema: {},
    state: 'pending',
    createdAt: '2026-01-01T00:00:00Z',
    expiresAt: '2026-01-01T00:10:00Z',
  };
}

/** A ControlApi whose answers the test sets; the tray reads only these two. */
function world() {
  const state = { status: status(), pending: [] as ApprovalView[] };
  const control = {
    getStatus: vi.fn(async () => ({ ...state.status, pendingApprovals: state.pending.length })),
    listPending: vi.fn(async () => state.pending),
  };
  const actions: TrayActions = {
    openApproval: vi.fn(),
    openPage: vi.fn(),
    copyMcpUrl: vi.fn((url: string) => clipboard.writeText(url)),
    setPaused: vi.fn(),
    setOpenAtLogin: vi.fn(),
    setApprovalStyle: vi.fn(),
    quit: vi.fn(),
  };
  return { state, control, actions };
}

/** A clock the test moves: timers fire only when it says so. */
function manualClock() {
  let now = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  let next = 1;
  return {
    setTimeout: (fn: () => void, ms: number) => {
      due.set(next, { at: now + ms, fn });
      return next++;
    },
    clearTimeout: (handle: unknown) => void due.delete(handle as number),
    advance(ms: number) {
      now += ms;
      for (const [id, t] of [...due].sort((a, b) => a[1].at - b[1].at))
        if (t.at <= now) {
          due.delete(id);
          t.fn();
        }
    },
  };
}

async function startTray(
  platform: NodeJS.Platform = 'linux',
  pollMs = 0,
  timers: MenuTimers = manualClock(),
) {
  const w = world();
  const events = new CoreEvents();
  const tray = new TrayService({
    control: w.control,
    events,
    icons: new TrayIcons(RES, platform),
    actions: w.actions,
    openAtLogin: () => false,
    approvalStyle: () => 'window',
    platform,
    pollMs,
    timers,
  });
  await tray.start();
  const electronTray = Tray.instances.at(-1)!;
  const items = () => electronTray.menu!.items as Item[];
  const find = (id: string, list: Item[] = items()): Item | undefined => {
    for (const i of list) {
      if (i.id === id) return i;
      const inner = i.submenu && find(id, i.submenu);
      if (inner) return inner;
    }
    return undefined;
  };
  /** Changes state the way the core does, then waits for the rebuild that event triggers. */
  const change = async (fn: () => void) => {
    fn();
    events.emit({ type: 'state.changed' });
    await tray.refresh();
  };
  return { ...w, tray, events, electronTray, items, find, change };
}

const src = (over: Partial<SourceStatusView>): SourceStatusView => ({
  id: 's',
  kind: 'remote',
  label: 'S',
  state: 'ready',
  toolCount: 1,
  ...over,
});

beforeEach(() => resetFakeElectron());

describe('tray menu, rebuilt from state', () => {
  it('idle: status line, no pending, every fixed item present', async () => {
    const t = await startTray();
    expect(t.find('status')).toMatchObject({
      label: 'Running on 127.0.0.1:47821 · 2 agents connected',
      enabled: false,
    });
    expect(t.find('pending')).toMatchObject({ label: 'Pending approvals (0)', enabled: false });
    const labels = t
      .items()
      .map((i) => i.label)
      .filter(Boolean);
    expect(labels).toEqual([
      'Running on 127.0.0.1:47821 · 2 agents connected',
      'Pending approvals (0)',
      'Connect Google account…',
      'Copy MCP URL',
      'Connect an agent…',
      'Pause side effects',
      'Start at login',
      'Ask for approval with',
      'Open Airlock',
      'Quit Airlock',
    ]);
    expect(t.find('pause')).toMatchObject({ type: 'checkbox', checked: false });
    // Linux/Windows idle icon is the app icon (a black template glyph would vanish on a dark panel).
    expect((t.electronTray.image as FakeImage).path).toBe(`${RES}/tray-idle.png`);
    expect(t.electronTray.tooltip).toContain('Running on 127.0.0.1:47821');
  });

  it('pending n: one item per request, each opening its approval; icon and tooltip say so', async () => {
    const t = await startTray();
    await t.change(
      () =>
        (t.state.pending = [
          approval('a1'),
          approval('a2', 'Cursor', 'Delete the event "Standup"'),
        ]),
    );
    const pending = t.find('pending')!;
    expect(pending.label).toBe('Pending approvals (2)');
    expect(pending.submenu!.map((i) => i.label)).toEqual([
      'Claude Code wants to send an e-mail to bob@example.com',
      'Cursor wants to delete the event "Standup"',
    ]);
    pending.submenu![1]!.click!();
    expect(t.actions.openApproval).toHaveBeenCalledWith('a2');
    expect((t.electronTray.image as FakeImage).path).toBe(`${RES}/tray-pending.png`);
    expect(t.electronTray.tooltip).toContain('2 waiting for approval');
  });

  it('pending beyond the limit: the rest behind "All pending approvals…"', async () => {
    const t = await startTray();
    await t.change(
      () =>
        (t.state.pending = Array.from({ length: MAX_PENDING_ITEMS + 3 }, (_, i) =>
          approval(`p${i}`),
        )),
    );
    const sub = t.find('pending')!.submenu!;
    expect(sub.filter((i) => i.id?.startsWith('pending:p'))).toHaveLength(MAX_PENDING_ITEMS);
    const all = t.find('pending:all')!;
    expect(all.label).toBe(`All pending approvals (${MAX_PENDING_ITEMS + 3})…`);
    all.click!();
    expect(t.actions.openPage).toHaveBeenCalledWith('/approvals');
  });

  it('paused: checkbox checked, status line and icon say paused; clicking resumes', async () => {
    const t = await startTray();
    await t.change(() => (t.state.status = status({ paused: true })));
    expect(t.find('pause')).toMatchObject({ checked: true });
    expect(t.find('status')!.label).toMatch(/^Paused on /);
    expect((t.electronTray.image as FakeImage).path).toBe(`${RES}/tray-paused.png`);
    t.find('pause')!.click!();
    expect(t.actions.setPaused).toHaveBeenCalledWith(false);
  });

  it('alert: an account needing reconnection and a broken server show, with the alert icon', async () => {
    const t = await startTray();
    await t.change(
      () =>
        (t.state.status = status({
          sources: [
            src({
              id: 'google:alice',
              kind: 'google',
              label: 'alice@example.com',
              state: 'error',
              detail: 'invalid_grant',
            }),
            src({
              id: 'remote:docs',
              kind: 'remote',
              label: 'docs',
              state: 'error',
              detail: 'unreachable: ECONNREFUSED',
            }),
            src({ id: 'remote:wiki', kind: 'remote', label: 'wiki', state: 'ready', toolCount: 4 }),
          ],
        })),
    );
    expect(t.find('account:google:alice')!.label).toBe('alice@example.com — needs reconnecting');
    t.find('account:google:alice:reconnect')!.click!();
    expect(t.actions.openPage).toHaveBeenCalledWith('/accounts');
    expect(t.find('servers')!.label).toBe('Remote servers (2)');
    expect(t.find('server:remote:docs')!.label).toBe('docs — error: unreachable: ECONNREFUSED');
    expect(t.find('server:remote:wiki')!.label).toBe('wiki — 4 tools');
    expect((t.electronTray.image as FakeImage).path).toBe(`${RES}/tray-alert.png`);
    expect(t.electronTray.tooltip).toContain('alice@example.com, docs needs attention');
  });

  it('pending outranks alert and paused in the icon; back to idle when all clear', async () => {
    const t = await startTray();
    await t.change(() => {
      t.state.status = status({ paused: true, sources: [src({ state: 'error' })] });
      t.state.pending = [approval('a1')];
    });
    expect((t.electronTray.image as FakeImage).path).toBe(`${RES}/tray-pending.png`);
    await t.change(() => {
      t.state.status = status();
      t.state.pending = [];
    });
    expect((t.electronTray.image as FakeImage).path).toBe(`${RES}/tray-idle.png`);
  });

  it('macOS: template image when idle, coloured state icons, pending count as the title', async () => {
    const t = await startTray('darwin');
    const idle = t.electronTray.image as FakeImage;
    expect(idle.path).toBe(`${RES}/trayTemplate.png`);
    expect(idle.template).toBe(true);
    await t.change(() => (t.state.pending = [approval('a1'), approval('a2'), approval('a3')]));
    expect(t.electronTray.title).toBe('3');
    expect((t.electronTray.image as FakeImage).template).toBe(false);
  });

  it('"Copy MCP URL" copies the endpoint; "Connect an agent…" and "Open Airlock" open pages; "Quit" quits', async () => {
    const t = await startTray();
    t.find('copy-mcp-url')!.click!();
    expect(clipboard.text).toBe('http://127.0.0.1:47821/mcp');
    t.find('connect-agent')!.click!();
    expect(t.actions.openPage).toHaveBeenCalledWith('/agents');
    t.find('open')!.click!();
    expect(t.actions.openPage).toHaveBeenLastCalledWith();
    t.find('quit')!.click!();
    expect(t.actions.quit).toHaveBeenCalledOnce();
  });

  it('a burst of events is coalesced, and stop() destroys the tray and stops listening', async () => {
    const t = await startTray();
    t.control.getStatus.mockClear();
    for (let i = 0; i < 20; i++) t.events.emit({ type: 'state.changed' });
    await t.tray.refresh();
    expect(t.control.getStatus.mock.calls.length).toBeLessThanOrEqual(2);
    t.tray.stop();
    expect(t.electronTray.destroyed).toBe(true);
    t.control.getStatus.mockClear();
    t.events.emit({ type: 'state.changed' });
    await t.tray.refresh();
    expect(t.control.getStatus).not.toHaveBeenCalled();
  });
});

describe('the tray menu is replaced only when what it shows changes (issue 21, item 4)', () => {
  it('polls and unrelated events rebuild nothing when nothing visible changed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const t = await startTray('linux', 15_000);
      const built = Menu.built;
      const sets = t.electronTray.setContextMenuCalls;
      for (let i = 0; i < 4; i++) {
        vi.advanceTimersByTime(15_000);
        await t.tray.refresh();
      }
      await t.change(() => {});
      expect(t.control.getStatus.mock.calls.length).toBeGreaterThanOrEqual(5); // it did look
      expect(Menu.built).toBe(built);
      expect(t.electronTray.setContextMenuCalls).toBe(sets);
      // A real change is shown.
      await t.change(() => (t.state.status = status({ agentsConnected: 3 })));
      expect(t.electronTray.setContextMenuCalls).toBe(sets + 1);
      expect(t.find('status')!.label).toContain('3 agents connected');
      t.tray.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a change while the user has the menu open waits until it closes, so the menu does not vanish under the pointer', async () => {
    const t = await startTray();
    t.electronTray.openContextMenu();
    await t.change(() => (t.state.pending = [approval('a1')]));
    expect(t.electronTray.menusClosedUnderUser).toBe(0);
    expect(t.find('pending')!.label).toBe('Pending approvals (0)'); // still the open one
    // The icon and tooltip do not close a menu: they change at once.
    expect((t.electronTray.image as FakeImage).path).toBe(`${RES}/tray-pending.png`);
    t.electronTray.closeMenu();
    await eventually(() => expect(t.find('pending')!.label).toBe('Pending approvals (1)'));
    expect(t.electronTray.menusClosedUnderUser).toBe(0);
  });
});

describe('a tray host that never reports the menu closing (issue 32, item 8)', () => {
  it('a change waits at most MENU_OPEN_LIMIT_MS: a Pause shows as paused, and can be undone from the tray', async () => {
    platformRules.trayMenuCloseReported = false;
    const clock = manualClock();
    const t = await startTray('linux', 0, clock);
    t.electronTray.openContextMenu();
    // The user picks Pause: the menu closes on screen, but the host never says so.
    t.electronTray.closeMenu();
    await t.change(() => (t.state.status = status({ paused: true })));
    expect(t.find('pause')!.checked).toBe(false);
    clock.advance(MENU_OPEN_LIMIT_MS - 1);
    await new Promise((r) => setImmediate(r));
    expect(t.find('pause')!.checked).toBe(false); // a user may still be reading it
    clock.advance(1);
    await eventually(() => expect(t.find('pause')!.checked).toBe(true));
    t.tray.stop();
  });

  it('a host that does report closing shows the change at once, and no bound is left running', async () => {
    const clock = manualClock();
    const t = await startTray('linux', 0, clock);
    t.electronTray.openContextMenu();
    await t.change(() => (t.state.status = status({ paused: true })));
    t.electronTray.closeMenu();
    await eventually(() => expect(t.find('pause')!.checked).toBe(true));
    // Opening it again starts a new wait; a change then waits for this opening, not the last.
    t.electronTray.openContextMenu();
    await t.change(() => (t.state.status = status({ paused: false })));
    clock.advance(MENU_OPEN_LIMIT_MS - 1);
    await new Promise((r) => setImmediate(r));
    expect(t.find('pause')!.checked).toBe(true);
    t.electronTray.closeMenu();
    await eventually(() => expect(t.find('pause')!.checked).toBe(false));
    t.tray.stop();
  });
});

describe('tray icons', () => {
  it('Windows/Linux idle icon is drawn at 16 and 32 px, not the app icon scaled down', async () => {
    const t = await startTray('linux');
    const idle = t.electronTray.image as FakeImage;
    expect(idle.isEmpty()).toBe(false);
    expect(idle.resizedFrom).toBeNull();
    expect(idle.getSize()).toEqual({ width: 16, height: 16 });
    const x2 = nativeImage.createFromPath(idle.path.replace('.png', '@2x.png'));
    expect(x2.getSize()).toEqual({ width: 32, height: 32 });
  });

  it('every tray image exists at 16 and 32 px; a missing one is reported (Electron gives an empty image)', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const icons = new TrayIcons(RES, platform);
      for (const state of ['idle', 'pending', 'paused', 'alert'] as const) {
        const img = icons.image(state) as unknown as FakeImage;
        expect(img.getSize(), `${platform} ${state}`).toEqual({ width: 16, height: 16 });
      }
    }
    const warn = vi.fn();
    const img = new TrayIcons('/nowhere', 'linux', { warn }).image('idle') as unknown as FakeImage;
    expect(img.isEmpty()).toBe(true);
    expect(warn).toHaveBeenCalledWith('tray icon missing or unreadable', {
      file: '/nowhere/tray-idle.png',
    });
  });
});

describe('is there a tray to see? (tray-support.ts)', () => {
  const gnome = { XDG_CURRENT_DESKTOP: 'GNOME', XDG_SESSION_TYPE: 'wayland' };
  it('a StatusNotifierWatcher on the session bus means yes, on any desktop', async () => {
    expect(await traySupport('linux', gnome, async () => true)).toBe('yes');
  });
  it('GNOME or Wayland without a watcher: no (GNOME Shell shows no XEmbed icons)', async () => {
    expect(await traySupport('linux', gnome, async () => false)).toBe('no');
    expect(
      await traySupport(
        'linux',
        { XDG_CURRENT_DESKTOP: 'KDE', WAYLAND_DISPLAY: 'wayland-0' },
        async () => false,
      ),
    ).toBe('no');
  });
  it('an X11 desktop without a watcher may still have an XEmbed tray: unknown', async () => {
    expect(
      await traySupport(
        'linux',
        { XDG_CURRENT_DESKTOP: 'XFCE', XDG_SESSION_TYPE: 'x11' },
        async () => false,
      ),
    ).toBe('unknown');
  });
  it('when the bus cannot be asked: plain GNOME no, Ubuntu’s GNOME (AppIndicator on by default) unknown', async () => {
    expect(await traySupport('linux', gnome, async () => null)).toBe('no');
    expect(
      await traySupport('linux', { XDG_CURRENT_DESKTOP: 'ubuntu:GNOME' }, async () => null),
    ).toBe('unknown');
  });
  it('macOS and Windows always have one', async () => {
    const probe = vi.fn(async () => false);
    expect(await traySupport('darwin', {}, probe)).toBe('yes');
    expect(await traySupport('win32', {}, probe)).toBe('yes');
    expect(probe).not.toHaveBeenCalled();
  });
});
