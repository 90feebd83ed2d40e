import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolView } from '../../common/contract/index.js';
import { looseningSummary } from '../gateway/loosening.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import {
  agentClient,
  startRemoteApp,
  until,
  type RemoteTestApp,
} from '../../test-support/remote-app.js';

/**
 * Issue 28 item 5: the Tools page says why a tool is not offered (ControlApi.listTools carries
 * `notOffered`; the page shows its text, ToolRow.test.tsx). A real App, a real SDK server behind.
 */
let up: FakeUpstream;
let t: RemoteTestApp;

beforeAll(async () => {
  up = new FakeUpstream({
    tools: [
      { name: 'echo', annotations: { readOnlyHint: true } },
      { name: 'note', annotations: { readOnlyHint: true } },
      { name: 'shout', annotations: { readOnlyHint: true } },
    ],
  });
  await up.start();
  t = await startRemoteApp();
  await t.app.control.addRemote({ name: 'up', url: up.url });
}, 60_000);

afterAll(async () => {
  await t?.stop();
  await up?.stop();
});

const find = (tools: ToolView[], name: string) => tools.find((x) => x.name === name);

describe('why a tool is not offered (Tools page)', () => {
  it('an offered tool has no reason; one the user turned off says so, for everyone or one agent', async () => {
    await t.app.control.setToolPolicy('up__note', { enabled: false });
    await t.app.control.setToolPolicy('up__shout', { enabled: false, agent: 'test' });
    const all = await t.app.control.listTools();
    expect(find(all, 'up__echo')?.notOffered).toBeUndefined();
    expect(find(all, 'up__note')?.notOffered).toEqual({
      reason: 'turned-off',
      text: 'Turned off for every agent (by you).',
    });
    expect(find(all, 'up__shout')?.notOffered).toBeUndefined();
    const mine = await t.app.control.listTools('test');
    expect(find(mine, 'up__shout')?.notOffered?.reason).toBe('turned-off-for-agent');
    // The reason agrees with what the agent is offered (a real SDK client's tools/list).
    const c = await agentClient(t.started.mcpUrl, t.token);
    const offered = (await c.listTools()).tools;
    await c.close();
    for (const v of mine.filter((x) => x.source === 'remote:up'))
      expect(offered.some((o) => o.name === v.name)).toBe(v.notOffered === undefined);
    await t.app.control.setToolPolicy('up__note', { enabled: true });
    await t.app.control.setToolPolicy('up__shout', { enabled: true, agent: 'test' });
  });

  it('an agent limited to other tools: hidden from it, and said so', async () => {
    await t.app.control.setAgentTools('test', ['up__echo']);
    const mine = await t.app.control.listTools('test');
    expect(find(mine, 'up__echo')?.notOffered).toBeUndefined();
    expect(find(mine, 'up__note')?.notOffered).toMatchObject({
      reason: 'not-chosen-for-agent',
      text: 'Hidden from test: it is limited to other tools (Agents page).',
    });
    await t.app.control.setAgentTools('test', null);
  });

  it('a server that went down: its tools stay on the page as last seen, saying it is not connected', async () => {
    await up.stop();
    await until(
      t.app,
      async () =>
        (await t.app.control.listRemotes()).find((r) => r.name === 'up')?.state === 'error',
    );
    // Agents are offered none of them.
    const c = await agentClient(t.started.mcpUrl, t.token);
    expect((await c.listTools()).tools.some((x) => x.name.startsWith('up__'))).toBe(false);
    await c.close();
    const all = await t.app.control.listTools();
    const echo = find(all, 'up__echo');
    expect(echo?.key).toBe('remote:up/echo');
    expect(echo?.notOffered?.reason).toBe('server-down');
    expect(echo?.notOffered?.text).toMatch(
      /^Not offered to agents: its server "up" is not connected \(/,
    );
    expect(
      all
        .filter((x) => x.source === 'remote:up')
        .map((x) => x.name)
        .sort(),
    ).toEqual(['up__echo', 'up__note', 'up__shout']);
    // Listed, but not a tool a policy call can name: refused as unknown, never put to the user —
    // by the gate too, which never lets it run unconfirmed (loosening-race.security.test.ts).
    await expect(t.app.control.setToolPolicy('up__echo', { approval: 'auto' })).rejects.toThrow(
      /No tool named "up__echo"/,
    );
    await expect(
      looseningSummary(t.app.control, 'setToolPolicy', ['up__echo', { approval: 'auto' }]),
    ).rejects.toThrow(/No tool named "up__echo"/);
  });
});
