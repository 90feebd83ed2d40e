import { expect, test } from '@playwright/test';
import { runs } from './helpers/files.js';
import { callTool, textOf, type ToolResult } from './helpers/mcp-client.js';
import { card, controlApi, openApprovals } from './helpers/control.js';
import { marker, useAirlock } from './helpers/suite.js';

// Issue 3 item 4: a call waits a bounded time, then tells the agent to call
// again; repeats attach to the same request; one approval runs it once; later
// repeats get the stored outcome. Waits are shortened through settings.json.
test.describe.configure({ mode: 'serial' });
const airlock = useAirlock({
  settings: { approvals: { waitSeconds: 1, progressIntervalSeconds: 1 } },
});

test('three timed-out retries plus one approval: one request, one execution, then the stored outcome', async ({
  page,
}) => {
  const { server, agent, profile } = airlock();
  const api = controlApi(server);
  await openApprovals(page, server);
  const body = marker('retry');
  const args = { to: 'dave@example.com', body };

  for (let i = 0; i < 3; i++) {
    const waiting = await callTool(agent, 'test_send', args);
    expect(waiting.isError).toBe(true);
    expect(textOf(waiting)).toContain("Waiting for the user's approval in Airlock");
    expect(textOf(waiting)).toContain('Nothing has been sent or changed yet');
  }
  const pending = (await api.listPending()).filter((a) => a.arguments.body === body);
  expect(pending).toHaveLength(1);
  await expect(card(page, body)).toHaveCount(1);
  expect(runs(profile.counterFile, 'send', body)).toBe(0);

  // The fourth call waits longer than the test may run (300 s), so it is approved, not answered
  // "waiting", however slow the machine; its first progress notification proves it is attached
  // before the click.
  await api.updateSettings({ waitSeconds: 300 });
  let attached!: () => void;
  const isAttached = new Promise<void>((r) => (attached = r));
  const fourth = agent.client.callTool(
    { name: 'test_send', arguments: args },
    { timeout: 60_000, onprogress: () => attached() },
  ) as Promise<ToolResult>;
  await isAttached;
  expect((await api.listPending()).filter((a) => a.arguments.body === body)).toHaveLength(1);
  await card(page, body).getByRole('button', { name: 'Allow once' }).click();
  const result = await fourth;
  expect(result.isError).toBeFalsy();
  expect(textOf(result)).toBe(`sent to dave@example.com: ${body}`);
  expect(runs(profile.counterFile, 'send', body)).toBe(1);

  for (let i = 0; i < 2; i++) {
    const repeat = await callTool(agent, 'test_send', args);
    expect(repeat.isError).toBeFalsy();
    expect(textOf(repeat)).toContain('This call already ran once');
    expect(textOf(repeat)).toContain('It was not run again.');
    expect(textOf(repeat)).toContain(`sent to dave@example.com: ${body}`);
  }
  expect(runs(profile.counterFile, 'send', body)).toBe(1);
  expect((await api.getApproval(pending[0]!.id)).state).toBe('done');
});
