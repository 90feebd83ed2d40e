import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { AIRLOCK_BIN, buildDist } from '../../test-support/build.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { agentClient } from '../../test-support/remote-app.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * `airlock remote …` end to end (issue 4, "Connections"). The CLI keeps
 * secrets in the OS keychain, so these run under scripts/with-keyring.sh
 * (which sets AIRLOCK_KEYRING_TEST=1).
 */
const KEYRING = process.env.AIRLOCK_KEYRING_TEST === '1';
const TOKEN = `cli_bearer_${Math.random().toString(36).slice(2)}${Date.now()}`;
const cleanup = cleanupAfterEach();

if (!KEYRING)
  console.warn(
    'remote CLI tests skipped: they need the OS keychain; run them with `bash scripts/with-keyring.sh npx vitest run main/remote`.',
  );

beforeAll(async () => {
  if (KEYRING) await buildDist();
}, 150_000);

function cli(
  args: string[],
  o: { stdin?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [AIRLOCK_BIN, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, AIRLOCK_TEST_X_TEAM: 'blue-team-42' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(o.stdin ?? '');
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

async function upstream(): Promise<FakeUpstream> {
  const u = new FakeUpstream({
    bearer: TOKEN,
    tools: [{ name: 'hello', annotations: { readOnlyHint: true } }],
  });
  await u.start();
  cleanup.push(() => u.stop());
  return u;
}

function filesWith(dir: string, needle: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) return filesWith(p, needle);
    // Regular files only: a running server's control socket cannot be read.
    return st.isFile() && readFileSync(p).includes(needle) ? [p] : [];
  });
}

describe.skipIf(!KEYRING)('airlock remote (CLI, OS keychain)', () => {
  it('add / list / refresh / remove without a running server; bad URLs refused; the token stays in the keychain', async () => {
    const up = await upstream();
    const dir = tempDir('airlock-cli-');
    const d = ['--data-dir', dir];
    const outputs: string[] = [];
    const run = async (args: string[], stdin?: string) => {
      const r = await cli([...args, ...d], stdin === undefined ? {} : { stdin });
      outputs.push(r.stdout, r.stderr);
      return r;
    };

    const added = await run(
      // Header values never on the command line (issue 17.8): from the environment.
      [
        'remote',
        'add',
        'svc',
        up.url,
        '--header-env',
        'X-Team=AIRLOCK_TEST_X_TEAM',
        '--bearer-stdin',
      ],
      `${TOKEN}\n`,
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(
      /Added "svc"\.\nsvc\t.*\tready\t1 tools\t\(token; headers: X-Team\)/,
    );

    const listed = await run(['remote', 'list', '--json']);
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { name: 'svc', hasToken: true, headerNames: ['X-Team'], state: 'ready', toolCount: 1 },
    ]);
    expect(
      up.requests.some(
        (r) =>
          r.headers.authorization === `Bearer ${TOKEN}` && r.headers['x-team'] === 'blue-team-42',
      ),
    ).toBe(true);

    for (const [url, msg] of [
      ['ftp://example.com/', /got ftp:/],
      ['http://user:pw@example.com/mcp', /user name or password/],
      ['not-a-url', /is not a URL/],
    ] as const) {
      const bad = await run(['remote', 'add', 'bad', url]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(msg);
    }

    expect((await run(['remote', 'refresh', 'svc'])).code).toBe(0);
    expect((await run(['remote', 'remove', 'svc'])).stdout).toMatch(/Removed "svc"/);
    expect(JSON.parse((await run(['remote', 'list', '--json'])).stdout)).toEqual([]);
    for (const o of outputs) expect(o).not.toContain(TOKEN);
    expect(filesWith(dir, TOKEN)).toEqual([]);
    expect(filesWith(dir, 'blue-team-42')).toEqual([]);
  }, 60_000);

  it('on a running server: a remote added from the CLI reaches agents without a restart', async () => {
    const up = await upstream();
    const dir = tempDir('airlock-cli-serve-');
    const serve = spawn(
      process.execPath,
      [AIRLOCK_BIN, 'serve', '--port', '0', '--data-dir', dir],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    cleanup.push(async () => {
      const gone = new Promise((r) => serve.once('exit', r));
      serve.kill('SIGTERM');
      await gone;
    });
    const ready = await new Promise<{ mcpUrl: string }>((resolve, reject) => {
      let buf = '';
      serve.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        const line = buf.split('\n').find((l) => l.includes('"event":"ready"'));
        if (line) resolve(JSON.parse(line) as { mcpUrl: string });
      });
      serve.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    const agent = await cli(['agent', 'add', 'bot', '--json', '--data-dir', dir]);
    const { token } = JSON.parse(agent.stdout) as { token: string };
    const c = await agentClient(ready.mcpUrl, token);
    cleanup.push(() => c.close());
    expect((await c.listTools()).tools.map((t) => t.name)).not.toContain('svc__hello');

    const added = await cli(['remote', 'add', 'svc', up.url, '--bearer-stdin', '--data-dir', dir], {
      stdin: TOKEN,
    });
    expect(added.code, added.stderr).toBe(0);
    expect((await c.listTools()).tools.map((t) => t.name)).toContain('svc__hello');
    const called = await c.callTool({ name: 'svc__hello', arguments: {} });
    expect(JSON.stringify(called)).toContain('hello ran');

    expect((await cli(['remote', 'remove', 'svc', '--data-dir', dir])).code).toBe(0);
    expect((await c.listTools()).tools.map((t) => t.name)).not.toContain('svc__hello');
  }, 60_000);
});
