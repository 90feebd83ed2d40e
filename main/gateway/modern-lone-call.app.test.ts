import { EventEmitter } from 'node:events';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ModernHotTransport } from './modern-hot.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connectClient, startTestApp, type TestApp } from '../../test-support/harness.js';
import type {
  CallToolResult,
  ToolCallContext,
  ToolDefinition,
  ToolSource,
} from '../tools/types.js';

/**
 * The 2026-07-28 lone call (mcp-handlers/modern-lone-call.ts) seen by real clients of a real App:
 * the same traffic — raw HTTP and the stock v2 SDK client — against an App with the lone path
 * (the default) and one without it (`loneCalls: false`) must get the same statuses, headers and
 * bodies, and the tool the same calls and signal states. Written from the spec and the clients'
 * view before reading the implementation in detail (review of h-in26): concurrent calls, one
 * request id twice, a hang-up mid-call, a call waiting for approval, errors of each kind, results
 * with structuredContent/_meta/isError, a huge result. No clock: waits are on the tool's events.
 */

const HUGE = 'x'.repeat(3 << 20);

class Tools implements ToolSource {
  readonly id = 'lone';
  readonly kind = 'test' as const;
  readonly label = 'Lone';
  readonly prefix = '';
  readonly changes = new EventEmitter();
  held: { resolve: (r: CallToolResult) => void; i: unknown }[] = [];
  aborts: string[] = [];
  private readonly defs: ToolDefinition[] = [
    ...[
      'lone_roots',
      'lone_plain',
      'lone_rich',
      'lone_throw',
      'lone_string',
      'lone_huge',
      'lone_hold',
    ].map((name) => ({
      name,
      description: name,
      inputSchema: { type: 'object' as const, properties: { i: { type: 'number' } } },
      trustedReadOnly: true,
    })),
    {
      name: 'lone_send',
      description: 'Sends; asks first.',
      inputSchema: { type: 'object', properties: { to: { type: 'string', minLength: 3 } } },
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
  ];
  ready() {
    return Promise.resolve();
  }
  status() {
    return { state: 'ready' as const };
  }
  tools() {
    return this.defs;
  }
  onChange() {
    return () => {};
  }
  call(tool: string, args: Record<string, unknown>, ctx: ToolCallContext): Promise<CallToolResult> {
    switch (tool) {
      case 'lone_plain':
      case 'lone_send':
        return Promise.resolve({
          content: [{ type: 'text', text: `${tool} ${JSON.stringify(args)}` }],
        });
      case 'lone_rich':
        return Promise.resolve({
          content: [{ type: 'text', text: 'rich' }],
          structuredContent: { n: 1 },
          isError: true,
          _meta: { 'x/y': 2 },
        } as CallToolResult);
      case 'lone_throw':
        return Promise.reject(new Error('the upstream broke'));
      case 'lone_string':
        return Promise.reject('a bare string' as unknown as Error);
      case 'lone_roots':
        return ctx
          .relay!.request({ method: 'roots/list', params: {}, server: 'lone' })
          .then((got) => ({ content: [{ type: 'text', text: `roots ${JSON.stringify(got)}` }] }));
      case 'lone_huge':
        return Promise.resolve({ content: [{ type: 'text', text: HUGE }] });
      default:
        return new Promise<CallToolResult>((resolve, reject) => {
          this.held.push({ resolve, i: args['i'] });
          ctx.signal?.addEventListener(
            'abort',
            () => {
              const reason = ctx.signal!.reason as Error | undefined;
              this.aborts.push(`${reason?.name}: ${reason?.message}`);
              reject(new Error('cancelled'));
              this.changes.emit('change');
            },
            { once: true },
          );
          this.changes.emit('change');
        });
    }
  }
}

function until(changes: EventEmitter, ready: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!ready()) return;
      changes.off('change', check);
      resolve();
    };
    changes.on('change', check);
    check();
  });
}

interface Side {
  t: TestApp;
  tools: Tools;
  token: string;
}

const sides: Record<'lone' | 'sdk', Side> = {} as never;

beforeAll(async () => {
  for (const [key, loneCalls] of [
    ['lone', true],
    ['sdk', false],
  ] as const) {
    const tools = new Tools();
    const t = await startTestApp({
      sources: [tools],
      app: { loneCalls },
      settings: { tools: { 'lone/lone_send': { approval: 'ask' } } },
    });
    sides[key] = { t, tools, token: t.token };
  }
}, 60_000);
afterAll(async () => {
  for (const s of Object.values(sides)) await s.t.stop();
});

