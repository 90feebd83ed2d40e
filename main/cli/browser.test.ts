import { describe, expect, it } from 'vitest';
import { openInBrowser, waitOutFlow, type Opener } from './browser.js';

/**
 * The one browser opener of `airlock open`, `connect google` and `remote login`: it opens where
 * there is a display, skips Linux without one (the printed URL is the way in) and never throws.
 */
function recorder(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, fail = false) {
  const opened: string[] = [];
  const opener: Opener = {
    open: async (url) => {
      if (fail) throw new Error('spawn xdg-open ENOENT');
      opened.push(url);
    },
    env,
    platform,
  };
  return { opener, opened };
}

describe('openInBrowser', () => {
  it('opens the URL where there is a display: X11, Wayland, or not Linux at all', async () => {
    for (const [env, platform] of [
      [{ DISPLAY: ':0' }, 'linux'],
      [{ WAYLAND_DISPLAY: 'wayland-0' }, 'linux'],
      [{}, 'darwin'],
      [{}, 'win32'],
    ] as const) {
      const { opener, opened } = recorder(env, platform);
      expect(await openInBrowser('http://127.0.0.1:1/#token=t', opener)).toBe('opened');
      expect(opened).toEqual(['http://127.0.0.1:1/#token=t']);
    }
  });

  it('on Linux without a display (ssh, a container) it skips the browser', async () => {
    for (const env of [{}, { DISPLAY: '' }, { DISPLAY: '', WAYLAND_DISPLAY: '' }]) {
      const { opener, opened } = recorder(env, 'linux');
      expect(await openInBrowser('http://x/', opener)).toBe('skipped');
      expect(opened).toEqual([]);
    }
  });

  it('WSL without WSLg has no DISPLAY but opens the Windows browser (open goes through PowerShell)', async () => {
    // WSL sets WSL_DISTRO_NAME in its sessions; an ssh session into it has neither that nor a
    // way to the Windows desktop, and `open` itself takes xdg-open there (is-in-ssh).
    const { opener, opened } = recorder({ WSL_DISTRO_NAME: 'Ubuntu' }, 'linux');
    expect(await openInBrowser('http://127.0.0.1:1/#token=t', opener)).toBe('opened');
    expect(opened).toEqual(['http://127.0.0.1:1/#token=t']);
    const ssh = recorder(
      { WSL_DISTRO_NAME: 'Ubuntu', SSH_CONNECTION: '10.0.0.2 5 10.0.0.1 22' },
      'linux',
    );
    expect(await openInBrowser('http://x/', ssh.opener)).toBe('skipped');
    expect(ssh.opened).toEqual([]);
  });

  it('a browser that cannot be started is reported, not thrown', async () => {
    const { opener } = recorder({ DISPLAY: ':0' }, 'linux', true);
    expect(await openInBrowser('http://x/', opener)).toBe('failed');
  });
});

describe('waitOutFlow', () => {
  it('asks again while the flow is waiting or exchanging, and gives back the view that ended it', async () => {
    const states = ['waiting', 'exchanging', 'waiting', 'connected', 'waiting'];
    const asked: number[] = [];
    const view = await waitOutFlow(
      async (waitMs) => (asked.push(waitMs), { state: states[asked.length - 1]! }),
      async () => {},
    );
    expect(view).toEqual({ state: 'connected' });
    expect(asked).toEqual([25_000, 25_000, 25_000, 25_000]);
  });

  it('Ctrl-C cancels the flow in the core; the handler is gone after the wait, also when it fails', async () => {
    const before = process.listenerCount('SIGINT');
    let cancelled = 0;
    let answer: (v: { state: string }) => void = () => {};
    let onAsked: () => void = () => {};
    const asked = new Promise<void>((r) => (onAsked = r));
    const done = waitOutFlow(
      () => (onAsked(), new Promise<{ state: string }>((r) => (answer = r))),
      async () => void cancelled++,
    );
    await asked;
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    // Ours is the last one added; run just it (the test runner may have SIGINT handlers of its own).
    (process.listeners('SIGINT').at(-1) as () => void)();
    expect(cancelled).toBe(1);
    answer({ state: 'cancelled' });
    expect(await done).toEqual({ state: 'cancelled' });
    expect(process.listenerCount('SIGINT')).toBe(before);

    const failed = waitOutFlow(
      async () => Promise.reject(new Error('core gone')),
      async () => Promise.reject(new Error('not reached')),
    );
    await expect(failed).rejects.toThrow('core gone');
    expect(process.listenerCount('SIGINT')).toBe(before);
  });

  it('runs `first` (the browser opener) with the cancel handler already there', async () => {
    const before = process.listenerCount('SIGINT');
    const seen: number[] = [];
    const view = await waitOutFlow(
      async () => ({ state: 'connected' }),
      async () => {},
      async () => void seen.push(process.listenerCount('SIGINT')),
    );
    expect(view).toEqual({ state: 'connected' });
    expect(seen).toEqual([before + 1]);
    expect(process.listenerCount('SIGINT')).toBe(before);
    const failed = waitOutFlow(
      async () => ({ state: 'connected' }),
      async () => {},
      async () => Promise.reject(new Error('opener threw')),
    );
    await expect(failed).rejects.toThrow('opener threw');
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});
