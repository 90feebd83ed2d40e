import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { signedInSource } from '../../test-support/signed-in-source.js';
import { FakeUpstream, type FakeTool } from '../../test-support/fake-upstream.js';
import { TaskUpstream } from '../../test-support/task-upstream.js';
import { Logger } from '../platform/log.js';
import type { SourceNotice } from '../tools/features.js';
import type { ClientRelay, RelayRequest } from '../tools/relay.js';
import type { ToolCallContext } from '../tools/types.js';
import { RemoteSource } from './remote-source.js';
import type { RemoteConnection } from './connection/timings.js';

/**
 * Issue 10 "Must hold" (no credential in anything an agent reads, even when the upstream echoes
 * it), for every channel an upstream's words reach the agent on besides a call's answer: progress
 * messages, log lines, task status messages, the server's sampling/elicitation requests — each
 * redacted with the list updated first (the first call after a start, with a saved sign-in) — and
 * for a credential that just left the list while a call sent with it is still running: a renewed
 * OAuth token, a static header token replaced by reconfigure().
 */
const cleanup = cleanupAfterEach();
const NEVER = 10 * 60_000;
const fresh = (p: string) => `${p}_${randomBytes(24).toString('base64url')}`;
const timings = { connectMs: NEVER, listMs: NEVER, readyMs: NEVER, callIdleMs: NEVER };
const quiet = () => new Logger({ stderr: false });

async function started(conn: RemoteConnection): Promise<RemoteSource> {
  const s = new RemoteSource(conn, { logger: quiet(), version: 'test', timings });
  cleanup.push(() => s.stop());
  s.start();
  await s.settled();
  expect(s.status()).toEqual({ state: 'ready' });
  return s;
}

/** A source signed in with a saved token, as after a restart of the app. */
const signedIn = (url: string, token: string) => signedInSource(url, token, cleanup);

async function fake(
  tools: FakeTool[],
  o: Omit<ConstructorParameters<typeof FakeUpstream>[0], 'tools'> = {},
): Promise<FakeUpstream> {
  const up = new FakeUpstream({ tools, ...o });
  await up.start();
  cleanup.push(() => up.stop());
  return up;
}

const ctx = (more: Partial<ToolCallContext> = {}): ToolCallContext => ({
  agent: 'a',
  signal: new AbortController().signal,
  ...more,
});

/** A tool that answers with the header it was sent, once the test lets it. */
function held() {
  let release!: () => void;
  let arrived!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const reached = new Promise<void>((r) => (arrived = r));
  const tool: FakeTool = {
    name: 'slow',
    annotations: { readOnlyHint: true },
    run: async (_a, c) => {
      const sent = String(c.headers.authorization);
      arrived();
      await gate;
      return { content: [{ type: 'text', text: `you sent ${sent}` }] };
    },
  };
  return { tool, release, reached };
}
const quick: FakeTool = { name: 'quick', annotations: { readOnlyHint: true } };

