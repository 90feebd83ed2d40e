import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  addAgent,
  airlock as cli,
  newProfile,
  ROOT,
  startServer,
  type Profile,
  type RunningServer,
} from './helpers/airlock-server.js';
import { controlApi, waitForPending } from './helpers/control.js';
import { callTool, connectAgent, textOf } from './helpers/mcp-client.js';
import { marker } from './helpers/suite.js';

/**
 * Peers of another make and language, written from the spec with Python's standard library only:
 * e2e/fixtures/stdlib_mcp_client.py (its own HTTP/1.1 client and SSE parser) as an agent on each
 * 2025-era protocol version, and e2e/fixtures/stdlib_mcp_server.py as an upstream answering the
 * way hand-written servers do (HTTP/1.0 with close-delimited JSON; or chunked event streams cut
 * mid-line, with comments, CRLF and multi-line data). What the TypeScript SDK forgives or shares
 * with Airlock (the same SDK on both ends) cannot hide a transport bug from them.
 */
const SCRIPT = join(ROOT, 'e2e', 'fixtures', 'stdlib_mcp_client.py');
const SERVER = join(ROOT, 'e2e', 'fixtures', 'stdlib_mcp_server.py');
const python = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return 'python3';
  } catch {
    return undefined;
  }
})();

let airlock: RunningServer;
let profile: Profile;
let token: string;
const upstreams: ChildProcess[] = [];

test.beforeAll(async () => {
  profile = newProfile();
  token = await addAgent(profile, 'python');
  airlock = await startServer(profile);
});

test.afterAll(async () => {
  for (const u of upstreams) u.kill();
  expect(await airlock.stop()).toBe(0);
});

/** The Python upstream in `mode`, on a free loopback port; resolves with its /mcp URL. */
function startUpstream(mode: string): Promise<string> {
  const child = spawn(python!, [SERVER, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  upstreams.push(child);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (l) => {
      const port = /^LISTENING (\d+)$/.exec(l)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}/mcp`);
      else reject(new Error(`unexpected: ${l}`));
    });
    child.once('exit', (code) => reject(new Error(`python upstream exited ${code}`)));
  });
}

function runClient(version: string, mark?: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      python!,
      [SCRIPT, airlock.mcpUrl, token, version, ...(mark ? [mark] : [])],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
  test(`a Python stdlib client on ${version}: session, tools, errors, batch, GET stream, DELETE`, async () => {
    test.skip(!python, 'python3 is not installed (.ci/run installs it)');
    const r = await runClient(version);
    expect(r.out).toContain('ALL OK');
    expect(r.code).toBe(0);
  });
}

test('a Python stdlib client gets the answer to a call that waited for the user', async () => {
  test.skip(!python, 'python3 is not installed (.ci/run installs it)');
  const mark = marker('py');
  const client = runClient('2025-11-25', mark);
  const pending = await waitForPending(airlock, mark);
  await controlApi(airlock).decide(pending.id, { kind: 'allow_once' });
  const r = await client;
  expect(r.out).toContain('ok tools/call test_send answered after approval');
  expect(r.out).toContain('ALL OK');
  expect(r.code).toBe(0);
});

for (const mode of ['json10', 'sse11']) {
  test(`a Python stdlib upstream (${mode}) through Airlock: tools listed, calls answered, a side effect approved`, async () => {
    test.skip(!python, 'python3 is not installed (.ci/run installs it)');
    const name = `py${mode}`;
    await cli(profile, [
      'remote',
      'add',
      name,
      await startUpstream(mode),
      '--data-dir',
      profile.dataDir,
    ]);
    const agent = await connectAgent(airlock.mcpUrl, token);
    try {
      const { tools } = await agent.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining([`${name}__echo`, `${name}__shout`]),
      );
      // Several calls in a row: a kept-alive socket reused (sse11) or a new one each time (json10).
      for (const text of ['one', 'dös ✓', 'three'])
        expect(textOf(await callTool(agent, `${name}__echo`, { text }))).toContain(text);
      // No annotations: a possible side effect, so it waits for the user.
      const mark = marker('shout');
      const call = callTool(agent, `${name}__shout`, { text: mark });
      const pending = await waitForPending(airlock, mark);
      await controlApi(airlock).decide(pending.id, { kind: 'allow_once' });
      expect(textOf(await call)).toContain(mark.toUpperCase());
    } finally {
      await agent.close();
    }
  });
}
