import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  addAgent,
  newProfile,
  ROOT,
  startServer,
  type RunningServer,
} from './helpers/airlock-server.js';
import { controlApi, waitForPending } from './helpers/control.js';
import { marker } from './helpers/suite.js';

/**
 * A client of another make and language: e2e/fixtures/stdlib_mcp_client.py speaks Streamable
 * HTTP from the spec with Python's standard library only (its own HTTP/1.1 client and SSE
 * parser), for each 2025-era protocol version. What the TypeScript SDK's clients forgive or
 * share with Airlock's server (the same SDK) cannot hide a transport bug from it.
 */
const SCRIPT = join(ROOT, 'e2e', 'fixtures', 'stdlib_mcp_client.py');
const python = (() => {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return 'python3';
  } catch {
    return undefined;
  }
})();

let airlock: RunningServer;
let token: string;

test.beforeAll(async () => {
  const profile = newProfile();
  token = await addAgent(profile, 'python');
  airlock = await startServer(profile);
});

test.afterAll(async () => {
  expect(await airlock.stop()).toBe(0);
});

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
