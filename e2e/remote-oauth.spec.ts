import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, test, type Page } from '@playwright/test';
import type { RemoteView } from '../common/contract/index.js';
import { OAuthUpstream } from '../test-support/oauth-upstream.js';
import { KeyringVault } from '../main/platform/vault/keyring-vault.js';
import {
  addAgent,
  airlock,
  newProfile,
  ROOT,
  startServer,
  type Profile,
} from './helpers/airlock-server.js';
import { filesContaining } from './helpers/files.js';
import { callTool, connectAgent, textOf, type Agent } from './helpers/mcp-client.js';

/**
 * Issue 10, "Must hold", end to end: `airlock serve` with the real keychain
 * (run under scripts/with-keyring.sh), a local OAuth-protected MCP server
 * (SDK bearer middleware + oauth2-mock-server), Chromium on the authorization
 * URL landing on Airlock's 127.0.0.1 listener, an agent using the server's
 * tools through Airlock, a silent refresh that carries `resource`, a revoked
 * grant that turns into "sign-in required" and a clear tool error, and a
 * logout that calls the revocation endpoint. No token in files or output.
 */
test.skip(
  !process.env['AIRLOCK_KEYRING_TEST'],
  'needs a real Secret Service: run under `bash scripts/with-keyring.sh npx playwright test e2e/remote-oauth.spec.ts`',
);

let up: OAuthUpstream;
test.beforeEach(async () => {
  up = new OAuthUpstream(
    [
      { name: 'whoami', annotations: { readOnlyHint: true } },
      { name: 'notes', annotations: { readOnlyHint: true } },
    ],
    { scopesSupported: ['notes:read'] },
  );
  await up.start();
});
test.afterEach(async () => up.stop());

interface Login {
  authUrl: Promise<string>;
  exit: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** `airlock remote login NAME --no-browser` as a user runs it; the URL is read from its output. */
function login(p: Profile, name: string): Login {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'bin', 'airlock.js'),
      'remote',
      'login',
      name,
      '--no-browser',
      '--data-dir',
      p.dataDir,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout, stderr })),
  );
  const authUrl = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      stdout += line + '\n';
      if (line.trim().startsWith(`${up.issuer}/authorize?`)) resolve(line.trim());
    });
    void exit.then(() =>
      reject(new Error(`airlock remote login exited before printing a URL:\n${stdout}\n${stderr}`)),
    );
  });
  return { authUrl, exit };
}

/** Chromium follows the authorization URL; the mock approves and redirects to Airlock's loopback listener. */
async function signInWithChromium(
  page: Page,
  p: Profile,
): Promise<{ stdout: string; stderr: string }> {
  const run = login(p, 'secure');
  const authUrl = new URL(await run.authUrl);
  expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authUrl.searchParams.get('resource')).toBe(up.url);
  await page.goto(authUrl.href);
  await expect(page.getByRole('heading', { name: 'Signed in' })).toBeVisible();
  await expect(page.getByText('You can close this tab')).toBeVisible();
  expect(new URL(page.url()).hostname).toBe('127.0.0.1');
  const done = await run.exit;
  expect(done.code, done.stderr).toBe(0);
  expect(done.stdout).toContain('Signed in to "secure" (ready, 2 tools).');
  return { stdout: done.stdout, stderr: done.stderr };
}

async function listRemotes(p: Profile): Promise<RemoteView[]> {
  return JSON.parse(
    (await airlock(p, ['remote', 'list', '--json', '--data-dir', p.dataDir])).stdout,
  ) as RemoteView[];
}

