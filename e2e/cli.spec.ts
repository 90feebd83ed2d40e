import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  addAgent,
  airlock as cli,
  newProfile,
  startServer,
  type RunningServer,
} from './helpers/airlock-server.js';
import { openPage } from './helpers/ui.js';

/** `airlock` as a user runs it (issue 2, items 5 and 8). */
const airlock = (args: string[]) => cli(null, args);
const newDataDir = () => newProfile().dataDir;

/** The user confirms, on the Tools page, the change the CLI is waiting for. */
async function confirmInPage(page: Page, server: RunningServer, summary: RegExp): Promise<void> {
  await openPage(page, server, '/tools');
  const change = page.getByTestId('policy-change').filter({ hasText: summary });
  await change.getByTestId('policy-change-confirm').click();
  await expect(change).toHaveCount(0);
}

const mcp = (url: string, token: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      },
    }),
  });

test('agent add --json prints one JSON object with name, token, mcpUrl and client setup', async () => {
  const dataDir = newDataDir();
  const { stdout } = await airlock([
    'agent',
    'add',
    'Claude Code',
    '--json',
    '--data-dir',
    dataDir,
  ]);
  expect(stdout.trim().split('\n')).toHaveLength(1);
  const out = JSON.parse(stdout);
  expect(out.name).toBe('Claude Code');
  expect(out.token).toMatch(/^alk_[A-Za-z0-9_-]{43}$/); // 256 bits
  expect(out.mcpUrl).toBe('http://127.0.0.1:47821/mcp');
  expect(out.setup.map((s: { client: string }) => s.client)).toEqual([
    'Claude Code',
    'Claude Desktop',
    'Cursor',
    'VS Code',
    'Codex',
    'Windsurf',
    'Gemini CLI',
    'Antigravity',
    'Zed',
    'Cline',
    'JetBrains AI Assistant',
  ]);
  const list = JSON.parse(
    (await airlock(['agent', 'list', '--json', '--data-dir', dataDir])).stdout,
  );
  expect(list).toMatchObject([{ name: 'Claude Code', hasToken: true }]);
  expect(JSON.stringify(list)).not.toContain(out.token);
  await expect(
    airlock(['agent', 'add', 'Claude Code', '--data-dir', dataDir]),
  ).rejects.toMatchObject({
    stderr: expect.stringMatching(/CONFLICT: An agent named "Claude Code" already exists/),
  });
  expect(readFileSync(join(dataDir, 'settings.json'), 'utf8')).not.toContain(out.token);
});

test('serve: one ready line, server.json, status, single instance, clean SIGTERM', async () => {
  const profile = newProfile();
  const dataDir = profile.dataDir;
  const server = await startServer(profile);
  expect(server).toMatchObject({ event: 'ready', mcpUrl: `http://127.0.0.1:${server.port}/mcp` });
  expect(server.controlUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=alc_/);
  const info = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8'));
  expect(info).toMatchObject({ url: server.url, mcpUrl: server.mcpUrl, pid: server.pid });
  expect(JSON.stringify(info)).not.toContain(server.controlToken);

  const status = JSON.parse((await airlock(['status', '--json', '--data-dir', dataDir])).stdout);
  expect(status).toMatchObject({ running: true, pid: server.pid, mcpUrl: server.mcpUrl });

  const second = await airlock(['serve', '--port', '0', '--data-dir', dataDir]).then(
    () => ({ code: 0, stderr: '' }),
    (e: { code: number; stderr: string }) => e,
  );
  expect(second.code).not.toBe(0);
  expect(second.stderr).toContain(`already running for this data directory (pid ${server.pid}`);

  expect(await server.stop()).toBe(0);
  expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
  await expect(airlock(['status', '--data-dir', dataDir])).rejects.toMatchObject({
    code: 1,
    stdout: expect.stringContaining('not running'),
  });
});

test('agent revoke against a running server stops the token at once', async () => {
  const profile = newProfile();
  const dataDir = profile.dataDir;
  const token = await addAgent(profile, 'doomed');
  const server = await startServer(profile);
  try {
    expect((await mcp(server.mcpUrl, token)).status).toBe(200);
    const { stdout } = await airlock(['agent', 'revoke', 'doomed', '--data-dir', dataDir]);
    expect(stdout).toContain('also on the running server');
    expect((await mcp(server.mcpUrl, token)).status).toBe(401);
  } finally {
    await server.stop();
  }
});

