import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { AIRLOCK_BIN as AIRLOCK, buildDist } from '../../test-support/build.js';
import { tempDir } from '../../test-support/temp-dir.js';

/**
 * Issue 4, "Must hold": the MCP conformance suite's client scenarios pass
 * with `airlock remote probe` (the gateway's own client code) as the client
 * under test. The suite appends the scenario server's URL to the command.
 * Scenarios that need a tool call get it from --call; sse-retry checks the
 * SDK transport's resumption (Last-Event-ID, `retry:` timing) through it.
 */
const run = promisify(execFile);
const require = createRequire(import.meta.url);
const CONFORMANCE = require.resolve('@modelcontextprotocol/conformance/dist/index.js');

const SCENARIOS: [scenario: string, probeArgs: string][] = [
  ['initialize', ''],
  ['tools_call', `--call add_numbers --args '{"a":2,"b":3}'`],
  ['sse-retry', '--call test_reconnection'],
  // Issue 14: the probe (the gateway's client code) answers a form elicitation with its defaults.
  [
    'elicitation-sep1034-client-defaults',
    '--call test_client_elicitation_defaults --elicit-defaults',
  ],
];

beforeAll(buildDist, 150_000);

describe('MCP conformance suite, client scenarios, with `airlock remote probe` as the client', () => {
  it.each(SCENARIOS)(
    '%s',
    async (scenario, probeArgs) => {
      const cwd = tempDir('airlock-conformance-'); // results/ lands here
      // The suite splits --command on spaces and runs it through a shell.
      const command = `${process.execPath} ${AIRLOCK} remote probe ${probeArgs}`.trim();
      const { stdout, stderr } = await run(
        process.execPath,
        [CONFORMANCE, 'client', '--command', command, '--scenario', scenario, '--timeout', '30000'],
        {
          cwd,
          timeout: 90_000,
        },
      ).catch((err: { stdout?: string; stderr?: string }) => ({
        stdout: err.stdout ?? '',
        stderr: err.stderr ?? '',
      }));
      const report = stdout + stderr;
      const passed = /Passed: (\d+)\/(\d+), 0 failed/.exec(report);
      expect(report, report).toContain('OVERALL: PASSED');
      expect(report).not.toContain('CLIENT EXITED WITH ERROR');
      expect(
        passed && Number(passed[1]) === Number(passed[2]) && Number(passed[2]) > 0,
        report,
      ).toBe(true);
    },
    120_000,
  );
});
