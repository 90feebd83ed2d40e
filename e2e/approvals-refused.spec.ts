import { expect, test } from '@playwright/test';
import { FakeUpstream } from '../test-support/fake-upstream.js';
import { card, controlApi, openApprovals, waitForPending } from './helpers/control.js';
import { callTool, textOf } from './helpers/mcp-client.js';
import { marker, useAirlock } from './helpers/suite.js';

// A card open on the headless page while its tool changes (ApprovalView.refused, sent again on
// the registry's change): it says why before anything is pressed, its allows are off, the
// keyboard's allows say why and send nothing, and a form already open says so too. The tool is
// a remote server's, changed by the server (tools/list_changed), as in real use.
test.describe.configure({ mode: 'serial' });
const airlock = useAirlock();

const NOTE = {
  name: 'post_note',
  description: 'Posts a note.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
};

test('the tool changes under an open card: the reason shows, allows are off (keys too), Deny works', async ({
  page,
}) => {
  const { server, agent } = airlock();
  const api = controlApi(server);
  const upstream = new FakeUpstream({ name: 'notes', tools: [NOTE] });
  await upstream.start();
  try {
    await api.addRemote({ name: 'notes', url: upstream.url });
    let tool = '';
    await expect
      .poll(async () => {
        const names = (await agent.client.listTools()).tools.map((t) => t.name);
        tool = names.find((n) => n.endsWith('post_note')) ?? '';
        return tool;
      })
      .not.toBe('');
    await openApprovals(page, server);
    const text = marker('refused');
    const pending = waitForPending(server, text);
    const call = callTool(agent, tool, { text });
    const approval = await pending;
    const c = card(page, text);
    await expect(c).toHaveAttribute('data-armed', 'true');
    await expect(c.getByTestId('allow-refused')).toHaveCount(0);

    // The edit form is open when the server changes the tool's input schema.
    await c.getByTestId('edit-allow').click();
    await expect(c.getByTestId('edit-form')).toBeVisible();
    await upstream.setTools([
      { ...NOTE, inputSchema: { type: 'object', properties: { text: { type: 'array' } } } },
    ]);
    await expect(c.getByTestId('edit-refused')).toContainText('changed since this request');
    await expect(c.getByTestId('edit-submit')).toBeDisabled();
    await c.getByRole('button', { name: 'Cancel' }).click();

    await expect(c.getByTestId('allow-refused')).toContainText('changed since this request');
    for (const id of ['allow-once', 'always-allow', 'edit-allow'])
      await expect(c.getByTestId(id)).toBeDisabled();
    await expect(c.getByTestId('deny')).toBeEnabled();

    // The keyboard's allows are refused with the reason; nothing is sent, no form opens.
    await c.focus();
    await page.keyboard.press('Control+Enter');
    await expect(c.getByTestId('decision-tip')).toContainText('changed since this request');
    await page.keyboard.press('e');
    await page.keyboard.press('Shift+A');
    await expect(c.getByTestId('edit-form')).toHaveCount(0);
    await expect(page.getByTestId('grant-dialog')).not.toBeVisible();
    expect((await api.getApproval(approval.id)).state).toBe('pending');

    await c.getByTestId('deny').click();
    await c.getByRole('button', { name: 'Deny request' }).click();
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/denied/i);
    expect(upstream.calls).toEqual([]);
  } finally {
    await upstream.stop();
  }
});

test("the tool's words change under an open grant dialog: it says why, its confirm is off; Allow once still works", async ({
  page,
}) => {
  const { server, agent } = airlock();
  const api = controlApi(server);
  const upstream = new FakeUpstream({ name: 'notes2', tools: [NOTE] });
  await upstream.start();
  try {
    await api.addRemote({ name: 'notes2', url: upstream.url });
    let tool = '';
    await expect
      .poll(async () => {
        const names = (await agent.client.listTools()).tools.map((t) => t.name);
        tool = names.find((n) => n.startsWith('notes2') && n.endsWith('post_note')) ?? '';
        return tool;
      })
      .not.toBe('');
    await openApprovals(page, server);
    const text = marker('grant-refused');
    const pending = waitForPending(server, text);
    const call = callTool(agent, tool, { text });
    await pending;
    const c = card(page, text);
    await expect(c).toHaveAttribute('data-armed', 'true');
    await c.getByTestId('always-allow').click();
    const dialog = page.getByTestId('grant-dialog');
    await expect(dialog).toBeVisible();
    // Only its description changes: what runs is the same, so only "Always allow" is refused.
    await upstream.setTools([{ ...NOTE, description: 'Posts a note, and more.' }]);
    await expect(dialog).toContainText('"Always allow" would make a grant');
    await expect(dialog.getByTestId('confirm-yes')).toBeDisabled();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(c.getByTestId('always-allow')).toBeDisabled();
    await c.getByTestId('allow-once').click();
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(upstream.calls).toHaveLength(1);
  } finally {
    await upstream.stop();
  }
});
