import type { Server } from '@modelcontextprotocol/server';
import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { agentClient, startRemoteApp } from '../../test-support/remote-app.js';

/**
 * A prompt a call adds to the agent's own upstream session (a stateful server keeps one session
 * per agent) reaches that agent as it would directly: prompts/list_changed, then prompts/list
 * and prompts/get have it. Another agent's list and gets never do.
 */
const cleanup = cleanupAfterEach();

function heard(c: Client): { count: () => number; next: () => Promise<void> } {
  let n = 0;
  const waiters: (() => void)[] = [];
  c.setNotificationHandler('notifications/prompts/list_changed', () => {
    n++;
    waiters.splice(0).forEach((w) => w());
  });
  return { count: () => n, next: () => new Promise((r) => waiters.push(r)) };
}

describe("prompts a call adds to the agent's own upstream session", () => {
  it('are announced to, listed for and got by that agent only', async () => {
    const added = new Map<Server, string[]>();
    const up = new FakeUpstream({
      name: 'sessions',
      capabilities: { prompts: { listChanged: true } },
      extend: (server) => {
        added.set(server, []);
        server.setRequestHandler('prompts/list', async () => ({
          prompts: [{ name: 'shared' }, ...added.get(server)!.map((name) => ({ name }))],
        }));
        server.setRequestHandler('prompts/get', async (req) => {
          if (req.params.name !== 'shared' && !added.get(server)!.includes(req.params.name))
            throw new Error(`no prompt ${req.params.name} in this session`);
          return { messages: [{ role: 'user', content: { type: 'text', text: req.params.name } }] };
        });
      },
      tools: [
        {
          name: 'add-prompt',
          annotations: { readOnlyHint: true },
          run: async (args, ctx) => {
            const session = ctx.headers['mcp-session-id'];
            const server = [...added.keys()].find((s) => s.transport?.sessionId === session)!;
            added.get(server)!.push(String(args['name']));
            await server.sendPromptListChanged();
            return { content: [{ type: 'text', text: 'added' }] };
          },
        },
      ],
    });
    await up.start();
    cleanup.push(() => up.stop());
    const t = await startRemoteApp();
    cleanup.push(() => t.stop());
    await t.app.control.addRemote({ name: 'sessions', url: up.url });
    const a = await agentClient(t.started.mcpUrl, t.token);
    cleanup.push(() => a.close());
    const b = await agentClient(t.started.mcpUrl, (await t.app.control.addAgent('b')).token);
    cleanup.push(() => b.close());
    const aHeard = heard(a);
    const bHeard = heard(b);
    expect((await b.listPrompts()).prompts.map((p) => p.name)).toEqual(['sessions__shared']);

    const announced = aHeard.next();
    await a.callTool({ name: 'sessions__add-prompt', arguments: { name: 'mine' } });
    await announced;
    expect((await a.listPrompts()).prompts.map((p) => p.name)).toEqual([
      'sessions__shared',
      'sessions__mine',
    ]);
    const got = await a.getPrompt({ name: 'sessions__mine' });
    expect(got.messages[0]!.content).toEqual({ type: 'text', text: 'mine' });

    expect((await b.listPrompts()).prompts.map((p) => p.name)).toEqual(['sessions__shared']);
    await expect(b.getPrompt({ name: 'sessions__mine' })).rejects.toThrow(/Unknown prompt/);
    expect(bHeard.count()).toBe(0);
  });
});
