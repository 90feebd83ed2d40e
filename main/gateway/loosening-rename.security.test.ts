import { afterEach, describe, expect, it, vi } from 'vitest';
import { httpControlClient } from '../../common/http-control-client.js';
import { nextRequest } from '../../test-support/core-events.js';
import {
  connectClient,
  CountingSource,
  startTestApp,
  type TestApp,
} from '../../test-support/harness.js';

/**
 * A loosening asked for from outside Airlock's window waits, up to ten minutes, for the user to
 * confirm it there (issue 17.7). It names a tool by its public name; the change ran against
 * whatever tool bore that name when the user confirmed. Public names are given in key order
 * (tools/naming.ts): a server that lists a tool whose name cleans up to the same public name and
 * sorts first ("count.send" before "count_send") takes the name, and the confirmed change — "let
 * count_send run without asking", "always allow count_send" — went to that other tool. The
 * change is now held to the tool it was asked for (its stable key) and refused when the name has
 * moved: nothing changes, and the user is asked again.
 */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function start() {
  const source = new CountingSource();
  t = await startTestApp({ sources: [source] });
  const token = new URL(t.started.controlUrl).hash.replace('#token=', '');
  return { t, source, cli: httpControlClient(t.started.url, token) };
}

const policies = async (tt: TestApp, agent?: string) =>
  Object.fromEntries(
    (await tt.app.control.listTools(agent))
      .filter((x) => x.key.startsWith('count/count') && x.key.includes('send'))
      .map((x) => [x.key, x.approval]),
  );

describe('a held loosening applies to the tool it was asked for, or not at all', () => {
  it('"let count_send run without asking": refused once another tool bears the name', async () => {
    const { t, source, cli } = await start();
    const err = await cli
      .setToolPolicy('count_send', { approval: 'auto' })
      .catch((e: unknown) => e as { code?: string });
    expect(err).toMatchObject({ code: 'CONFIRM_IN_WINDOW' });
    source.takeCountSendName();
    expect(t.app.registry.get('count_send')!.key).toBe('count/count.send');
    const [pending] = await t.app.control.listPolicyChanges();
    const decided = await t.app.control.decidePolicyChange(pending!.id, true);
    expect(decided.state).toBe('failed');
    expect(decided.error).toMatch(/count_send now names another tool/);
    expect(await policies(t)).toEqual({ 'count/count.send': 'ask', 'count/count_send': 'ask' });
  });

  it('never applied to another tool, even when the name moves while the tools are listed', async () => {
    // listTools takes the registry, then waits up to 3 s for servers still connecting
    // (RemoteControl.listRemotes, whenSettled): a server that connects then takes the name after
    // what listTools returns. The check reads the registry as the change does, with no wait
    // between the two. Here the name moves inside listTools, as it could in that wait: a check
    // that read listTools passed on the old reading and made count.send "auto".
    const { t, source, cli } = await start();
    await cli.setToolPolicy('count_send', { approval: 'auto' }).catch(() => undefined);
    const control = t.app.control;
    const list = control.listTools.bind(control);
    let moved = false;
    vi.spyOn(control, 'listTools').mockImplementation(async (agent?: string) => {
      const seen = await list(agent);
      if (!moved) source.takeCountSendName();
      moved = true;
      return seen;
    });
    const [pending] = await control.listPolicyChanges();
    const decided = await control.decidePolicyChange(pending!.id, true);
    vi.restoreAllMocks();
    const after = await policies(t);
    expect(after['count/count.send'] ?? 'ask').toBe('ask');
    // Whether or not anything listed the tools on the way, the change applied is the one asked.
    if (moved) expect(decided.state).toBe('failed');
    else expect([decided.state, after['count/count_send']]).toEqual(['confirmed', 'auto']);
  });

  it('a name that moves while the gate judges the call is refused, not run as "no loosening"', async () => {
    // The agent already has count_send: asking for it again loosens nothing and runs at once.
    // listTools, which the judgement reads, waits for connecting servers after taking the
    // registry; the name moves in that wait. Judged on the old reading, the call ran and gave
    // the agent count.send ("Sends to everyone") with no one confirming.
    const { t, source, cli } = await start();
    await t.app.control.setAgentTools('test', ['count_send']);
    const control = t.app.control;
    const list = control.listTools.bind(control);
    let moved = false;
    vi.spyOn(control, 'listTools').mockImplementation(async (agent?: string) => {
      const seen = await list(agent);
      if (!moved) source.takeCountSendName();
      moved = true;
      return seen;
    });
    const err = await cli
      .setAgentTools('test', ['count_send'])
      .then(() => undefined)
      .catch((e: unknown) => e as { code?: string });
    vi.restoreAllMocks();
    expect(moved).toBe(true);
    expect(err).toMatchObject({ code: 'CONFLICT' });
    expect((await control.listAgents()).find((a) => a.name === 'test')?.tools).toEqual([
      'count/count_send',
    ]);
  });

  it('a tool removed meanwhile: the change fails saying so, not that another tool has the name', async () => {
    const { t, source, cli } = await start();
    await cli.setToolPolicy('count_send', { approval: 'auto' }).catch(() => undefined);
    source.defs = source.defs.filter((d) => d.name !== 'count_send');
    source.changed();
    const [pending] = await t.app.control.listPolicyChanges();
    const decided = await t.app.control.decidePolicyChange(pending!.id, true);
    expect(decided.state).toBe('failed');
    expect(decided.error).toMatch(/No tool named "count_send"/);
  });

  it('and is applied when the name still names it', async () => {
    const { t, cli } = await start();
    await cli.setToolPolicy('count_send', { approval: 'auto' }).catch(() => undefined);
    const [pending] = await t.app.control.listPolicyChanges();
    expect((await t.app.control.decidePolicyChange(pending!.id, true)).state).toBe('confirmed');
    expect(await policies(t)).toEqual({ 'count/count_send': 'auto' });
  });

  it('"give agent test the tools count_send": refused once another tool bears the name', async () => {
    const { t, source, cli } = await start();
    await t.app.control.setAgentTools('test', []);
    await cli.setAgentTools('test', ['count_send']).catch(() => undefined);
    source.takeCountSendName();
    const [pending] = await t.app.control.listPolicyChanges();
    expect((await t.app.control.decidePolicyChange(pending!.id, true)).state).toBe('failed');
    expect((await t.app.control.listAgents()).find((a) => a.name === 'test')?.tools).toEqual([]);
  });

  it('"always allow count_send": never a grant for the tool that took the name', async () => {
    const { t, source, cli } = await start();
    const agent = await connectClient(t.started.mcpUrl, t.token);
    const call = agent.callTool({ name: 'count_send', arguments: { to: 'someone' } });
    const { id } = await nextRequest(t.app);
    await cli.decide(id, { kind: 'always_allow' });
    await call;
    source.takeCountSendName();
    const [pending] = await t.app.control.listPolicyChanges();
    // The request's tool is now listed under another name than its card showed: refused as the
    // window refuses it (shown-binding.ts; loosening-grant-shown.security.test.ts), and never
    // made for count.send, which bears the name now.
    const decided = await t.app.control.decidePolicyChange(pending!.id, true);
    expect(decided.state).toBe('failed');
    expect(decided.error).toMatch(/changed since this request was shown/);
    expect(await t.app.control.listGrants()).toEqual([]);
    await agent.close();
  });
});
