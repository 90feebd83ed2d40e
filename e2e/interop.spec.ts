import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect, test } from '@playwright/test';
import {
  addAgent,
  newProfile,
  ROOT,
  startServer,
  type RunningServer,
} from './helpers/airlock-server.js';
import { startAuthForwarder } from './helpers/auth-forwarder.js';

/**
 * Real MCP peers from npm against `airlock serve` (issue 2, "Must hold"):
 * the MCP Inspector CLI, mcp-remote bridging a stdio client, and the
 * conformance suite's server scenarios.
 */
const run = promisify(execFile);
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

let airlock: RunningServer;
let dataDir: string;
let token: string;

test.beforeAll(async () => {
  const profile = newProfile();
  dataDir = profile.dataDir;
  token = await addAgent(profile, 'interop');
  airlock = await startServer(profile);
});

test.afterAll(async () => {
  expect(await airlock.stop()).toBe(0);
  // No token created here may appear in any file of the data directory (logs included).
  const files = readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((d) =>
    d.isFile(),
  );
  for (const f of files) {
    const text = readFileSync(join(f.parentPath, f.name));
    expect(text.includes(token), `${f.name} contains the agent token`).toBe(false);
    expect(text.includes(airlock.controlToken), `${f.name} contains the control token`).toBe(false);
  }
  expect(airlock.stderr()).not.toContain(token);
});

test('MCP Inspector CLI lists tools and calls airlock_status with a bearer header', async () => {
  const common = [
    '--cli',
    airlock.mcpUrl,
    '--transport',
    'http',
    '--header',
    `Authorization: Bearer ${token}`,
  ];
  const list = await run(bin('mcp-inspector'), [...common, '--method', 'tools/list'], {
    timeout: 60_000,
  });
  expect(JSON.parse(list.stdout).tools.map((t: { name: string }) => t.name)).toContain(
    'airlock_status',
  );
  const call = await run(
    bin('mcp-inspector'),
    [...common, '--method', 'tools/call', '--tool-name', 'airlock_status'],
    { timeout: 60_000 },
  );
  const result = JSON.parse(call.stdout);
  expect(result.isError ?? false).toBe(false);
  expect(JSON.stringify(result.content)).toContain('Airlock');
});

test('MCP Inspector CLI without the header is refused', async () => {
  const out = await run(
    bin('mcp-inspector'),
    ['--cli', airlock.mcpUrl, '--transport', 'http', '--method', 'tools/list'],
    { timeout: 60_000 },
  ).then(
    () => 'succeeded',
    (e: { stderr?: string; stdout?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}`,
  );
  expect(out).not.toBe('succeeded');
  // The Inspector answers a 401 by offering OAuth sign-in, which it cannot do without a TTY.
  expect(out).toMatch(/auth_required|401|nauthori[sz]ed/i);
});

test('mcp-remote bridges a stdio client to the endpoint (the Claude Desktop setup)', async () => {
  const transport = new StdioClientTransport({
    command: bin('mcp-remote'),
    args: [airlock.mcpUrl, '--header', 'Authorization:${AIRLOCK_AUTH}', '--transport', 'http-only'],
    env: { ...(process.env as Record<string, string>), AIRLOCK_AUTH: `Bearer ${token}` },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-agent', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain('airlock_status');
  const result = await client.callTool({ name: 'airlock_status', arguments: {} });
  expect(JSON.stringify(result.content)).toContain('Airlock');
  await client.close();
});

for (const scenario of ['server-initialize', 'tools-list', 'ping', 'dns-rebinding-protection']) {
  test(`conformance suite: ${scenario}`, async () => {
    test.setTimeout(120_000);
    const forwarder = await startAuthForwarder(airlock.port, token);
    try {
      const outDir = newProfile().root;
      const child = spawn(
        bin('conformance'),
        ['server', '--url', forwarder.url, '--scenario', scenario],
        { cwd: outDir, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const code = await new Promise<number | null>((r) => child.once('exit', r));
      console.log(`conformance ${scenario}:\n${output.trim().split('\n').slice(-8).join('\n')}`);
      expect(code, output).toBe(0);
      expect(output).not.toMatch(/\bFAIL(ED)?\b(?!.*\b0\b)/);
    } finally {
      await forwarder.close();
    }
  });
}
