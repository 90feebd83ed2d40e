import { Agent, request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { isRequested, nextEvent } from '../../test-support/core-events.js';
import { startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';
import { LoneCallServer } from '../gateway/mcp-handlers/lone-call.js';
import { SessionTransport } from '../gateway/session-transport.js';
import { ModernHotTransport } from '../gateway/modern-hot.js';

/**
 * Review of issue 34's lone call (mcp-handlers/lone-call.ts, SessionTransport.postLone) through
 * a real App on real sockets: each case runs on the lone path (the default) and on the SDK path
 * (`loneCallOf` answering undefined, as `loneCalls: false` does), and what the agent reads must
 * be the same. What lone-call.property.test.ts cannot reach with its in-memory responses: a
 * real client hanging up (Node's own `res.destroyed`), keep-alive sockets, the real pipeline's
 * approvals, cancellation and the session's DELETE while a call waits.
 */
let up: FakeUpstream;
/** The `hang` tool's calls by their `by`: when the upstream ran one, and when it was cancelled. */
const hung = new Map<string, { started: () => void; told: () => void }>();
function hanging(by: string): { running: Promise<void>; cancelled: Promise<void> } {
  let started!: () => void;
  let told!: () => void;
  const running = new Promise<void>((r) => (started = r));
  const cancelled = new Promise<void>((r) => (told = r));
  hung.set(by, { started, told });
  return { running, cancelled };
}
let t: RemoteTestApp;
const transports: SessionTransport[] = [];

beforeAll(async () => {
  up = new FakeUpstream({
    tools: [
      {
        name: 'plain',
        annotations: { readOnlyHint: true },
        run: async (args) => ({ content: [{ type: 'text', text: `plain ${String(args.text)}` }] }),
      },
      {
        name: 'boom',
        annotations: { readOnlyHint: true },
        run: async () => {
          throw new Error('boom');
        },
      },
      {
        name: 'ask',
        annotations: { readOnlyHint: true },
        run: async (_args, ctx) => {
          const r = (await ctx.ask('elicitation/create', {
            message: 'name?',
            requestedSchema: { type: 'object', properties: { n: { type: 'string' } } },
          })) as { action: string };
          return { content: [{ type: 'text', text: `asked ${r.action}` }] };
        },
      },
      {
        name: 'log',
        annotations: { readOnlyHint: true },
        run: async (_args, ctx) => {
          await ctx.notify('notifications/message', { level: 'info', data: 'line' });
          return { content: [{ type: 'text', text: 'logged' }] };
        },
      },
      {
        name: 'chatty',
        annotations: { readOnlyHint: true },
        run: async (_args, ctx) => {
          for (let i = 1; i <= 3; i++)
            await ctx.notify('notifications/message', { level: 'info', data: `line ${i}` });
          // The last one not awaited: it leaves just before the answer.
          void ctx.notify('notifications/message', { level: 'info', data: 'line 4' });
          return { content: [{ type: 'text', text: 'chatty' }] };
        },
      },
      { name: 'write', annotations: { readOnlyHint: false } },
      {
        // Runs until the agent gives up: its cancel must reach it (review of abort-hooks.ts).
        name: 'hang',
        annotations: { readOnlyHint: true },
        run: (args, ctx) => {
          const by = String(args.by);
          ctx.signal.addEventListener('abort', () => hung.get(by)?.told());
          hung.get(by)?.started();
          return new Promise(() => {});
        },
      },
    ],
  });
  await up.start();
  t = await startRemoteApp();
  await t.app.control.addRemote({ name: 'up', url: up.url });
  const start = SessionTransport.prototype.start;
  vi.spyOn(SessionTransport.prototype, 'start').mockImplementation(function (
    this: SessionTransport,
  ) {
    transports.push(this);
    return start.call(this);
  });
}, 60_000);

afterEach(() => {
  vi.mocked(LoneCallServer.prototype.loneCallOf).mockRestore?.();
});

afterAll(async () => {
  vi.restoreAllMocks();
  await t?.stop();
  await up?.stop();
});

interface Raw {
  status: number;
  type: string | undefined;
  length: string | undefined;
  sid: boolean;
  text: string;
}

const ACCEPT = 'application/json, text/event-stream';

function raw(
  method: string,
  body: unknown,
  headers: Record<string, string>,
  agent?: Agent,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      t.started.mcpUrl,
      {
        method,
        ...(agent ? { agent } : {}),
        headers: {
          accept: ACCEPT,
          'content-type': 'application/json',
          authorization: `Bearer ${t.token}`,
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: res.headers['content-type'],
            length: res.headers['content-length'],
            sid: typeof res.headers['mcp-session-id'] === 'string',
            text,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function open(agent?: Agent): Promise<Record<string, string>> {
  const init = await raw(
    'POST',
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'r', version: '1' },
      },
    },
    {},
    agent,
  );
  expect(init.status).toBe(200);
  const sid = transports.at(-1)!.sessionId!;
  const h = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
  const ack = await raw('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, h, agent);
  expect(ack.status).toBe(202);
  return h;
}

const transportOf = (h: Record<string, string>) =>
  transports.find((x) => x.sessionId === h['mcp-session-id'])!;

const call = (id: unknown, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: `up__${name}`, arguments: args },
});

/** The JSON-RPC messages of an answer, whichever form it took. */
function messagesOf(r: Raw): unknown[] {
  if (r.type === 'application/json') return [JSON.parse(r.text)];
  return (r.text.match(/^data: .*$/gm) ?? []).map((l) => JSON.parse(l.slice(6)) as unknown);
}

/** What each arm showed, compared once both ran. */
const shown = new Map<string, unknown>();
/**
 * An answer as compared across the arms: its status, session header and messages — not its form.
 * Whether an answer goes as JSON or as an event stream is decided by a clock on both paths (the
 * held head, event-stream.ts FIRST_EVENT_WAIT_MS: an answer later than 25 ms goes as a stream), so
 * on a loaded machine either arm may take either form (a CI run with two CPU hogs did: "showed the
 * same" failed on one arm's Content-Type). The form's own rules are held on fake timers
 * (session-transport.test.ts, session-transport.post-lone.test.ts); here only what the agent
 * reads must agree.
 */
const answerShown = (r: Raw) => ({ status: r.status, sid: r.sid, messages: messagesOf(r) });
const record = (lone: boolean, what: string, value: unknown) =>
  shown.set(`${what} ${String(lone)}`, value);

/** The pending approval of the call made with `by`: the agent no longer waits on it. */
const left = (by: string) =>
  eventually(async () => {
    const mine = (await t.app.control.listPending()).filter(
      (a) => (a.arguments as { by?: string }).by === by,
    );
    expect(mine.map((a) => a.agentWaiting)).toEqual([false]);
  });

const ARMS = [
  ['the lone path', true],
  ['the SDK path', false],
] as const;

function arm(lone: boolean) {
  if (!lone) vi.spyOn(LoneCallServer.prototype, 'loneCallOf').mockReturnValue(undefined);
}

describe.each(ARMS)('%s, through a real App', (_name, lone) => {
  it('ids of every kind are echoed as sent, may be reused once answered, are refused while open', async () => {
    arm(lone);
    const h = await open();
    for (const id of [
      0,
      -1,
      Number.MAX_SAFE_INTEGER,
      '__proto__',
      'constructor',
      '',
      'x',
    ] as const) {
      for (let round = 0; round < 2; round++) {
        const r = await raw('POST', call(id, 'plain', { text: String(id) }), h);
        expect(r.status).toBe(200);
        const [m] = messagesOf(r) as { id: unknown; result: { content: { text: string }[] } }[];
        expect(m!.id).toStrictEqual(id);
        expect(m!.result.content.at(-1)!.text).toBe(`plain ${String(id)}`);
      }
    }
    expect(transportOf(h).busy()).toBe(false);
  });

  it('an upstream error is answered the same', async () => {
    arm(lone);
    const h = await open();
    const r = await raw('POST', call(7, 'boom'), h);
    expect(r.status).toBe(200);
    record(lone, 'boom', answerShown(r));
  });

  it('a call waiting for approval: a second POST of its id is refused, then it is answered once approved', async () => {
    arm(lone);
    const h = await open();
    const requested = nextEvent(t.app, isRequested);
    const waiting = raw('POST', call('w', 'write', { by: String(lone) }), h);
    const { approval } = await requested;
    const again = await raw('POST', call('w', 'write', { by: String(lone) }), h);
    expect(again.status).toBe(400);
    expect(JSON.parse(again.text)).toMatchObject({
      error: {
        code: -32600,
        message: 'Invalid Request: request ID "w" is already in use in this session',
      },
    });
    expect(transportOf(h).busy()).toBe(true);
    await t.app.control.decide(approval.id, { kind: 'allow_once' });
    const r = await waiting;
    expect(messagesOf(r)).toEqual([
      expect.objectContaining({ id: 'w', result: expect.anything() }),
    ]);
    expect(transportOf(h).busy()).toBe(false);
  });

  it('a client that hangs up while its call waits: the call goes on, the session is not left busy, the next call on the keep-alive agent is answered', async () => {
    arm(lone);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const h = await open(agent);
    const requested = nextEvent(t.app, isRequested);
    const req = request(t.started.mcpUrl, {
      method: 'POST',
      agent,
      headers: {
        accept: ACCEPT,
        'content-type': 'application/json',
        authorization: `Bearer ${t.token}`,
        ...h,
      },
    });
    req.on('error', () => {});
    req.end(JSON.stringify(call(9, 'write', { by: `hang ${String(lone)}` })));
    const { approval } = await requested;
    req.destroy();
    await t.app.control.decide(approval.id, { kind: 'allow_once' });
    await eventually(() => expect(transportOf(h).busy()).toBe(false));
    for (let i = 0; i < 3; i++) {
      const r = await raw('POST', call(10 + i, 'plain', { text: 'after' }), h, agent);
      expect(messagesOf(r)).toEqual([expect.objectContaining({ id: 10 + i })]);
    }
    agent.destroy();
  });

  it('notifications/cancelled while the call waits: its stream ends with no answer, the approval is withdrawn', async () => {
    arm(lone);
    const h = await open();
    const requested = nextEvent(t.app, isRequested);
    const by = `cancel ${String(lone)}`;
    const waiting = raw('POST', call(11, 'write', { by }), h);
    await requested;
    const c = await raw(
      'POST',
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 11, reason: 'r' } },
      h,
    );
    expect(c.status).toBe(202);
    const r = await waiting;
    expect(r.status).toBe(200);
    expect(messagesOf(r)).toEqual([]);
    await left(by);
    expect(transportOf(h).busy()).toBe(false);
  });

  it("notifications/cancelled while the upstream runs the call: the upstream is told (MCP cancellation), the call's stream ends with no answer", async () => {
    arm(lone);
    const h = await open();
    const by = `upstream cancel ${String(lone)}`;
    const { running, cancelled } = hanging(by);
    const waiting = raw('POST', call(14, 'hang', { by }), h);
    await running;
    const c = await raw(
      'POST',
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 14, reason: 'r' } },
      h,
    );
    expect(c.status).toBe(202);
    await cancelled; // the upstream's handler saw notifications/cancelled
    const r = await waiting;
    expect(messagesOf(r)).toEqual([]);
    expect(transportOf(h).busy()).toBe(false);
  });

  it('DELETE of the session while a call waits: its stream ends, the approval is withdrawn', async () => {
    arm(lone);
    const h = await open();
    const requested = nextEvent(t.app, isRequested);
    const by = `delete ${String(lone)}`;
    const waiting = raw('POST', call(12, 'write', { by }), h);
    await requested;
    const d = await raw('DELETE', undefined, h);
    expect(d.status).toBe(200);
    const r = await waiting;
    expect(r.status).toBe(200);
    expect(messagesOf(r)).toEqual([]);
    await left(by);
  });

  it('a call whose upstream sends a log line (no level set): both paths answer the same', async () => {
    arm(lone);
    const h = await open();
    const r = await raw('POST', call(13, 'log'), h);
    record(lone, 'log', messagesOf(r));
  });

  it('a relayed elicitation goes to the stock 1.x client on the call stream and its answer comes back', async () => {
    arm(lone);
    const c = new Client1({ name: 'v1', version: '1' }, { capabilities: { elicitation: {} } });
    c.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    const tr = new Transport1(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
    });
    await c.connect(tr);
    const r = await c.callTool({ name: 'up__ask', arguments: {} });
    expect((r.content as { text: string }[]).at(-1)!.text).toBe('asked decline');
    // The client's own abort of a waiting call: notifications/cancelled, then a call after it.
    const requested = nextEvent(t.app, isRequested);
    const ac = new AbortController();
    const by = `v1 ${String(lone)}`;
    const waiting = c.callTool({ name: 'up__write', arguments: { by } }, undefined, {
      signal: ac.signal,
    });
    await requested;
    ac.abort('stop');
    await expect(waiting).rejects.toThrow();
    await left(by);
    const after = await c.callTool({ name: 'up__plain', arguments: { text: 'z' } });
    expect((after.content as { text: string }[]).at(-1)!.text).toBe('plain z');
    await c.close();
  });
  it('the v2 client on a 2025 session: a relayed elicitation, then its own abort of a waiting call', async () => {
    arm(lone);
    const c = new Client(
      { name: 'v2', version: '1' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'legacy' } },
    );
    c.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
    const tr = new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
    });
    await c.connect(tr);
    const r = await c.callTool({ name: 'up__ask', arguments: {} });
    expect((r.content as { text: string }[]).at(-1)!.text).toBe('asked decline');
    const requested = nextEvent(t.app, isRequested);
    const ac = new AbortController();
    const by = `v2 ${String(lone)}`;
    const waiting = c.callTool({ name: 'up__write', arguments: { by } }, { signal: ac.signal });
    await requested;
    ac.abort('stop');
    await expect(waiting).rejects.toThrow();
    await left(by);
    const after = await c.callTool({ name: 'up__plain', arguments: { text: 'y' } });
    expect((after.content as { text: string }[]).at(-1)!.text).toBe('plain y');
    await c.close();
  });

  it('a 2025-03-26 session (no MCP-Protocol-Version header on its requests)', async () => {
    arm(lone);
    const init = await raw(
      'POST',
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-03-26',
          capabilities: {},
          clientInfo: { name: 'old', version: '1' },
        },
      },
      {},
    );
    expect(init.status).toBe(200);
    const h = { 'mcp-session-id': transports.at(-1)!.sessionId! };
    await raw('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, h);
    const r = await raw('POST', call(1, 'plain', { text: 'old' }), h);
    record(lone, '2025-03-26', answerShown(r));
  });
  it('with a log level set, five calls whose upstream logs: both paths answer the same (lines on the call stream: main/remote/lone-log-order.review.test.ts)', async () => {
    arm(lone);
    const h = await open();
    const set = await raw(
      'POST',
      { jsonrpc: '2.0', id: 'lvl', method: 'logging/setLevel', params: { level: 'debug' } },
      h,
    );
    expect(set.status).toBe(200);
    const runs: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await raw('POST', call(20 + i, 'chatty'), h);
      const ms = messagesOf(r) as { method?: string; id?: unknown; params?: { data?: unknown } }[];
      runs.push(ms.map((m) => m.method ?? m.id));
    }
    record(lone, 'chatty', runs);
  });
});

