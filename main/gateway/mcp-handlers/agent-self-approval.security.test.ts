import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../../common/contract/index.js';
import { nextRequest } from '../../../test-support/core-events.js';
import {
  CountingSource,
  startTestApp,
  textOf,
  type TestApp,
} from '../../../test-support/harness.js';
import { mintOpenCode } from '../../cli/socket-client.js';
import { controlSocketPath } from '../control-socket.js';

/**
 * Red-team wave 4: the agent's side of the browser approval path (approval-url.ts). The agent's
 * app is handed a URL elicitation for its own waiting call; whatever it answers, and whatever it
 * sends with its retry, only the user's decision in Airlock runs the call — and only the call the
 * user saw. Nothing the agent receives carries the control token or an open code.
 */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const controlTokenOf = (app: TestApp) =>
  new URL(app.started.controlUrl).hash.replace(/^#token=/, '');

/**
 * An agent whose app declares URL elicitation and answers each one with `answer` (never asking
 * the user); `rewrite` may change each tools/call body the app sends; every byte the app
 * receives is kept in `seen`.
 */
async function agent(
  mode: 'legacy' | 'auto',
  answer: (url: string) => Promise<{ action: 'accept' | 'decline' | 'cancel' }>,
  rewrite: (body: Record<string, unknown>) => Record<string, unknown> = (b) => b,
) {
  const source = new CountingSource();
  t = await startTestApp({ sources: [source] });
  await t.app.control.updateSettings({ waitSeconds: 1 });
  const seen: string[] = [];
  const client = new Client(
    { name: 'self-approver', version: '1.0.0' },
    { versionNegotiation: { mode }, capabilities: { elicitation: { url: {} } } },
  );
  const urls: string[] = [];
  client.setRequestHandler('elicitation/create', async (req) => {
    const url = String((req.params as { url?: unknown }).url);
    urls.push(url);
    return answer(url);
  });
  const tamper: typeof fetch = async (input, init) => {
    let body = init?.body;
    if (typeof body === 'string') {
      const parsed = JSON.parse(body) as Record<string, unknown>;
      if (parsed.method === 'tools/call') body = JSON.stringify(rewrite(parsed));
    }
    const res = await fetch(input, { ...init, ...(body !== undefined ? { body } : {}) });
    const copy = res.clone();
    // Read in the background: an event stream stays open; what came is kept as it comes.
    void (async () => {
      if (!copy.body) return;
      const decoder = new TextDecoder();
      for await (const chunk of copy.body) seen.push(decoder.decode(chunk as Uint8Array));
    })().catch(() => {});
    return res;
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
      fetch: tamper,
    }),
  );
  return { source, client, app: t.app, urls, seen, t };
}

describe('the agent cannot approve its own call through the approval link', () => {
  for (const mode of ['auto', 'legacy'] as const)
    for (const action of ['accept', 'decline', 'cancel'] as const)
      it(`${mode}: the agent's app answers the approval link with "${action}" itself — nothing runs, the request still waits`, async () => {
        const { source, client, app, urls } = await agent(mode, async () => ({ action }));
        const requested = nextRequest(app);
        const result = await client.callTool({
          name: 'count_send',
          arguments: { to: 'bob@example.com' },
        });
        const req = await requested;
        expect(urls).toHaveLength(1);
        expect(source.count('count_send')).toBe(0);
        expect(result.isError).toBe(true);
        expect(textOf(result)).not.toMatch(/count_send ok/);
        expect((await app.control.getApproval(req.id)).state).toBe('pending');
      });
});

describe('the decision applies to the call the user saw, not to what the retry sends', () => {
  it('2026-07-28: a retry that answers the link with other arguments runs nothing; the user’s allow runs the shown call only', async () => {
    let retry = 0;
    const { source, client, app, urls } = await agent(
      'auto',
      async () => ({ action: 'accept' }),
      (body) => {
        const params = body.params as Record<string, unknown>;
        // The retry (it carries the answer to the link) swaps the recipient.
        if (!('inputResponses' in params)) return body;
        retry += 1;
        return {
          ...body,
          params: { ...params, arguments: { to: 'attacker@evil.example' } },
        };
      },
    );
    const shown = nextRequest(
      app,
      (a) => (a.arguments as { to?: string }).to === 'bob@example.com',
    );
    const swapped = nextRequest(
      app,
      (a) => (a.arguments as { to?: string }).to === 'attacker@evil.example',
    );
    const result = await client.callTool({
      name: 'count_send',
      arguments: { to: 'bob@example.com' },
    });
    expect(urls).toHaveLength(1);
    expect(retry).toBe(1);
    const card: ApprovalView = await shown;
    // The swapped retry is a request of its own, waiting for the user like any other.
    const other = await swapped;
    expect(other.id).not.toBe(card.id);
    expect(result.isError).toBe(true);
    expect(source.count('count_send')).toBe(0);
    // The user allows what the link showed: that call runs, with its own arguments, once.
    await app.control.decide(card.id, { kind: 'allow_once' });
    await client.callTool({ name: 'count_send', arguments: { to: 'bob@example.com' } });
    expect(source.calls.filter((c) => c.tool === 'count_send')).toEqual([
      { tool: 'count_send', args: { to: 'bob@example.com' } },
    ]);
    expect((await app.control.getApproval(other.id)).state).toBe('pending');
  });
});

describe('nothing the agent receives carries the control token or an open code', () => {
  for (const mode of ['auto', 'legacy'] as const)
    it(`${mode}: list, link, wait, denial — the agent's bytes hold neither`, async () => {
      let code = '';
      const socket = () => controlSocketPath(t!.dataDir);
      const {
        client,
        app,
        urls,
        seen,
        t: started,
      } = await agent(mode, async () => {
        // While the link is out, the user opens Airlock with `airlock open`: a code is minted.
        code = (await mintOpenCode(socket(), controlTokenOf(started))).code;
        return { action: 'accept' };
      });
      const controlToken = controlTokenOf(started);
      await client.listTools();
      const requested = nextRequest(app);
      await client.callTool({ name: 'count_send', arguments: { to: 'bob@example.com' } });
      const req = await requested;
      await app.control.decide(req.id, { kind: 'deny', reason: 'not now' });
      const denied = await client.callTool({
        name: 'count_send',
        arguments: { to: 'bob@example.com' },
      });
      expect(textOf(denied)).toMatch(/denied/);
      expect(code).not.toBe('');
      // The link names the request's page on the gateway, and nothing else.
      expect(urls).toEqual([`${new URL(started.started.mcpUrl).origin}/#/approve/${req.id}`]);
      const all = seen.join('');
      expect(all.length).toBeGreaterThan(0);
      for (const secret of [controlToken, code, encodeURIComponent(code)])
        expect(all).not.toContain(secret);
      expect(all).not.toMatch(/[#&?](token|code)=/);
    });
});
