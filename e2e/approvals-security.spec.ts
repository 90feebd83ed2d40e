import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { mintOpenCode } from '../main/cli/socket-client.js';
import { filesContaining } from './helpers/files.js';
import { callTool, textOf } from './helpers/mcp-client.js';
import { controlApi, rpc, waitForPending } from './helpers/control.js';
import { marker, useAirlock } from './helpers/suite.js';

// Issue 3 item 8: the control API takes only the control token (an agent can
// never approve its own call), and that token never reaches an agent or a log.
test.describe.configure({ mode: 'serial' });
const airlock = useAirlock();

test('an agent token is refused by /api/rpc and /api/events; no or a wrong token gets 401', async () => {
  const { server, agentToken } = airlock();
  const denied = await rpc(server, agentToken, 'listPending');
  expect(denied.status).toBe(403);
  expect(denied.body.result).toBeUndefined();
  expect((await rpc(server, 'alc_not-the-token', 'listPending')).status).toBe(401);

  const events = await fetch(`${server.url}/api/events`, {
    headers: { authorization: `Bearer ${agentToken}` },
  });
  expect(events.status).toBe(403);
  await events.body?.cancel();
  const anonymous = await fetch(`${server.url}/api/events`);
  expect(anonymous.status).toBe(401);
  await anonymous.body?.cancel();
  const noAuth = await fetch(`${server.url}/api/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"method":"listPending"}',
  });
  expect(noAuth.status).toBe(401);

  // Nor can an agent decide: the request stays pending until the control token decides it.
  const body = marker('self-approve');
  const call = callTool(airlock().agent, 'test_send', { to: 'bob@example.com', body });
  const pending = await waitForPending(server, body);
  expect(
    (await rpc(server, agentToken, 'decide', [pending.id, { kind: 'allow_once' }])).status,
  ).toBe(403);
  expect((await controlApi(server).getApproval(pending.id)).state).toBe('pending');
  await controlApi(server).decide(pending.id, { kind: 'deny' });
  expect((await call).isError).toBe(true);

  // And the control token is not an agent token.
  const mcp = await fetch(server.mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${server.controlToken}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(mcp.status).toBe(401);
});

test('the page opened with an agent token says the link does not work', async ({ page }) => {
  const { server, agentToken } = airlock();
  await page.goto(`${server.url}/#token=${agentToken}`);
  await expect(
    page.getByRole('heading', { name: 'This approval link no longer works' }),
  ).toBeVisible();
  expect(await page.evaluate('sessionStorage.length')).toBe(0);
});

test('a one-time open code (airlock open) opens the page once, then says to run it again', async ({
  page,
  browser,
}) => {
  const { server, profile } = airlock();
  const info = JSON.parse(readFileSync(join(profile.dataDir, 'server.json'), 'utf8')) as {
    controlSocket: string;
  };
  const { code } = await mintOpenCode(info.controlSocket, server.controlToken);
  await page.goto(`${server.url}/#code=${code}`);
  await expect(page.getByTestId('run-state')).toHaveText('Running');
  expect(page.url()).not.toContain(code);
  await page.reload(); // the token is kept for this tab, as with #token=
  await expect(page.getByTestId('run-state')).toHaveText('Running');

  const other = await browser.newPage();
  await other.goto(`${server.url}/#code=${code}`);
  await expect(other.getByTestId('open-code-spent')).toHaveText(
    'This link was already used or has expired — run airlock open again.',
  );
  expect(await other.evaluate('sessionStorage.length')).toBe(0);
  await other.close();
});

test('an open code whose trade fails or is cut short by a reload says so, without retrying it', async ({
  page,
}) => {
  const { server, profile } = airlock();
  const info = JSON.parse(readFileSync(join(profile.dataDir, 'server.json'), 'utf8')) as {
    controlSocket: string;
  };
  // A failure other than the route's 410 OPEN_CODE_SPENT is not "already used".
  await page.route('**/api/open-code', (route) =>
    route.fulfill({ status: 502, body: 'bad gateway' }),
  );
  await page.goto(`${server.url}/#code=x&token=${server.controlToken}`);
  await expect(page.getByTestId('open-code-failed')).toHaveText(
    'Airlock did not open this link (HTTP 502). Run `airlock open` again.',
  );
  expect(page.url()).not.toContain('code=');
  expect(page.url()).not.toContain('token=');
  await page.unroute('**/api/open-code');

  // A reload while the code is being traded: the code is spent by being sent; the page says so.
  const { code } = await mintOpenCode(info.controlSocket, server.controlToken);
  const sent: string[] = [];
  let held = () => {};
  const reached = new Promise<void>((r) => (held = r));
  await page.route('**/api/open-code', (route) => {
    sent.push(route.request().postData() ?? '');
    held(); // never answered: the reload cuts it short
  });
  await page.goto('about:blank'); // a new load: a fragment-only change would not start the page
  await page.goto(`${server.url}/#code=${code}`);
  await reached;
  await page.reload();
  await expect(page.getByTestId('open-code-lost')).toContainText('run airlock open again', {
    ignoreCase: true,
  });
  expect(sent).toHaveLength(1);
  expect(await page.evaluate('sessionStorage.getItem("airlock.controlToken")')).toBeNull();
});

test('the page without a token says to open the control URL', async ({ page }) => {
  const { server } = airlock();
  await page.goto(`${server.url}/`);
  await expect(
    page.getByRole('heading', { name: 'Open Airlock from its control link' }),
  ).toBeVisible();
  await expect(page.getByTestId('no-token')).toContainText('airlock serve');
});

test('the control token is in no MCP response and in no log or file of the profile', async ({
  page,
}) => {
  const { server, agent, profile, agentToken } = airlock();
  // Traffic of every kind: list, auto call, status tool, denied and approved ask calls, the UI.
  await agent.client.listTools();
  await callTool(agent, 'test_echo', { text: 'hello' });
  await callTool(agent, 'airlock_status', {});
  const api = controlApi(server);
  for (const kind of ['deny', 'allow_once'] as const) {
    const body = marker(`secret-${kind}`);
    const call = callTool(agent, 'test_send', { to: 'bob@example.com', body });
    const pending = await waitForPending(server, body);
    await api.decide(pending.id, kind === 'deny' ? { kind, reason: 'checking secrets' } : { kind });
    await call;
  }
  await page.goto(server.controlUrl);
  await expect(page.getByTestId('run-state')).toHaveText('Running');
  expect(page.url()).not.toContain(server.controlToken);

  const received = agent.received();
  expect(received).toContain('sent to bob@example.com'); // the recorder did capture the traffic
  expect(received).not.toContain(server.controlToken);
  expect(textOf(await callTool(agent, 'airlock_status', {}))).not.toContain(server.controlToken);
  expect(server.stderr()).not.toContain(server.controlToken);
  expect(server.stderr()).not.toContain(agentToken);
  expect(filesContaining(profile.dataDir, server.controlToken)).toEqual([]);
  expect(filesContaining(profile.dataDir, agentToken)).toEqual([]);
});
