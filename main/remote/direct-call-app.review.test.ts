import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { agentClient, startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';
import { FakeUpstream, type FakeTool } from '../../test-support/fake-upstream.js';

/**
 * Review of h-up (direct-call.ts) through a real App: two remote servers, each the SDK's own
 * server and Streamable HTTP transport answering with JSON (enableJsonResponse), one connected with
 * direct calls on and one with them off (the connection's option, chosen here by port). The agent
 * calls the same tools on both and must get the same thing: results, tool errors, JSON-RPC
 * errors, big and non-ASCII answers, a call cancelled mid-way, and a stale session's retry.
 */
const off = vi.hoisted(() => new Set<string>());
vi.mock('./http/lean-transport.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('./http/lean-transport.js')>();
  return {
    ...m,
    leanTransport: (...a: Parameters<typeof m.leanTransport>) =>
      m.leanTransport(a[0], a[1], a[2], a[3], !off.has(a[0].port)),
  };
});

/** How many calls went straight to the socket (direct-call.ts), to know the comparison compares. */
const direct = vi.hoisted(() => ({ sends: 0 }));
vi.mock('./http/direct-call.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('./http/direct-call.js')>();
  return {
    ...m,
    directSend: (...a: Parameters<typeof m.directSend>) => {
      direct.sends++;
      return m.directSend(...a);
    },
  };
});

const released: (() => void)[] = [];
const started: ((v: string) => void)[] = [];
const aborted: string[] = [];

function tools(who: string): FakeTool[] {
  const ro = { readOnlyHint: true };
  return [
    {
      name: 'echo',
      annotations: ro,
      run: (args) => Promise.resolve({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
    },
    {
      name: 'fail',
      annotations: ro,
      run: () => Promise.resolve({ isError: true, content: [{ type: 'text', text: 'it failed' }] }),
    },
    { name: 'boom', annotations: ro, run: () => Promise.reject(new Error('kaboom')) },
    {
      name: 'big',
      annotations: ro,
      run: () =>
        Promise.resolve({ content: [{ type: 'text', text: 'é€😀'.repeat(200_000) + 'end' }] }),
    },
    {
      name: 'odd',
      annotations: ro,
      run: () =>
        Promise.resolve({
          content: [{ type: 'text', text: 'x' }],
          structuredContent: { a: 1 },
          _meta: { 'io.example/x': 1 },
          extra: 'field',
        } as CallToolResult),
    },
    {
      name: 'hold',
      annotations: ro,
      run: (_a, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            aborted.push(who);
            resolve({ content: [{ type: 'text', text: 'stopped' }] });
          });
          released.push(() => resolve({ content: [{ type: 'text', text: 'released' }] }));
          started.shift()?.(who);
        }),
    },
    {
      name: 'prog',
      annotations: ro,
      run: async (_a, ctx) => {
        await ctx.progress(1, 2, 'half');
        return { content: [{ type: 'text', text: 'done' }] };
      },
    },
  ];
}

let on: FakeUpstream;
let offUp: FakeUpstream;
let t: RemoteTestApp;
let c: Client;

beforeAll(async () => {
  on = new FakeUpstream({ tools: tools('on'), json: true });
  offUp = new FakeUpstream({ tools: tools('off'), json: true });
  await on.start();
  await offUp.start();
  off.add(String(offUp.port));
  t = await startRemoteApp();
  await t.app.control.addRemote({ name: 'srva', url: on.url });
  await t.app.control.addRemote({ name: 'srvb', url: offUp.url });
  c = await agentClient(t.started.mcpUrl, t.token);
}, 60_000);

afterAll(async () => {
  await c?.close();
  await t?.stop();
  await on?.stop();
  await offUp?.stop();
});

const norm = (v: unknown) => JSON.parse(JSON.stringify(v).replace(/srv[ab]/g, 'srv')) as unknown;

async function callBoth(name: string, args: Record<string, unknown> = {}) {
  const get = (server: string) =>
    c.callTool({ name: `${server}__${name}`, arguments: args }).then(
      (r) => ({ ok: norm(r) }),
      (e: Error) => ({ err: norm(e.message) }),
    );
  const a = await get('srva');
  const b = await get('srvb');
  expect(a).toEqual(b);
  return a;
}

/** What each server received for its tools/call POSTs, as comparable header names and values. */
function callHeaders(up: FakeUpstream) {
  return up.requests
    .filter((r) => r.rpc === 'tools/call')
    .map((r) => {
      const h: Record<string, unknown> = { ...r.headers };
      delete h['host'];
      delete h['mcp-session-id'];
      return h;
    });
}

describe('the agent gets the same through a real App, direct calls on and off', () => {
  for (const [name, args] of [
    ['echo', { s: 'hello', n: 1, deep: { a: [1, 2, { b: null }] } }],
    ['echo', { s: '\u2028\u2029 "quoted" \\ back é😀' }],
    ['fail', {}],
    ['boom', {}],
    ['big', {}],
    ['odd', {}],
    ['nosuch', {}],
  ] as const)
    it(`${name} ${JSON.stringify(args).slice(0, 30)}`, async () => {
      const r = await callBoth(name, args);
      expect(r).toHaveProperty(name === 'nosuch' ? 'err' : 'ok');
    });

  it('a call with progress (not direct) and one without, alike', async () => {
    const get = async (server: string) => {
      const seen: unknown[] = [];
      const r = await c.callTool(
        { name: `${server}__prog`, arguments: {} },
        { onprogress: (p) => seen.push(p) },
      );
      return norm({ r, seen });
    };
    expect(await get('srva')).toEqual(await get('srvb'));
    await callBoth('prog');
  });

  it('the POSTs carry the same headers on both paths', () => {
    const a = callHeaders(on);
    const b = callHeaders(offUp);
    expect(a.length).toBeGreaterThan(5);
    expect(a).toEqual(b);
    // Every plain call to srva went direct (the progress call did not), none to srvb.
    expect(direct.sends).toBe(a.length - 1);
  });

  it('eight calls at once on each', async () => {
    const many = (server: string) =>
      Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          c.callTool({ name: `${server}__echo`, arguments: { i } }).then(norm),
        ),
      );
    expect(await many('srva')).toEqual(await many('srvb'));
  });

  it('the agent cancels a call in flight: the server is told, the next call works', async () => {
    const cancelOne = async (server: string) => {
      const ctl = new AbortController();
      const running = new Promise<string>((r) => started.push(r));
      const p = c
        .callTool({ name: `${server}__hold`, arguments: {} }, { signal: ctl.signal })
        .then(norm, (e: Error) => ({ err: e.message }));
      await running;
      const told = aborted.length;
      ctl.abort('user stop');
      const out = await p;
      // The server hears of it (notifications/cancelled on the 2025 era).
      await new Promise<void>((resolve) => {
        const check = () => (aborted.length > told ? resolve() : setImmediate(check));
        check();
      });
      return { out, who: aborted.at(-1) === (server === 'srva' ? 'on' : 'off') };
    };
    expect(await cancelOne('srva')).toEqual(await cancelOne('srvb'));
    await callBoth('echo', { after: 'cancel' });
  });

  it('the server forgot the session (restart): the call is retried on a new one', async () => {
    const before = [on.initializeCount, offUp.initializeCount];
    on.forgetSessions();
    offUp.forgetSessions();
    const r = await callBoth('echo', { after: 'restart' });
    expect(r).toHaveProperty('ok');
    expect(on.initializeCount - before[0]!).toBe(offUp.initializeCount - before[1]!);
    expect(on.initializeCount).toBeGreaterThan(before[0]!);
  });
});
