import { beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../test-support/probe-process.js';

/**
 * Issue 2 (cold start ≤ 500 ms, idle RSS ≤ 100 MB): the Google libraries load
 * on first use (main/google/lazy.ts), never at start. Checked on the built app
 * (npm test builds before it runs the tests) in a fresh process, because this
 * process has loaded half of node_modules already; lazy-load.probe.mjs says how
 * packages are observed.
 */
const LAZY = [
  '@googleapis/gmail',
  '@googleapis/calendar',
  'googleapis-common',
  'gaxios',
  'google-auth-library',
  'nodemailer',
  'turndown',
  '@joplin/turndown-plugin-gfm',
  'iconv-lite',
  'mammoth',
  'unpdf',
  // Calendar's times; its module loads once an account is connected (main/google/lazy-source.ts).
  'luxon',
];

interface Probe {
  atStart: string[];
  afterUse: string[];
  read: { isError: boolean; text: string };
  sent: { isError: boolean; text: string };
  calendars: { isError: boolean; text: string };
  authUrl: string;
  pdf: { ok: boolean; reason?: string };
  docx: { ok: boolean; reason?: string };
}

let probe: Probe;
beforeAll(async () => {
  probe = await runProbe<Probe>(
    new URL('./lazy-load.probe.mjs', import.meta.url),
    new URL('../../dist/main/google/lazy.js', import.meta.url),
  );
}, 60_000);

describe('Google libraries load on first use (issue 2)', () => {
  it('are not loaded when the app has started with no Google account', () => {
    // The hook does see packages: the ones start-up needs are there. (The MCP server SDK is not:
    // it loads with the first /mcp request, main/app/lazy-start.test.ts.)
    expect(probe.atStart).toEqual(expect.arrayContaining(['better-sqlite3']));
    // zod neither: settings and token bundles are read with main/platform/shape.ts (issue 20).
    expect(probe.atStart).not.toContain('zod');
    expect(LAZY.filter((p) => probe.atStart.includes(p))).toEqual([]);
    // The CLI's browser opener (main/cli/browser.ts) imports `open` only when it opens one.
    expect(probe.atStart).not.toContain('open');
    // Nor is the MCP client SDK while the profile has no remote server (main/remote/remote-loader.ts).
    expect(probe.atStart).not.toContain('@modelcontextprotocol/client');
  });

  it('load when Gmail, Calendar, OAuth and attachments are used, and the tools work', () => {
    expect(LAZY.filter((p) => !probe.afterUse.includes(p))).toEqual([]);
    expect(probe.read).toMatchObject({
      isError: false,
      text: expect.stringContaining('Hello **world**'),
    });
    expect(probe.sent).toMatchObject({
      isError: false,
      text: expect.stringContaining('Message id sent-1'),
    });
    expect(probe.calendars).toMatchObject({
      isError: false,
      text: expect.stringContaining('id primary'),
    });
    expect(new URL(probe.authUrl).searchParams.get('code_challenge_method')).toBe('S256');
    expect(probe.pdf).toMatchObject({
      ok: false,
      reason: expect.stringContaining('PDF file could not be read'),
    });
    expect(probe.docx).toMatchObject({
      ok: false,
      reason: expect.stringContaining('DOCX file could not be read'),
    });
  });
});