test('sign in with Chromium, use the tools, silent refresh with resource, revoked grant, logout revokes; no token in files or output', async ({
  page,
}) => {
  const profile = newProfile('airlock-e2e-oauth-');
  const agentToken = await addAgent(profile, 'e2e');
  const server = await startServer(profile);
  const outputs: string[] = [];
  let agent: Agent | undefined;
  try {
    const added = await airlock(profile, [
      'remote',
      'add',
      'secure',
      up.url,
      '--data-dir',
      profile.dataDir,
    ]);
    expect(added.stdout).toContain('error: sign-in required');
    expect((await listRemotes(profile))[0]).toMatchObject({
      state: 'error',
      detail: 'sign-in required',
      auth: { signedIn: false, signInRequired: 'sign-in required' },
    });

    up.expireNextIn(3); // the first access token is short-lived: the agent's calls below outlive it
    outputs.push(...Object.values(await signInWithChromium(page, profile)));
    const vault = new KeyringVault({ dataDir: profile.dataDir });
    const stored = JSON.parse((await vault.get('remote:secure:oauth')) ?? '{}') as {
      tokens?: { access_token: string; refresh_token: string };
    };
    expect(up.issued.has(stored.tokens!.access_token)).toBe(true);
    expect(up.issued.has(stored.tokens!.refresh_token)).toBe(true);
    expect(up.registrations).toHaveLength(1);

    agent = await connectAgent(server.mcpUrl, agentToken);
    const tools = (await agent.client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['secure__whoami', 'secure__notes']));
    expect(textOf(await callTool(agent, 'secure__whoami', {}))).toContain(
      'whoami ran with scopes [notes:read]',
    );

    // Expiry: every call succeeds; Airlock renews the token once, ahead of expiry, with `resource`.
    await expect
      .poll(
        async () => {
          const r = await callTool(agent!, 'secure__whoami', {});
          expect(r.isError, textOf(r)).toBeFalsy();
          return up.refreshRequests().length;
        },
        { intervals: [250] },
      )
      .toBe(1);
    expect(up.refreshRequests()[0]).toMatchObject({
      grant_type: 'refresh_token',
      resource: up.url,
    });
    expect(up.tokenRequests.every((r) => r.resource === up.url)).toBe(true);

    // The user revokes Airlock at the provider: the agent gets a clear error, the server shows why.
    up.revokeEverything();
    const refused = await callTool(agent, 'secure__notes', {});
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(
      'sign-in required: the authorization server refused to renew the sign-in (invalid_grant)',
    );
    expect(textOf(refused)).toContain('airlock remote login secure');
    expect((await listRemotes(profile))[0]).toMatchObject({
      state: 'error',
      detail:
        'sign-in required: the authorization server refused to renew the sign-in (invalid_grant)',
      toolCount: 0,
    });

    outputs.push(...Object.values(await signInWithChromium(page, profile)));
    expect(textOf(await callTool(agent, 'secure__notes', {}))).toContain('notes ran');

    // Logout: revocation endpoint called with the refresh token, tools gone, keychain entry without tokens.
    const { refresh_token: refreshToken } = JSON.parse((await vault.get('remote:secure:oauth'))!)
      .tokens as { refresh_token: string };
    const out = await airlock(profile, [
      'remote',
      'logout',
      'secure',
      '--data-dir',
      profile.dataDir,
    ]);
    outputs.push(out.stdout, out.stderr);
    expect(out.stdout).toContain(
      'Signed out of "secure": its tokens are gone from the keychain and the server revoked them.',
    );
    expect(up.revocations[0]).toEqual({ token: refreshToken, token_type_hint: 'refresh_token' });
    expect((await agent.client.listTools()).tools.map((t) => t.name)).not.toContain(
      'secure__whoami',
    );
    expect(JSON.parse((await vault.get('remote:secure:oauth'))!).tokens).toBeUndefined();
    const listed = await airlock(profile, [
      'remote',
      'list',
      '--json',
      '--data-dir',
      profile.dataDir,
    ]);
    outputs.push(listed.stdout, added.stdout);

    expect(up.issued.size).toBeGreaterThanOrEqual(6);
    for (const s of up.issued) {
      expect(
        filesContaining(profile.dataDir, s),
        'a token is in a file of the data directory',
      ).toEqual([]);
      for (const o of [...outputs, server.stdout(), server.stderr(), agent.received()])
        expect(o.includes(s), 'a token was printed or sent to the agent').toBe(false);
    }
  } finally {
    await agent?.close();
    await server.stop();
  }
});

test('without a running server the CLI signs in by itself; probe reports "sign-in required" and --oauth-auto signs in', async ({
  page,
}) => {
  const profile = newProfile('airlock-e2e-oauth-cli-');
  await airlock(profile, ['remote', 'add', 'secure', up.url, '--data-dir', profile.dataDir]);
  // No `airlock serve`: the login command runs the core in-process, listener included.
  const done = await signInWithChromium(page, profile);
  const vault = new KeyringVault({ dataDir: profile.dataDir });
  const stored = JSON.parse((await vault.get('remote:secure:oauth')) ?? '{}') as {
    tokens?: { access_token: string };
  };
  expect(up.issued.has(stored.tokens!.access_token)).toBe(true);
  expect((await listRemotes(profile))[0]).toMatchObject({
    state: 'ready',
    toolCount: 2,
    auth: { signedIn: true, renews: true, client: 'dynamic' },
  });

  const probe = await airlock(null, ['remote', 'probe', up.url]).catch(
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
  expect((probe as { code?: number }).code).toBe(1);
  expect(probe.stderr).toContain('probe failed: sign-in required');
  const auto = await airlock(null, ['remote', 'probe', '--oauth-auto', '--call', 'whoami', up.url]);
  expect(auto.stdout).toContain('whoami ran with scopes [notes:read]');
  for (const s of up.issued) {
    expect(filesContaining(profile.dataDir, s)).toEqual([]);
    for (const o of [done.stdout, done.stderr, auto.stdout, auto.stderr])
      expect(o.includes(s), 'a token was printed').toBe(false);
  }
});
