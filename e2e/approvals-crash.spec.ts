import { expect, test } from '@playwright/test';
import { addAgent, newProfile, startServer, type RunningServer } from './helpers/airlock-server.js';
import { counterLines, touch, waitForLine } from './helpers/files.js';
import { callTool, connectAgent, textOf, type Agent } from './helpers/mcp-client.js';
import { card, controlApi, openApprovals } from './helpers/control.js';
import { marker } from './helpers/suite.js';

// Issue 3 item 5: a crash while `executing` becomes `unknown` ("may have been
// applied") on restart and is never re-sent on its own. The page stays open
// across the crash: it reconnects and refetches what it missed.
test('server killed while the approved call runs: after restart it is unknown and was not re-sent', async ({
  page,
}) => {
  const profile = newProfile();
  const token = await addAgent(profile, 'e2e-agent');
  const running: RunningServer[] = [];
  const agents: Agent[] = [];
  try {
    const first = await startServer(profile);
    running.push(first);
    const agent = await connectAgent(first.mcpUrl, token);
    agents.push(agent);
    await openApprovals(page, first);
    const id = marker('crash');
    const call = callTool(agent, 'test_block', { id }).catch((err: unknown) => err);
    // A second request that is still pending at the crash: durable, it must be listed again after the restart.
    const waitingBody = marker('survives');
    const waiting = callTool(agent, 'test_send', {
      to: 'bob@example.com',
      body: waitingBody,
    }).catch((err: unknown) => err);
    await expect(card(page, waitingBody)).toBeVisible();

    const c = card(page, id);
    await expect(c.getByTestId('approval-effect')).toHaveText('Run test_block');
    const approvalId = await c.getAttribute('data-approval-id');
    await c.getByRole('button', { name: 'Allow once' }).click();
    await waitForLine(profile.counterFile, (l) => l === `block-started ${id}`);
    const recent = page.getByTestId('recent-item').filter({ hasText: 'test_block' });
    await expect(recent).toHaveAttribute('data-state', 'executing');

    await first.kill();
    // The SDK client may keep retrying its broken SSE response stream until its own 60 s request
    // timeout; closing it ends the pending calls now. What they say does not matter here.
    await agent.close();
    await Promise.all([call, waiting]);
    // Whichever notices first: the event stream (reconnecting) or a status fetch (not reachable).
    await expect(page.getByTestId('run-state')).toHaveText(/Reconnecting…|Not reachable/);

    // Same port, so the open page reconnects to the new process.
    const second = await startServer(profile, { port: first.port });
    running.push(second);
    const approval = await controlApi(second).getApproval(approvalId!);
    expect(approval.state).toBe('unknown');
    expect(approval.arguments).toEqual({ id });

    await expect(page.getByTestId('run-state')).toHaveText('Running');
    await expect(recent).toHaveAttribute('data-state', 'unknown');
    await expect(recent).toContainText('may have been applied');
    await expect(card(page, waitingBody)).toBeVisible();
    await expect(card(page, id)).toHaveCount(0);

    // Even with the blocker released, nothing runs it again: not the restart, not a repeat of the call.
    touch(profile.releaseFile);
    const again = await connectAgent(second.mcpUrl, token);
    agents.push(again);
    const repeat = await callTool(again, 'test_block', { id });
    expect(repeat.isError).toBe(true);
    expect(textOf(repeat)).toContain('may or may not have been applied');
    expect(textOf(repeat)).toContain('will not send it again on its own');
    expect(counterLines(profile.counterFile)).toEqual([`block-started ${id}`]);
  } finally {
    for (const a of agents) await a.close();
    for (const s of running) await s.stop();
  }
});
