import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { connectClient } from '../../test-support/harness.js';
import { startRemoteApp } from '../../test-support/remote-app.js';
import { relayLabel } from '../tools/relay-label.js';

/**
 * Any request may carry a progressToken (MCP 2025-11-25 basic/utilities/progress), not only
 * tools/call. A server's progress on resources/read, prompts/get and completion/complete reached
 * no agent: Airlock asked the server without a token of its own. Now it arrives as a call's
 * does — every notification, fractional progress, total and message, in order, before the result,
 * its words labelled as the server's — in both eras of the agent.
 */
const cleanup = cleanupAfterEach();
const STEPS = [
  { progress: 0.25, total: 1.5, message: 'first quarter' },
  { progress: 0.5 },
  { progress: 1.5, total: 1.5, message: 'done' },
];

async function report(
  req: { params?: { _meta?: { progressToken?: string | number } } },
  ctx: ServerContext,
) {
  const token = req.params?._meta?.progressToken;
  if (token !== undefined)
    for (const s of STEPS)
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken: token, ...s },
      });
}

describe('progress on reads, prompts and completion', () => {
  it.each(['legacy', 'auto'] as const)(
    'reaches the agent that asked (%s negotiation)',
    async (mode) => {
      const up = new FakeUpstream({
        name: 'svc',
        capabilities: { resources: {}, prompts: {}, completions: {} },
        extend: (server: Server) => {
          server.setRequestHandler('resources/list', async () => ({
            resources: [{ uri: 'mem://a', name: 'a' }],
          }));
          server.setRequestHandler('resources/read', async (req, ctx) => {
            await report(req, ctx);
            return { contents: [{ uri: req.params.uri, text: 'A' }] };
          });
          server.setRequestHandler('prompts/list', async () => ({ prompts: [{ name: 'p' }] }));
          server.setRequestHandler('prompts/get', async (req, ctx) => {
            await report(req, ctx);
            return { messages: [{ role: 'user', content: { type: 'text', text: 'P' } }] };
          });
          server.setRequestHandler('completion/complete', async (req, ctx) => {
            await report(req, ctx);
            return { completion: { values: ['v'] } };
          });
        },
        tools: [],
      });
      await up.start();
      cleanup.push(() => up.stop());
      const t = await startRemoteApp();
      cleanup.push(() => t.stop());
      await t.app.control.addRemote({ name: 'svc', url: up.url });
      const c = await connectClient(t.started.mcpUrl, t.token, mode);
      cleanup.push(() => c.close());

      const expected = STEPS.map((s) => ({
        ...s,
        ...(s.message ? { message: `${relayLabel('svc')} ${s.message}` } : {}),
      }));
      const seen: unknown[] = [];
      const onprogress = (p: unknown) => void seen.push(p);
      const read = await c.readResource({ uri: 'airlock://svc/mem://a' }, { onprogress });
      // Before the result: all three were in when the read answered.
      expect(seen).toEqual(expected);
      expect(read.contents[0]).toMatchObject({ text: 'A' });

      seen.length = 0;
      const prompt = await c.getPrompt({ name: 'svc__p' }, { onprogress });
      expect(seen).toEqual(expected);
      expect(prompt.messages).toHaveLength(1);

      seen.length = 0;
      const done = await c.complete(
        { ref: { type: 'ref/prompt', name: 'svc__p' }, argument: { name: 'x', value: '' } },
        { onprogress },
      );
      expect(seen).toEqual(expected);
      expect(done.completion.values).toEqual(['v']);

      // An agent that asked for none gets none.
      seen.length = 0;
      await c.readResource({ uri: 'airlock://svc/mem://a' });
      expect(seen).toEqual([]);
    },
    60_000,
  );
});