test('tools list / set: scripted policy changes, with confirmation for destructive tools', async ({
  page,
}) => {
  const profile = newProfile();
  const dataDir = profile.dataDir;
  const server = await startServer(profile);
  try {
    const tools = JSON.parse(
      (await airlock(['tools', 'list', '--json', '--data-dir', dataDir])).stdout,
    );
    expect(tools.find((t: { name: string }) => t.name === 'airlock_status')).toMatchObject({
      approval: 'auto',
      readOnly: true,
    });
    expect(tools.find((t: { name: string }) => t.name === 'test_block')).toMatchObject({
      approval: 'ask',
      destructive: true,
    });
    await expect(
      airlock(['tools', 'set', 'test_block', '--approval', 'auto', '--data-dir', dataDir]),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('CONFIRM_REQUIRED') });
    // Loosening from the CLI waits for the user's Confirm in Airlock's page (issue 17.7).
    const loosened = airlock([
      'tools',
      'set',
      'test_block',
      '--approval',
      'auto',
      '--confirm-destructive',
      '--data-dir',
      dataDir,
    ]);
    await confirmInPage(page, server, /test_block run without asking/);
    expect((await loosened).stderr).toContain("Waiting for you to confirm in Airlock's window");
    await airlock(['tools', 'set', 'test_echo', '--enabled', 'false', '--data-dir', dataDir]);
    const after = JSON.parse(
      (await airlock(['tools', 'list', '--json', '--data-dir', dataDir])).stdout,
    );
    expect(after.find((t: { name: string }) => t.name === 'test_block').approval).toBe('auto');
    expect(after.find((t: { name: string }) => t.name === 'test_echo').enabled).toBe(false);
    await expect(
      airlock(['tools', 'set', 'nope', '--approval', 'ask', '--data-dir', dataDir]),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('No tool named "nope"') });
    await expect(
      airlock(['tools', 'set', 'test_echo', '--approval', 'sometimes', '--data-dir', dataDir]),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('--approval must be auto or ask') });
  } finally {
    await server.stop();
  }
  // The settings survive a restart.
  const settings = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'));
  expect(settings.tools['test/test_block']).toEqual({ approval: 'auto' });
});

test('agent tools limits an agent to some tools and lifts the limit', async ({ page }) => {
  const profile = newProfile();
  await addAgent(profile, 'narrow');
  const server = await startServer(profile);
  try {
    const d = profile.dataDir;
    await airlock(['agent', 'tools', 'narrow', '--only', 'test_echo', '--data-dir', d]);
    const limited = JSON.parse(
      (await airlock(['tools', 'list', '--agent', 'narrow', '--json', '--data-dir', d])).stdout,
    );
    expect(
      limited.filter((t: { enabled: boolean }) => t.enabled).map((t: { name: string }) => t.name),
    ).toEqual(['test_echo']);
    const lifted = airlock(['agent', 'tools', 'narrow', '--all', '--data-dir', d]);
    await confirmInPage(page, server, /give agent "narrow" every tool/);
    await lifted;
    const all = JSON.parse(
      (await airlock(['tools', 'list', '--agent', 'narrow', '--json', '--data-dir', d])).stdout,
    );
    expect(all.filter((t: { enabled: boolean }) => t.enabled).length).toBeGreaterThan(1);
    await expect(airlock(['agent', 'tools', 'narrow', '--data-dir', d])).rejects.toMatchObject({
      stderr: expect.stringContaining('--only'),
    });
  } finally {
    await server.stop();
  }
});

test('bad usage gets a clear message and a non-zero exit', async () => {
  await expect(airlock(['frobnicate'])).rejects.toMatchObject({
    code: 2,
    stderr: expect.stringContaining('unknown command "frobnicate"'),
  });
  await expect(airlock(['serve', '--port', 'abc'])).rejects.toMatchObject({
    stderr: expect.stringContaining('--port must be 0–65535'),
  });
  await expect(
    airlock(['agent', 'add', '../etc', '--data-dir', newDataDir()]),
  ).rejects.toMatchObject({ stderr: expect.stringContaining('INVALID') });
});
