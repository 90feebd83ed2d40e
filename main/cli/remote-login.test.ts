import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ControlApi } from '../../common/contract/index.js';
import { openInBrowser } from './browser.js';
import { loginCommand } from './remote-login.js';

// A browser that cannot be started: the sign-in goes on through the URL printed before it.
vi.mock('./browser.js', async (actual) => ({
  ...(await actual<typeof import('./browser.js')>()),
  openInBrowser: vi.fn(async () => 'failed'),
}));

const AUTH_URL = 'https://auth.example/authorize?state=s';
const api = {
  loginRemote: async (name: string) => ({
    flowId: 'f',
    name,
    authUrl: AUTH_URL,
    redirectUri: 'http://127.0.0.1:1/callback',
    expiresAt: new Date(0).toISOString(),
    browserOpened: false,
  }),
  waitRemoteLogin: async () => ({ flowId: 'f', name: 'linear', state: 'signed-in' }),
  cancelRemoteLogin: async () => ({ flowId: 'f', name: 'linear', state: 'cancelled' }),
} as unknown as ControlApi;

afterEach(() => {
  vi.restoreAllMocks();
  vi.mocked(openInBrowser).mockClear();
});

describe('airlock remote login and the browser', () => {
  it('prints the URL, tries the browser (which fails here) and still waits the sign-in out', async () => {
    const printed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => (printed.push(String(s)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const login = { browser: true, json: false, options: {} };
    expect(await loginCommand(api, 'linear', login)).toBe(0);
    expect(printed.join('')).toContain(`Open this page in your browser to sign in to "linear"`);
    expect(printed.join('')).toContain(AUTH_URL);
    expect(printed.join('')).toContain('Signed in to "linear"');
    expect(vi.mocked(openInBrowser).mock.calls).toEqual([[AUTH_URL]]);
  });

  it('Ctrl-C while the browser is still starting cancels the sign-in in the core, once', async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const before = process.listenerCount('SIGINT');
    const cancelled: string[] = [];
    let waited = 0;
    const interrupted = {
      ...api,
      cancelRemoteLogin: async (flowId: string) => (cancelled.push(flowId), { state: 'cancelled' }),
      waitRemoteLogin: async () => (waited++, { flowId: 'f', name: 'linear', state: 'cancelled' }),
    } as unknown as ControlApi;
    vi.mocked(openInBrowser).mockImplementationOnce(async () => {
      // The opener is still running: the cancel handler must already be there.
      expect(process.listenerCount('SIGINT')).toBe(before + 1);
      // Ours is the last one added; run just it (the runner may have SIGINT handlers of its own),
      // as the once-wrapper Node calls, so a second Ctrl-C is Node's own again.
      (process.rawListeners('SIGINT').at(-1) as () => void)();
      expect(process.listenerCount('SIGINT')).toBe(before);
      return 'opened';
    });
    const login = { browser: true, json: false, options: {} };
    expect(await loginCommand(interrupted, 'linear', login)).toBe(1);
    expect(cancelled).toEqual(['f']);
    expect(waited).toBe(1);
    expect(process.listenerCount('SIGINT')).toBe(before);
  });

  it('--no-browser leaves the browser alone', async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const login = { browser: false, json: true, options: {} };
    expect(await loginCommand(api, 'linear', login)).toBe(0);
    expect(openInBrowser).not.toHaveBeenCalled();
  });
});
