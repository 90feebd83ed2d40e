import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  airlockBin,
  requireBuilt,
  runCli,
  startUntilReady,
  stop,
} from '../../test-support/cli-process.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';

/**
 * docs/security.md, "No credentials of a server URL": `airlock remote add NAME --url-stdin` — the URL is the secret (a per-user URL
 * of ordinary words no rule can tell from a slug): read from stdin, never the command line, and
 * kept whole in the vault; settings, `remote list` and the command's own output show only
 * scheme, host and port. The upstream is called on the URL exactly as given.
 */
describe('remote add --url-stdin', () => {
  let server: ChildProcess;
  const up = new FakeUpstream({ tools: [] });
  const dataDir = mkdtempSync(join(tmpdir(), 'airlock-urlstdin-'));
  const env = { ...process.env, AIRLOCK_VAULT_PASSPHRASE: 'test-passphrase' };
  const secret = `acme-${randomUUID().slice(0, 8)}-calendar`;

  beforeAll(async () => {
    requireBuilt();
    await up.start();
    ({ child: server } = await startUntilReady(
      process.execPath,
      [airlockBin, 'serve', '--port', '0', '--data-dir', dataDir],
      env,
    ));
  });
  afterAll(async () => {
    if (server) await stop(server);
    await up.stop();
  });

  it('keeps the URL off the command line and out of settings and every output', async () => {
    const origin = new URL(up.url).origin;
    const url = `${origin}/u/${secret}/mcp?user=alice`;
    const added = await runCli(
      ['remote', 'add', 'cal', '--url-stdin', '--data-dir', dataDir],
      env,
      `${url}\n`,
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const list = await runCli(['remote', 'list', '--json', '--data-dir', dataDir], env);
    expect(JSON.parse(list.stdout)).toMatchObject([
      { name: 'cal', url: `${origin}/***/***/***?user=***` },
    ]);
    for (const text of [
      added.stdout,
      list.stdout,
      readFileSync(join(dataDir, 'settings.json'), 'utf8'),
    ]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('alice');
    }
    expect(up.requests.length).toBeGreaterThan(0);
    expect(up.requests.every((r) => r.url === `/u/${secret}/mcp?user=alice`)).toBe(true);
  });

  it('remote update --url-stdin reads the new URL off the command line; it is shown masked', async () => {
    // No Airlock running on this data directory: a new URL (it lets more run) is refused for want
    // of a window to confirm it in, and the refusal quotes the URL.
    const alone = mkdtempSync(join(tmpdir(), 'airlock-urlstdin-alone-'));
    const origin = new URL(up.url).origin;
    const first = await runCli(
      ['remote', 'add', 'cal', '--url-stdin', '--data-dir', alone],
      env,
      `${origin}/u/${secret}/mcp\n`,
    );
    expect(first.code, first.stderr).toBe(0);
    const next = `acme-${randomUUID().slice(0, 8)}-calendar`;
    const updated = await runCli(
      ['remote', 'update', 'cal', '--url-stdin', '--data-dir', alone],
      env,
      `${origin}/u/${next}/mcp\n`,
    );
    expect(updated.stderr).toMatch(/no window to confirm this in/);
    expect(updated.stderr).toMatch(/credentials in its URL \(a path segment\)/);
    for (const text of [
      updated.stdout,
      updated.stderr,
      readFileSync(join(alone, 'settings.json'), 'utf8'),
    ])
      expect(text).not.toContain(next);
    const both = await runCli(
      ['remote', 'update', 'cal', '--url', `${origin}/x`, '--url-stdin', '--data-dir', alone],
      env,
      `${origin}/y\n`,
    );
    expect(both.code).not.toBe(0);
    expect(both.stderr).toMatch(/--url or --url-stdin/);
  });

  it('cannot share stdin with --bearer-stdin, and takes no URL argument besides', async () => {
    const both = await runCli(
      ['remote', 'add', 'x', '--url-stdin', '--bearer-stdin', '--data-dir', dataDir],
      env,
      'https://h/mcp\n',
    );
    expect(both.code).not.toBe(0);
    expect(both.stderr).toMatch(/--url-stdin reads standard input/);
    const extra = await runCli(
      ['remote', 'add', 'x', 'https://h/mcp', '--url-stdin', '--data-dir', dataDir],
      env,
      'https://h/mcp\n',
    );
    expect(extra.code).not.toBe(0);
  });
});
