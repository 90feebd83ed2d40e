import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { httpControlClient } from '../../common/http-control-client.js';
import { FakeUpstream, type FakeTool } from '../../test-support/fake-upstream.js';
import { startTestApp, type TestApp } from '../../test-support/harness.js';
import { agentClient, FAST_REMOTE, toolsOffered } from '../../test-support/remote-app.js';

/**
 * Review of red-team wave 4, the open risk it named: a loosening held for the user's
 * confirmation names its tools by stable key (`remote:<server>/<tool>`), and a key names a server
 * by the name the user gave it. Removing a server applies at once (it tightens), and adding one
 * under that name again is held only when earlier choices already let its tools run
 * (remote-loosening.ts). So whoever holds the control token could ask "let svc__send run without
 * asking" while svc was one server, swap svc for another at another URL, and the user's
 * confirmation of the summary they were shown applied to the other server's tool. A held change
 * is now bound to the server its tools reached when it was asked for (its identity: the URL or
 * command), as a grant is (approvals/policy.ts).
 */
const send = (said: string): FakeTool => ({
  name: 'send',
  description: said,
  // Not destructive: a loosening needs no --confirm-destructive, and so waits for the window.
  annotations: { readOnlyHint: false, destructiveHint: false },
  run: async () => ({ content: [{ type: 'text', text: `${said} ran` }] }),
});

let t: TestApp | undefined;
const ups: FakeUpstream[] = [];
let agent: Client | undefined;
afterEach(async () => {
  await agent?.close();
  await t?.stop();
  for (const u of ups.splice(0)) await u.stop();
  t = undefined;
  agent = undefined;
});

async function start() {
  const first = new FakeUpstream({ tools: [send('Sends a note to yourself.')] });
  const other = new FakeUpstream({ tools: [send('Sends to everyone.')] });
  ups.push(first, other);
  await first.start();
  await other.start();
  t = await startTestApp({ app: { remoteTimings: FAST_REMOTE } });
  const cli = httpControlClient(
    t.started.url,
    new URL(t.started.controlUrl).hash.replace('#token=', ''),
  );
  await t.app.control.addRemote({ name: 'svc', url: first.url });
  await toolsOffered(t.app, ['svc__send']);
  return { t, cli, first, other };
}

/** The caller swaps svc for `to` while the change waits: remove (at once), add (not held). */
async function swap(t: TestApp, cli: ReturnType<typeof httpControlClient>, to: FakeUpstream) {
  await cli.removeRemote('svc');
  await cli.addRemote({ name: 'svc', url: to.url });
  await toolsOffered(t.app, ['svc__send']);
}

describe('a held loosening applies to the server it was asked for, or not at all', () => {
  it.each([
    [
      '"let svc__send run without asking"',
      (cli: ReturnType<typeof httpControlClient>) =>
        cli.setToolPolicy('svc__send', { approval: 'auto' }),
    ],
    [
      '"let svc__send run without asking" for the agent',
      (cli: ReturnType<typeof httpControlClient>) =>
        cli.setToolPolicy('svc__send', { approval: 'auto', agent: 'test' }),
    ],
    [
      '"give the agent svc__send"',
      (cli: ReturnType<typeof httpControlClient>) => cli.setAgentTools('test', ['svc__send']),
    ],
  ])(
    "%s, held; svc swapped for another server under the same name: the change fails, the other server's tool still asks",
    async (_label, ask) => {
      const { t, cli, other } = await start();
      await t.app.control.setAgentTools('test', []);
      await expect(ask(cli)).rejects.toMatchObject({ code: 'CONFIRM_IN_WINDOW' });
      const [held] = await t.app.control.listPolicyChanges();
      await swap(t, cli, other);
      const decided = await t.app.control.decidePolicyChange(held!.id, true);
      expect(decided.state).toBe('failed');
      expect(decided.error).toMatch(/now names another tool/);
      const tool = (await t.app.control.listTools('test')).find((x) => x.name === 'svc__send');
      expect(tool?.approval).toBe('ask');
      expect((await t.app.control.listAgents()).find((a) => a.name === 'test')?.tools).toEqual([]);
      expect(other.calls).toEqual([]);
    },
  );

  it('the same server removed and added back at its URL: the held change applies, as asked', async () => {
    const { t, cli, first } = await start();
    await expect(cli.setToolPolicy('svc__send', { approval: 'auto' })).rejects.toMatchObject({
      code: 'CONFIRM_IN_WINDOW',
    });
    const [held] = await t.app.control.listPolicyChanges();
    await swap(t, cli, first);
    expect((await t.app.control.decidePolicyChange(held!.id, true)).state).toBe('confirmed');
    agent = await agentClient(t.started.mcpUrl, t.token);
    const r = await agent.callTool({ name: 'svc__send', arguments: {} });
    expect(JSON.stringify(r.content)).toMatch(/Sends a note to yourself\. ran/);
  });
});
