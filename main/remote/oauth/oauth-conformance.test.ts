import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { AIRLOCK_BIN as AIRLOCK, buildDist } from '../../../test-support/build.js';
import { tempDir } from '../../../test-support/temp-dir.js';

/**
 * Issue 10, "Must hold": the MCP conformance suite's client `auth/*`
 * scenarios for the 2025-11-25 spec pass with `airlock remote probe` as the
 * client. The suite's authorization servers approve without a person, so the
 * probe runs with --oauth-auto (a testing aid: it follows the authorization
 * redirects itself, into its own 127.0.0.1 listener, instead of a browser).
 * Everything else — discovery, registration, PKCE, resource, step-up — is the
 * code `airlock remote login` and the gateway use.
 *
 * The runner exits 0 even when checks fail, so its report is what is judged.
 */
const run = promisify(execFile);
const require = createRequire(import.meta.url);
const CONFORMANCE = require.resolve('@modelcontextprotocol/conformance/dist/index.js');

/** The secret of the scenario's pre-registered client, from its published context (MCP_CONFORMANCE_CONTEXT). */
const PRE_REGISTERED_SECRET = 'pre-registered-secret';

const SCENARIOS: [scenario: string, probeArgs: string][] = [
  ['auth/metadata-default', ''],
  ['auth/metadata-var1', ''],
  ['auth/metadata-var2', ''],
  ['auth/metadata-var3', ''],
  // The scenario's authorization server expects this Client ID Metadata Document URL as client_id.
  ['auth/basic-cimd', '--client-metadata-url https://conformance-test.local/client-metadata.json'],
  ['auth/scope-from-www-authenticate', ''],
  ['auth/scope-from-scopes-supported', ''],
  ['auth/scope-omitted-when-undefined', ''],
  ['auth/scope-step-up', '--call test-tool'],
  ['auth/scope-retry-limit', '--call test-tool'],
  ['auth/token-endpoint-auth-basic', ''],
  ['auth/token-endpoint-auth-post', ''],
  ['auth/token-endpoint-auth-none', ''],
  [
    'auth/pre-registration',
    '--client-id pre-registered-client --client-secret-env AIRLOCK_CONFORMANCE_CLIENT_SECRET',
  ],
];

/** Client auth scenarios of the suite that are not 2025-11-25 ones, and why they are not run here. */
const NOT_APPLICABLE: [scenario: string, why: string][] = [
  [
    'auth/2025-03-26-oauth-metadata-backcompat',
    '2025-03-26 spec: no protected-resource metadata. Airlock recognises an OAuth server by its RFC 9728 metadata (required since 2025-06-18); without it a 401 stays a plain 401.',
  ],
  [
    'auth/2025-03-26-oauth-endpoint-fallback',
    '2025-03-26 spec: no metadata at all, guessed /authorize and /token. The 2025-11-25 spec requires refusing an authorization server that does not advertise PKCE S256 in its metadata.',
  ],
  [
    'auth/resource-mismatch, auth/offline-access-scope, auth/offline-access-not-supported',
    'draft spec, not 2025-11-25 (they pass today: see docs/remote.md).',
  ],
  [
    'auth/client-credentials-jwt, auth/client-credentials-basic, auth/cross-app-access-complete-flow',
    'extensions for machine-to-machine and enterprise-managed grants; Airlock signs in a person through a browser.',
  ],
];

beforeAll(buildDist, 150_000);

describe('MCP conformance suite, client auth scenarios (2025-11-25), with `airlock remote probe --oauth-auto` as the client', () => {
  it('lists the auth scenarios that do not apply', () => {
    for (const [scenario, why] of NOT_APPLICABLE)
      process.stdout.write(`not run: ${scenario} — ${why}\n`);
    expect(NOT_APPLICABLE.length).toBeGreaterThan(0);
  });

  it.each(SCENARIOS)(
    '%s',
    async (scenario, probeArgs) => {
      const cwd = tempDir('airlock-conformance-auth-'); // results/ lands here
      // The suite splits --command on spaces, runs it through a shell and appends the server URL.
      const command =
        `${process.execPath} ${AIRLOCK} remote probe --oauth-auto ${probeArgs}`.trim();
      const { stdout, stderr } = await run(
        process.execPath,
        [CONFORMANCE, 'client', '--command', command, '--scenario', scenario, '--timeout', '30000'],
        {
          cwd,
          timeout: 90_000,
          env: { ...process.env, AIRLOCK_CONFORMANCE_CLIENT_SECRET: PRE_REGISTERED_SECRET },
        },
      ).catch((err: { stdout?: string; stderr?: string }) => ({
        stdout: err.stdout ?? '',
        stderr: err.stderr ?? '',
      }));
      const report = stdout + stderr;
      const passed = /Passed: (\d+)\/(\d+), 0 failed, 0 warnings/.exec(report);
      expect(report, report).toContain('OVERALL: PASSED');
      expect(
        passed && Number(passed[1]) === Number(passed[2]) && Number(passed[2]) > 0,
        report,
      ).toBe(true);
      process.stdout.write(`${scenario}: ${passed?.[0] ?? '?'}\n`);
    },
    120_000,
  );
});
