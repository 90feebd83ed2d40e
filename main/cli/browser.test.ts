import { describe, expect, it } from 'vitest';
import { openInBrowser, type Opener } from './browser.js';

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

  it('a browser that cannot be started is reported, not thrown', async () => {
    const { opener } = recorder({ DISPLAY: ':0' }, 'linux', true);
    expect(await openInBrowser('http://x/', opener)).toBe('failed');
  });
});