describe('a 2026-07-28 call (the hot path) through a real App, review of abort-hooks.ts', () => {
  it('the agent hangs up while the upstream runs the call: the upstream is told', async () => {
    const { running, cancelled } = hanging('2026 hang-up');
    // On the hot path's lone call: its own controller (a CallAbortController) is what the
    // hang-up aborts, and the remote call joined it by a hook.
    const lone = vi.spyOn(
      ModernHotTransport.prototype as unknown as { runLone: () => void },
      'runLone',
    );
    const gone = new AbortController();
    const call = fetch(t.started.mcpUrl, {
      method: 'POST',
      signal: gone.signal,
      headers: {
        authorization: `Bearer ${t.token}`,
        'content-type': 'application/json',
        accept: ACCEPT,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'up__hang',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'up__hang',
          arguments: { by: '2026 hang-up' },
          _meta: {
            [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
            [CLIENT_CAPABILITIES_META_KEY]: {},
            [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1' },
          },
        },
      }),
    }).catch((e: Error) => e.name);
    await running;
    expect(lone).toHaveBeenCalledTimes(1);
    lone.mockRestore();
    gone.abort();
    expect(await call).toBe('AbortError');
    await cancelled; // the upstream's handler saw notifications/cancelled
  });
});

describe('both paths', () => {
  it('showed the same', () => {
    expect(shown.size).toBe(8);
    console.log(
      'chatty',
      JSON.stringify(shown.get('chatty true')),
      JSON.stringify(shown.get('chatty false')),
    );
    expect(shown.get('chatty true')).toEqual(shown.get('chatty false'));
    expect(shown.get('2025-03-26 true')).toEqual(shown.get('2025-03-26 false'));
    expect(shown.get('boom true')).toEqual(shown.get('boom false'));
    expect(shown.get('log true')).toEqual(shown.get('log false'));
  });
});
