import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApprovalView, CoreEvent } from '../../common/contract/index.js';
import { FakeUpstream } from '../../test-support/fake-upstream.js';
import { nextEvent, startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';

/**
 * Issue 34: on a 2025-era session, a POST carrying one request whose answer is the first thing
 * to send is answered as `application/json` (MCP 2025-11-25 "Transports", "Sending Messages to
 * the Server": an event stream "or" one JSON object; the client MUST support both). Real SDK
 * clients of both generations through a real App; what came back is read off the wire by a
 * wrapped fetch. Progress before the answer, or a call waiting for approval, still streams.
 */
let up: FakeUpstream;
let t: RemoteTestApp;

beforeAll(async () => {
  up = new FakeUpstream({
    tools: [
      {
        name: 'plain',
        annotations: { readOnlyHint: true },
        run: async (args) => ({ content: [{ type: 'text', text: `plain ${String(args.text)}` }] }),
      },
      {
        name: 'steps',
        annotations: { readOnlyHint: true },
        run: async (_args, ctx) => {
          await ctx.progress(1, 2);
          await ctx.progress(2, 2);
          return { content: [{ type: 'text', text: 'steps done' }] };
        },
      },
      { name: 'write', annotations: { readOnlyHint: false } },
    ],
  });
  await up.start();
  t = await startRemoteApp();
  await t.app.control.addRemote({ name: 'up', url: up.url });
}, 60_000);

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await t?.stop();
  await up?.stop();
});

interface Answer {
  /** The JSON-RPC method of the POST. */
  method: string;
  type: string | null;
  sessionId: string | null;
}

/** A fetch that records each POST's answer headers; `onHeaders` hears each one as it arrives. */
function recording(answers: Answer[], onHeaders?: (a: Answer) => void): typeof fetch {
  return async (url, init) => {
    const res = await fetch(url, init);
    if (init?.method === 'POST') {
      const body = JSON.parse(String(init.body)) as { method?: string };
      const a = {
        method: body.method ?? '(answer)',
        type: res.headers.get('content-type'),
        sessionId: res.headers.get('mcp-session-id'),
      };
      answers.push(a);
      onHeaders?.(a);
    }
    return res;
  };
}

const text = (r: object) =>
  ((r as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');
const isRequested = (e: CoreEvent): e is { type: 'approval.requested'; approval: ApprovalView } =>
  e.type === 'approval.requested';
const auth = () => ({ headers: { Authorization: `Bearer ${t.token}` } });

async function v1(answers: Answer[], onHeaders?: (a: Answer) => void) {
  const c = new Client1({ name: 'v1', version: '1' });
  const tr = new Transport1(new URL(t.started.mcpUrl), {
    requestInit: auth(),
    fetch: recording(answers, onHeaders),
  });
  await c.connect(tr);
  const steps = (onprogress: (p: { progress: number }) => void) =>
    c.callTool({ name: 'up__steps', arguments: {} }, undefined, { onprogress });
  return { c, sid: tr.sessionId, steps };
}

async function v2(answers: Answer[], onHeaders?: (a: Answer) => void) {
  const c = new Client({ name: 'v2', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  const tr = new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
    requestInit: auth(),
    fetch: recording(answers, onHeaders),
  });
  await c.connect(tr);
  const steps = (onprogress: (p: { progress: number }) => void) =>
    c.callTool({ name: 'up__steps', arguments: {} }, { onprogress });
  return { c, sid: tr.sessionId, steps };
}

describe.each([
  ['SDK 1.x Client', v1],
  ['v2 Client on a 2025 session', v2],
])('%s through Airlock', (name, connect) => {
  it('a plain call (and initialize, tools/list) is answered as application/json with the session id', async () => {
    // The head is held for FIRST_EVENT_WAIT_MS (event-stream.ts) on a timer that, here, never
    // runs: what decides JSON is that the answer came first, not how fast (a loaded machine).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const answers: Answer[] = [];
    const { c, sid } = await connect(answers);
    expect(sid).toBeTruthy();
    await c.listTools();
    const r = await c.callTool({ name: 'up__plain', arguments: { text: 'hi' } });
    expect(text(r)).toMatch(/\nplain hi$/);
    expect(answers.filter((a) => a.method !== 'notifications/initialized')).toEqual([
      { method: 'initialize', type: 'application/json', sessionId: sid },
      { method: 'tools/list', type: 'application/json', sessionId: sid },
      { method: 'tools/call', type: 'application/json', sessionId: sid },
    ]);
    await c.close();
  });

  it('a call that sends progress before its answer streams SSE, progress first', async () => {
    const answers: Answer[] = [];
    const { c, sid, steps } = await connect(answers);
    const seen: string[] = [];
    const r = await steps((p) => seen.push(`progress ${p.progress}`));
    seen.push(text(r).split('\n').at(-1)!);
    expect(seen).toEqual(['progress 1', 'progress 2', 'steps done']);
    expect(answers.at(-1)).toEqual({
      method: 'tools/call',
      type: 'text/event-stream',
      sessionId: sid,
    });
    await c.close();
  });

  it('a call waiting for approval gets its headers (SSE) before the user decides', async () => {
    const answers: Answer[] = [];
    let headersOfCall!: (a: Answer) => void;
    const headers = new Promise<Answer>((r) => (headersOfCall = r));
    const { c, sid } = await connect(answers, (a) => {
      if (a.method === 'tools/call') headersOfCall(a);
    });
    const requested = nextEvent(t.app, isRequested);
    let settled = false;
    const call = c
      .callTool({ name: 'up__write', arguments: { by: name } })
      .finally(() => (settled = true));
    const { approval } = await requested;
    // The status and headers reached the agent while the call still waits for the user.
    expect(await headers).toEqual({
      method: 'tools/call',
      type: 'text/event-stream',
      sessionId: sid,
    });
    expect(settled).toBe(false);
    await t.app.control.decide(approval.id, { kind: 'allow_once' });
    expect((await call).isError).toBeFalsy();
    await c.close();
  });
});
