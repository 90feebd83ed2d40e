import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthForwarder } from '../../e2e/helpers/auth-forwarder.js';
import { conformanceUpstream } from '../../test-support/conformance-upstream.js';
import type { FakeUpstream } from '../../test-support/fake-upstream.js';
import { startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 14, "Must hold": the MCP conformance suite's server scenarios for
 * resources, prompts, completion and logging pass against Airlock, with an
 * upstream offering what the scenarios ask for behind it. The suite cannot
 * send a header, so a loopback forwarder adds the agent's bearer token.
 */
const run = promisify(execFile);
const require = createRequire(import.meta.url);
const CONFORMANCE = require.resolve('@modelcontextprotocol/conformance/dist/index.js');

const SCENARIOS = [
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'resources-subscribe',
  'resources-unsubscribe',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'completion-complete',
  'logging-set-level',
];

let t: RemoteTestApp;
let up: FakeUpstream;
let forwarder: Awaited<ReturnType<typeof startAuthForwarder>>;

beforeAll(async () => {
  up = conformanceUpstream();
  await up.start();
  t = await startRemoteApp();
  await t.app.control.addRemote({ name: 'conf', url: up.url });
  forwarder = await startAuthForwarder(Number(new URL(t.started.mcpUrl).port), t.token);
}, 60_000);

afterAll(async () => {
  await forwarder?.close();
  await t?.stop();
  await up?.stop();
});

describe('MCP conformance suite, server scenarios, against Airlock', () => {
  it.each(SCENARIOS)(
    '%s',
    async (scenario) => {
      const cwd = tempDir('airlock-conformance-server-');
      const { stdout, stderr } = await run(
        process.execPath,
        [CONFORMANCE, 'server', '--url', forwarder.url, '--scenario', scenario],
        { cwd, timeout: 60_000 },
      ).catch((err: { stdout?: string; stderr?: string }) => ({
        stdout: err.stdout ?? '',
        stderr: err.stderr ?? '',
      }));
      const report = stdout + stderr;
      const passed = /Passed: (\d+)\/(\d+), 0 failed/.exec(report);
      expect(
        passed && Number(passed[1]) === Number(passed[2]) && Number(passed[2]) > 0,
        report,
      ).toBe(true);
    },
    90_000,
  );
});
