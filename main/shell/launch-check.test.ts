import { describe, expect, it } from 'vitest';
import { electronBinary, planLaunch } from './launch-check.js';

/** `npm start` decides between the desktop app and headless; these are its answers. */
const files = (present: Record<string, string | true>) => ({
  exists: (p: string) => p in present,
  readText: (p: string) => {
    const v = present[p];
    return typeof v === 'string' ? v : null;
  },
});

describe('npm start: desktop or headless', () => {
  it('desktop when the Electron binary exists and Linux has a display', () => {
    const fs = files({ '/nm/electron/path.txt': 'electron', '/nm/electron/dist/electron': true });
    expect(
      planLaunch({ ...fs, electronDir: '/nm/electron', platform: 'linux', env: { DISPLAY: ':0' } }),
    ).toEqual({ mode: 'desktop', electron: '/nm/electron/dist/electron' });
    expect(
      planLaunch({
        ...fs,
        electronDir: '/nm/electron',
        platform: 'linux',
        env: { WAYLAND_DISPLAY: 'wayland-0' },
      }).mode,
    ).toBe('desktop');
    expect(
      planLaunch({ ...fs, electronDir: '/nm/electron', platform: 'darwin', env: {} }).mode,
    ).toBe('desktop');
  });

  it('headless, saying why, when the binary was never downloaded (what happens on our machines)', () => {
    const plan = planLaunch({
      ...files({}),
      electronDir: '/nm/electron',
      platform: 'linux',
      env: { DISPLAY: ':0' },
    });
    expect(plan).toMatchObject({
      mode: 'headless',
      reason: "Electron's binary was never downloaded (it comes from GitHub on first use)",
      fixes: [expect.stringContaining('node node_modules/electron/install.js')],
    });
  });

  it('headless when path.txt points at a missing file, or the package is absent', () => {
    expect(
      electronBinary({
        ...files({ '/nm/electron/path.txt': 'electron' }),
        electronDir: '/nm/electron',
        env: {},
      }),
    ).toEqual({ reason: "Electron's binary is missing (/nm/electron/dist/electron)" });
    expect(planLaunch({ electronDir: null, env: {}, platform: 'darwin' })).toMatchObject({
      mode: 'headless',
      reason: 'the electron package is not installed',
      fixes: [expect.stringContaining('npm ci')],
    });
  });

  it('headless on Linux without a display', () => {
    const fs = files({ '/nm/electron/path.txt': 'electron', '/nm/electron/dist/electron': true });
    expect(
      planLaunch({ ...fs, electronDir: '/nm/electron', platform: 'linux', env: {} }),
    ).toMatchObject({
      mode: 'headless',
      reason: 'no display (DISPLAY and WAYLAND_DISPLAY are unset)',
      fixes: [expect.stringContaining('xvfb-run')],
    });
  });

  it('names every reason: no binary and no display (issue 19)', () => {
    const plan = planLaunch({
      ...files({}),
      electronDir: '/nm/electron',
      platform: 'linux',
      env: {},
    });
    expect(plan).toMatchObject({
      mode: 'headless',
      reasons: [
        "Electron's binary was never downloaded (it comes from GitHub on first use)",
        'no display (DISPLAY and WAYLAND_DISPLAY are unset)',
      ],
    });
    if (plan.mode === 'headless') {
      expect(plan.reason).toContain('; no display');
      expect(plan.fixes).toHaveLength(2);
    }
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH and AIRLOCK_HEADLESS=1', () => {
    const fs = files({ '/opt/electron/electron': true });
    expect(
      planLaunch({
        ...fs,
        electronDir: '/nm/electron',
        platform: 'win32',
        env: { ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron' },
      }),
    ).toEqual({ mode: 'desktop', electron: '/opt/electron/electron' });
    expect(
      planLaunch({
        ...fs,
        electronDir: '/nm/electron',
        platform: 'win32',
        env: { ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron', AIRLOCK_HEADLESS: '1' },
      }),
    ).toMatchObject({ mode: 'headless', reason: 'AIRLOCK_HEADLESS=1' });
  });

  it('on this machine, without a downloaded binary, it finds the real package and chooses headless', () => {
    const plan = planLaunch({ env: {} });
    expect(plan.mode).toBe('headless');
  });
});
