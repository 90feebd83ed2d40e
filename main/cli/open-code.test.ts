import { afterEach, describe, expect, it, vi } from 'vitest';
import { ControlError } from '../../common/contract/index.js';
import type { ServerInfo } from '../platform/instance.js';
import { openInBrowser, type Opener } from './browser.js';
import { browserUrl } from './open.js';

/**
 * What `airlock open` hands the browser (common/open-code.ts): a one-time code, asked for only
 * when a browser will be opened; a server too old to mint one gets today's URL with a note.
 */
const info = {
  url: 'http://127.0.0.1:7777',
  controlSocket: '/run/airlock.sock',
} as unknown as ServerInfo;
const TOKEN = 'alc_secret';
const stderr: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  stderr.length = 0;
});
const catchStderr = () =>
  vi
    .spyOn(process.stderr, 'write')
    .mockImplementation((s: string | Uint8Array) => (stderr.push(String(s)), true));

/** An opener on a desktop with a display, keeping what it was asked to open. */
function displayOpener(): { opened: string[]; opener: Opener } {
  const opened: string[] = [];
  const opener: Opener = {
    open: async (u) => void opened.push(u),
    env: { DISPLAY: ':0' },
    platform: 'linux',
  };
  return { opened, opener };
}

describe('the URL the browser gets', () => {
  it('a minted code, with the token going only to the socket', async () => {
    const asked: [string, string][] = [];
    const url = await browserUrl(info, TOKEN, async (path, token) => {
      asked.push([path, token]);
      return { code: 'c0de-_', expiresInMs: 60_000 };
    });
    expect(url).toBe('http://127.0.0.1:7777/#code=c0de-_');
    expect(asked).toEqual([['/run/airlock.sock', TOKEN]]);
  });

  it('a server that does not know the method: today’s #token= URL and a one-line note', async () => {
    catchStderr();
    const old = async () => {
      throw new ControlError('NOT_FOUND', 'Unknown control method mintOpenCode.');
    };
    expect(await browserUrl(info, TOKEN, old)).toBe(`${info.url}/#token=${TOKEN}`);
    expect(stderr.join('')).toMatch(/^airlock: this server predates one-time codes;[^\n]*\n$/);
  });

  it('no control socket in the instance file: no browser, never the token on its argv', async () => {
    // A current server whose socket could not start (another user owns /tmp/airlock-<uid>, or
    // squatted the Windows pipe name) publishes no socket: that must not force `#token=`.
    catchStderr();
    const { opened, opener } = displayOpener();
    const noSocket = { url: info.url } as ServerInfo;
    const mint = async () => ({ code: 'c', expiresInMs: 1 });
    expect(await openInBrowser(() => browserUrl(noSocket, TOKEN, mint), opener)).toBe('failed');
    expect(opened).toEqual([]);
    expect(stderr.join('')).not.toContain(TOKEN);
  });

  it('any other refusal opens nothing rather than the token', async () => {
    catchStderr();
    const { opened, opener } = displayOpener();
    const refused = async () => {
      throw new ControlError('INTERNAL', 'boom');
    };
    expect(await openInBrowser(() => browserUrl(info, TOKEN, refused), opener)).toBe('failed');
    expect(opened).toEqual([]);
  });

  it('no display: no code is minted at all', async () => {
    let minted = 0;
    const opener: Opener = { open: async () => {}, env: {}, platform: 'linux' };
    const mint = async () => (minted++, { code: 'c', expiresInMs: 1 });
    expect(await openInBrowser(() => browserUrl(info, TOKEN, mint), opener)).toBe('skipped');
    expect(minted).toBe(0);
  });
});
