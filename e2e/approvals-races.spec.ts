import { expect, test } from '@playwright/test';
import { runs } from './helpers/files.js';
import { callTool, textOf } from './helpers/mcp-client.js';
import { card, controlApi, openApprovals, rpc, waitForPending } from './helpers/control.js';
import { marker, useAirlock } from './helpers/suite.js';

// Issue 3 "Must hold": double-click, two concurrent approvals and
// approve-after-deny give exactly one execution or none. Executions are
// counted by the test tool source (e2e/fixtures/test-sources.mjs).
test.describe.configure({ mode: 'serial' });
const airlock = useAirlock();
const TO = 'bob@example.com';

test('double-click on Allow runs the call once', async ({ page }) => {
  const { server, agent, profile } = airlock();
  await openApprovals(page, server);
  const body = marker('dblclick');
  const call = callTool(agent, 'test_send', { to: TO, body });
  await card(page, body).getByRole('button', { name: 'Allow once' }).dblclick();
  expect(textOf(await call)).toBe(`sent to ${TO}: ${body}`);
  expect(runs(profile.counterFile, 'send', body)).toBe(1);
});

test('two pages approving at the same moment run the call once', async ({ page, context }) => {
  const { server, agent, profile } = airlock();
  const other = await context.newPage();
  await openApprovals(page, server);
  await openApprovals(other, server);
  const body = marker('two-pages');
  const call = callTool(agent, 'test_send', { to: TO, body });
  // A card takes decisions once it has been on screen for a moment (issue 16 item 3).
  await expect(card(page, body)).toHaveAttribute('data-armed', 'true');
  await expect(card(other, body)).toHaveAttribute('data-armed', 'true');
  // Click in both pages in the same tick (no actionability wait that would let one see the other's result).
  // (A string, not a function: this project's type-check has no DOM lib.)
  const click = (p: typeof page) =>
    p.evaluate(`[...document.querySelectorAll('[data-testid="approval-card"]')]
      .find((c) => c.textContent.includes(${JSON.stringify(body)}))
      ?.querySelector('[data-testid="allow-once"]')?.click()`);
  await Promise.all([click(page), click(other)]);
  expect(textOf(await call)).toBe(`sent to ${TO}: ${body}`);
  await expect(card(page, body)).toHaveCount(0);
  await expect(card(other, body)).toHaveCount(0);
  expect(runs(profile.counterFile, 'send', body)).toBe(1);
});

test('concurrent API decisions: exactly one wins, and approve-after-deny changes nothing', async () => {
  const { server, agent, profile } = airlock();
  const body = marker('race');
  const call = callTool(agent, 'test_send', { to: TO, body });
  const pending = await waitForPending(server, body);
  const answers = await Promise.all(
    [
      { kind: 'allow_once' },
      { kind: 'allow_once' },
      { kind: 'always_allow', confirm: true },
      { kind: 'allow_once' },
    ].map((d) => rpc(server, server.controlToken, 'decide', [pending.id, d])),
  );
  expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
  for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error).toBe('CONFLICT');
  expect(textOf(await call)).toBe(`sent to ${TO}: ${body}`);
  expect(runs(profile.counterFile, 'send', body)).toBe(1);

  // always_allow may have won the race: go back to "ask" for the next test.
  await controlApi(server).setToolPolicy('test_send', { approval: 'ask', agent: 'e2e-agent' });

  const denied = marker('deny-then-allow');
  const second = callTool(agent, 'test_send', { to: TO, body: denied });
  const req = await waitForPending(server, denied);
  expect(
    (await rpc(server, server.controlToken, 'decide', [req.id, { kind: 'deny', reason: 'no' }]))
      .status,
  ).toBe(200);
  const late = await rpc(server, server.controlToken, 'decide', [req.id, { kind: 'allow_once' }]);
  expect(late.status).toBe(409);
  expect(late.body.message).toContain('already denied');
  expect((await second).isError).toBe(true);
  expect(runs(profile.counterFile, 'send', denied)).toBe(0);
  expect((await controlApi(server).getApproval(req.id)).state).toBe('denied');
});

test('approve-after-deny from a second page: the late page shows the request is gone, nothing ran', async ({
  page,
  context,
}) => {
  const { server, agent, profile } = airlock();
  const other = await context.newPage();
  await openApprovals(page, server);
  await openApprovals(other, server);
  const body = marker('deny-vs-allow');
  const call = callTool(agent, 'test_send', { to: TO, body });
  const c = card(page, body);
  await c.getByRole('button', { name: 'Deny' }).click();
  await c.getByRole('button', { name: 'Deny request' }).click();
  expect((await call).isError).toBe(true);
  // The other page learns of the denial by event and drops the request.
  await expect(card(other, body)).toHaveCount(0);
  expect(runs(profile.counterFile, 'send', body)).toBe(0);
});