describe('a credential echoed on a channel besides the answer', () => {
  it('is redacted from progress, log lines and server requests of the first call', async () => {
    const TOKEN = fresh('at');
    const up = await fake(
      [
        {
          name: 'chatty',
          annotations: { readOnlyHint: true },
          run: async (_a, c) => {
            const said = `you sent ${String(c.headers.authorization)}`;
            // In `_meta` too: the server's words there reach the agent as well (notice-meta.test.ts).
            await c.progress(1, 2, said, { 'example.com/said': said });
            await c.notify('notifications/message', {
              level: 'info',
              logger: said,
              data: said,
              _meta: { 'example.com/said': said },
            });
            await c.ask('sampling/createMessage', {
              messages: [{ role: 'user', content: { type: 'text', text: said } }],
              systemPrompt: said,
              maxTokens: 5,
            });
            await c.ask('elicitation/create', {
              mode: 'form',
              message: said,
              requestedSchema: { type: 'object', properties: {} },
            });
            return { content: [{ type: 'text', text: 'done' }] };
          },
        },
      ],
      { capabilities: { logging: {} } },
    );
    const { s } = await signedIn(up.url, TOKEN);
    const notices: SourceNotice[] = [];
    s.onNotice((n) => void notices.push(n));
    const progress: unknown[] = [];
    const asked: RelayRequest[] = [];
    const relay: ClientRelay = {
      agent: 'a',
      refusal: () => null,
      request: async (req) => {
        asked.push(req);
        return req.method === 'elicitation/create'
          ? { action: 'decline' }
          : { role: 'assistant', model: 'm', content: { type: 'text', text: 'ok' } };
      },
    };
    const r = await s.call(
      'chatty',
      {},
      ctx({ relay, progress: (_p, _t, m, meta) => void progress.push(m, meta) }),
    );
    expect(JSON.stringify(r)).toContain('done');
    const seen = JSON.stringify({ progress, notices, asked: asked.map((a) => a.params) });
    // The upstream did say it on every channel, and the placeholder stands in its place.
    expect(progress).toHaveLength(2);
    expect(notices.filter((n) => n.kind === 'log')).toHaveLength(1);
    expect(asked.map((a) => a.method)).toEqual(['sampling/createMessage', 'elicitation/create']);
    expect(seen.match(/you sent Bearer \[redacted\]/g)).toHaveLength(8);
    expect(seen.includes(TOKEN), `the agent is handed the access token: ${seen}`).toBe(false);
  });

  it("is redacted from a task's status message, the first call's", async () => {
    const TOKEN = fresh('at');
    const up = new TaskUpstream();
    await up.start();
    cleanup.push(() => up.stop());
    const { s } = await signedIn(up.url, TOKEN);
    const store = up.store;
    const getTask = store.getTask.bind(store);
    const asking = new Promise<void>((resolve) => {
      store.getTask = (...a: Parameters<typeof getTask>) => {
        if (up.created.length > 0) resolve();
        return getTask(...a);
      };
    });
    const statuses: string[] = [];
    let heard!: () => void;
    const said = new Promise<void>((r) => (heard = r));
    const call = s.call(
      'report',
      { topic: 'auth' },
      ctx({
        taskStatus: (m) => {
          statuses.push(m);
          if (m.includes('you sent')) heard();
        },
      }),
    );
    await up.until(() => up.created.length === 1);
    const taskId = up.created[0]!.taskId;
    // Airlock watches the task's status once it has the task (upstream-task.ts), before it asks
    // for the result: the server's first look-up of the task after that is the cue to speak.
    await asking;
    await up.say(taskId, `you sent Bearer ${TOKEN}`); // as a careless server would
    await said;
    await up.finish(taskId, 'report written');
    expect(JSON.stringify(await call)).toContain('report written');
    const seen = statuses.join('\n');
    expect(seen).toContain('you sent Bearer [redacted]');
    expect(seen.includes(TOKEN), `the task status hands the agent the token: ${seen}`).toBe(false);
  });
});

describe('a credential that left the list while a call sent with it still runs', () => {
  it('a renewed OAuth token: the old one is still redacted from that call', async () => {
    const OLD = fresh('at');
    const NEW = fresh('at');
    const h = held();
    const up = await fake([h.tool, quick]);
    const { s, store } = await signedIn(up.url, OLD);
    const slow = s.call('slow', {}, ctx());
    await h.reached;
    // The token is renewed (as the transport does near its expiry); the next call learns the new one.
    await store.update(
      (r) =>
        r && { ...r, tokens: { access_token: NEW, token_type: 'Bearer', obtained_at: Date.now() } },
    );
    expect(JSON.stringify(await s.call('quick', {}, ctx()))).toContain('quick ran');
    expect(up.requests.some((q) => q.headers.authorization === `Bearer ${NEW}`)).toBe(true);
    h.release();
    const r = JSON.stringify(await slow);
    expect(r).toContain('you sent Bearer [redacted]');
    expect(r.includes(OLD), `the call in flight hands the agent the old token: ${r}`).toBe(false);
  });

  it('a static header token replaced by reconfigure: the old one is still redacted', async () => {
    const OLD = fresh('st');
    const NEW = fresh('st');
    const h = held();
    // Stateless: the call runs on the shared connection, which serves it on after a reconfigure
    // (an agent's own session closes with the old connection, and its call with it).
    const up = await fake([h.tool, quick], { stateless: true });
    const conn = (t: string) => ({
      name: 'svc',
      url: up.url,
      headers: { authorization: `Bearer ${t}` },
    });
    const s = await started(conn(OLD));
    const slow = s.call('slow', {}, ctx());
    await h.reached;
    // The old connection serves the call in flight until it ends (server-connection.ts).
    await s.reconfigure(conn(NEW));
    expect(s.status()).toEqual({ state: 'ready' });
    h.release();
    const r = JSON.stringify(await slow);
    expect(r).toContain('you sent [redacted]'); // the header's whole value is the secret
    expect(r.includes(OLD), `the call in flight hands the agent the old token: ${r}`).toBe(false);
  });
});