/** A raw 2026-07-28 tools/call, as an everyday agent sends it. */
async function raw(s: Side, id: unknown, name: string, args: unknown, signal?: AbortSignal) {
  const res = await fetch(s.t.started.mcpUrl, {
    method: 'POST',
    signal: signal ?? null,
    headers: {
      authorization: `Bearer ${s.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
          [CLIENT_CAPABILITIES_META_KEY]: {},
          [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1' },
        },
      },
    }),
  });
  const headers = Object.fromEntries(
    [...res.headers].filter(([k]) => !['date', 'keep-alive', 'connection'].includes(k)),
  );
  const body = (await res.text()).replace(
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
    'UUID',
  );
  return { status: res.status, headers, body };
}

/** Calls that took the lone path (in this process: either App's). */
const loneRuns = vi.spyOn(
  ModernHotTransport.prototype as unknown as { runLone: () => void },
  'runLone',
);

/** Runs `scenario` on both Apps and requires the same answers, the lone App's on its path. */
async function same<T>(scenario: (s: Side) => Promise<T>): Promise<T> {
  const before = loneRuns.mock.calls.length;
  const sdk = await scenario(sides.sdk);
  expect(loneRuns.mock.calls.length).toBe(before);
  const lone = await scenario(sides.lone);
  expect(loneRuns.mock.calls.length).toBeGreaterThan(before);
  expect(lone).toEqual(sdk);
  return lone;
}

describe('2026-07-28 lone call against real clients: the same as the SDK path', () => {
  it.each([
    ['a plain result', 'lone_plain', { i: 1 }],
    ['structuredContent, _meta and isError', 'lone_rich', {}],
    ['an Error thrown', 'lone_throw', {}],
    ['a string thrown', 'lone_string', {}],
    ['an unknown tool', 'lone_nope', {}],
    ['arguments the schema refuses', 'lone_plain', { i: 'one' }],
    ['a huge result (3 MiB)', 'lone_huge', {}],
  ])('%s', async (_what, name, args) => {
    const got = await same((s) => raw(s, 7, name, args));
    expect(got.body.length).toBeGreaterThan(20);
  });

  it('the same request id twice at once on one agent: each answered with its own result', async () => {
    const got = await same(async (s) => {
      const both = [raw(s, 1, 'lone_hold', { i: 1 }), raw(s, 1, 'lone_hold', { i: 2 })];
      await until(s.tools.changes, () => s.tools.held.length === 2);
      for (const h of s.tools.held.splice(0))
        h.resolve({ content: [{ type: 'text', text: `held ${String(h.i)}` }] });
      return (await Promise.all(both)).map((a) => a.body).sort();
    });
    expect(got.join()).toMatch(/held 1.*held 2/);
  });

  it('two escalations at once on one agent: each answer carries its own outcome', async () => {
    const got = await same(async (s) => {
      const calls = [1, 2, 3].map((i) => raw(s, 'same', 'lone_hold', { i }));
      await until(s.tools.changes, () => s.tools.held.length === 3);
      // Released in one turn, last first: results the SDK must check (structuredContent), so
      // every one is escalated while the others' outcomes are preset too.
      for (const h of s.tools.held.splice(0).reverse())
        h.resolve({
          content: [{ type: 'text', text: `held ${String(h.i)}` }],
          structuredContent: { i: h.i },
        } as CallToolResult);
      return Promise.all(calls);
    });
    for (const [k, a] of got.entries()) {
      expect(a.body).toContain(`held ${k + 1}`);
      expect(a.body).toContain(`"structuredContent":{"i":${k + 1}}`);
    }
  });

  it("a hang-up mid-call aborts the tool's call with the SDK's reason; the agent's next call is served", async () => {
    const got = await same(async (s) => {
      const gone = new AbortController();
      const call = raw(s, 3, 'lone_hold', { i: 3 }, gone.signal).catch((e: Error) => e.name);
      await until(s.tools.changes, () => s.tools.held.length === 1);
      gone.abort();
      await until(s.tools.changes, () => s.tools.aborts.length === 1);
      s.tools.held.splice(0);
      const aborts = s.tools.aborts.splice(0);
      return { hungUp: await call, aborts, next: await raw(s, 4, 'lone_plain', {}) };
    });
    expect(got.aborts).toEqual(['SdkError: Connection closed']);
    expect(got.next.body).toContain('lone_plain {}');
  });

  it("a call waiting for the user's approval is answered once allowed", async () => {
    const got = await same(async (s) => {
      const asked = new Promise<string>((resolve) => {
        const off = s.t.app.events.subscribe((e) => {
          if (e.type === 'approval.requested') {
            off();
            resolve(e.approval.id);
          }
        });
      });
      const call = raw(s, 5, 'lone_send', { to: 'bob' });
      await s.t.app.control.decide(await asked, { kind: 'allow_once' });
      return call;
    });
    expect(got.body).toContain('lone_send {\\"to\\":\\"bob\\"}');
  });

  it('an agent hanging up on a call waiting for approval: the same pending approvals after, the same answer once decided', async () => {
    const got = await same(async (s) => {
      const requested = new Promise<string>((resolve) => {
        const off = s.t.app.events.subscribe((e) => {
          if (e.type === 'approval.requested') {
            off();
            resolve(e.approval.id);
          }
        });
      });
      const gone = new AbortController();
      const call = raw(s, 6, 'lone_send', { to: 'carol' }, gone.signal).catch((e: Error) => e.name);
      const id = await requested;
      const updated = new Promise<void>((resolve) => {
        const off = s.t.app.events.subscribe((e) => {
          if (e.type === 'approval.updated') {
            off();
            resolve();
          }
        });
      });
      gone.abort();
      const hungUp = await call;
      // The call's end reaches the approval: the agent left it (approval.updated), pending for
      // the user through the cancel grace (approvals/engine.ts onAbort).
      await updated;
      const pending = (await s.t.app.control.listPending()).map((p) => [p.agent, p.tool]);
      await s.t.app.control.decide(id, { kind: 'deny' }).catch((e: Error) => e.message);
      return { hungUp, pending };
    });
    expect(got.hungUp).toBe('AbortError');
    expect(got.pending).toEqual([['test', 'lone_send']]);
  });

  it('the per-agent cap on calls in flight: the call over it is refused alike, and the slot comes back', async () => {
    const got = await same(async (s) => {
      await s.t.app.settings.update((d) => {
        d.limits.callsInFlightPerAgent = 1;
      });
      const first = raw(s, 1, 'lone_hold', { i: 1 });
      await until(s.tools.changes, () => s.tools.held.length === 1);
      const refused = await raw(s, 2, 'lone_plain', {});
      s.tools.held.splice(0)[0]!.resolve({ content: [{ type: 'text', text: 'first' }] });
      const out = { refused, first: await first, after: await raw(s, 3, 'lone_plain', {}) };
      await s.t.app.settings.update((d) => {
        d.limits.callsInFlightPerAgent = 64;
      });
      return out;
    });
    expect(got.refused.body).toMatch(/callsInFlightPerAgent/);
    expect(got.after.body).toContain('lone_plain {}');
  });

  it('an agent revoked mid-call: what its open call and its next call get is the same', async () => {
    const got = await same(async (s) => {
      const name = 'revoked-mid-call';
      const agent = { ...s, token: (await s.t.app.control.addAgent(name)).token };
      const open = raw(agent, 1, 'lone_hold', { i: 9 });
      await until(s.tools.changes, () => s.tools.held.length === 1);
      await s.t.app.control.revokeAgent(name);
      const next = await raw(agent, 2, 'lone_plain', {});
      s.tools.held.splice(0)[0]?.resolve({ content: [{ type: 'text', text: 'late' }] });
      const aborts = s.tools.aborts.splice(0);
      return { next, open: await open, aborts };
    });
    expect(got.next.status).toBe(401);
    // Pre-existing on both paths: the open call of an agent revoked mid-call still gets its answer.
    expect(got.open.body).toContain('late');
  });

  it('the stock v2 SDK client answers an input round (roots/list) and its retry gets the result', async () => {
    const got = await same(async (s) => {
      const client = new Client(
        { name: 'roots-client', version: '1.0.0' },
        { versionNegotiation: { mode: 'auto' }, capabilities: { roots: {} } },
      );
      let asked = 0;
      client.setRequestHandler('roots/list', () => {
        asked += 1;
        return { roots: [{ uri: 'file:///work', name: 'work' }] };
      });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(s.t.started.mcpUrl), {
          requestInit: { headers: { Authorization: `Bearer ${s.token}` } },
        }),
      );
      const out = [await client.callTool({ name: 'lone_roots', arguments: {} }), asked];
      await client.close();
      return out;
    });
    expect(JSON.stringify(got)).toContain('file:///work');
    expect(got[1]).toBe(1);
  });

  it('the stock v2 SDK client (auto: 2026-07-28) gets the same results and errors', async () => {
    await same(async (s) => {
      const client = await connectClient(s.t.started.mcpUrl, s.token, 'auto');
      const out: unknown[] = [];
      for (const [name, args] of [
        ['lone_plain', { i: 2 }],
        ['lone_rich', {}],
        ['lone_throw', {}],
        ['lone_nope', {}],
      ] as const)
        out.push(
          await client
            .callTool({ name, arguments: args })
            .catch((e: Error) => `threw ${e.message}`),
        );
      await client.close();
      return out;
    });
  });
});
