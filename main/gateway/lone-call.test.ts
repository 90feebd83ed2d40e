import { Protocol } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoneArm, settled } from '../../test-support/lone-sessions.js';
import { FIRST_EVENT_WAIT_MS } from './event-stream.js';
import { LoneCallServer } from './mcp-handlers/lone-call.js';
import { onAbort } from '../platform/abort-hooks.js';

/**
 * A 2025 session's lone call (mcp-handlers/lone-call.ts) is really taken for an eligible POST —
 * the SDK Server's `_onrequest` is not entered — and not for anything else, so
 * lone-call.property.test.ts cannot pass by comparing the SDK path with itself.
 */
const call = (id: number | string, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 't', arguments: { n: 1 }, ...extra },
});

let onrequest: ReturnType<typeof vi.spyOn>;
let runLone: ReturnType<typeof vi.spyOn>;
const arms: LoneArm[] = [];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  // Before any session connects: directRequests binds `_onrequest` at connect.
  onrequest = vi.spyOn(Protocol.prototype as never, '_onrequest' as never);
  runLone = vi.spyOn(LoneCallServer.prototype, 'runLone');
});
afterEach(async () => {
  for (const a of arms.splice(0)) await a.close();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

async function arm(lone: boolean, capabilities: Record<string, unknown> = {}) {
  const a = new LoneArm(lone);
  arms.push(a);
  await a.open(capabilities);
  onrequest.mockClear();
  runLone.mockClear();
  return a;
}

describe('which POSTs take the lone path', () => {
  it('a plain tools/call does, without entering the SDK dispatch; its answer is one JSON body', async () => {
    const a = await arm(true);
    a.post(call(1, { _meta: { note: 'x' } }));
    await settled();
    expect(a.calls.running).toHaveLength(1);
    a.calls.running[0]!.settle(() => ({ content: [{ type: 'text', text: 'ok' }] }));
    await settled();
    expect(runLone).toHaveBeenCalledTimes(1);
    expect(onrequest).not.toHaveBeenCalled();
    expect(a.seen.slice(-3)).toEqual([
      { res: 2, head: 200, type: 'application/json' },
      {
        res: 2,
        message: { result: { content: [{ type: 'text', text: 'ok' }] }, jsonrpc: '2.0', id: 1 },
      },
      { res: 2, end: true },
    ]);
  });

  it('makes no event stream until one is needed: no close listener, its held head a timer it clears', async () => {
    const a = await arm(true);
    const timers = vi.getTimerCount();
    const res = a.post(call(1));
    await settled();
    // Registered (busy), yet nothing of a stream: no 'close' listener, one timer (the held head).
    expect(a.busy()).toBe(true);
    expect(res.listenerCount('close')).toBe(0);
    expect(vi.getTimerCount()).toBe(timers + 1);
    a.calls.running[0]!.settle(() => ({ content: [] }));
    await settled();
    expect(vi.getTimerCount()).toBe(timers);
    expect(a.busy()).toBe(false);
    expect(a.wire.filter((w) => w.startsWith('2 '))).toEqual([
      '2 head 200 {"content-type":"application/json","content-length":48,"mcp-session-id":"SID"}',
      '2 body {"result":{"content":[]},"jsonrpc":"2.0","id":1}',
      '2 end',
    ]);
  });

  it('makes the full stream when a log line must go first: watched, the answer ends the event stream', async () => {
    const a = await arm(true);
    const res = a.post(call(1));
    await settled();
    const relay = a.calls.running[0]!.opts.relay!;
    void relay.log?.({ level: 'info', data: 'line' })?.catch(() => {});
    await settled();
    expect(res.listenerCount('close')).toBe(1);
    a.calls.running[0]!.settle(() => ({ content: [] }));
    await settled();
    expect(a.seen.filter((x) => x.res === 2).map((x) => Object.keys(x)[1])).toEqual([
      'head',
      'message',
      'message',
      'end',
    ]);
    expect(a.seen.find((x) => x.res === 2 && 'head' in x)).toMatchObject({
      type: 'text/event-stream',
    });
  });

  it.each([
    ['a progress token', call(1, { _meta: { progressToken: 1 } })],
    ['a task', call(1, { task: {} })],
    ['an envelope key', call(1, { _meta: { 'io.modelcontextprotocol/logLevel': 'info' } })],
    ['a batch', [call(1)]],
    ['another method', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
  ])('%s does not', async (_why, body) => {
    const a = await arm(true);
    a.post(body);
    await settled();
    expect(runLone).not.toHaveBeenCalled();
    expect(onrequest).toHaveBeenCalled();
  });

  it('a call of a client that declared URL elicitation does too, its first try told not to wait (noWait)', async () => {
    const a = await arm(true, { elicitation: { url: {} } });
    a.post(call(1));
    await settled();
    expect(runLone).toHaveBeenCalledTimes(1);
    expect(onrequest).not.toHaveBeenCalled();
    expect(a.calls.running[0]!.opts.noWait).toBe(true);
  });

  it('but not where the SDK would not finish an input_required result (no legacy shim step)', async () => {
    const a = await arm(true, { elicitation: { url: {} } });
    const sessions = (a.endpoint as unknown as { sessions: { servers(): unknown[] } }).sessions;
    const server = sessions.servers()[0] as LoneCallServer;
    vi.spyOn(server, 'finishesInputRequired').mockReturnValue(false);
    a.post(call(1));
    await settled();
    expect(runLone).not.toHaveBeenCalled();
    expect(onrequest).toHaveBeenCalledTimes(1);
  });

  it('nor any call where the endpoint is built without it', async () => {
    const a = await arm(false);
    a.post(call(1));
    await settled();
    expect(runLone).not.toHaveBeenCalled();
    expect(onrequest).toHaveBeenCalledTimes(1);
  });
});

describe('a lone call in flight', () => {
  it('keeps the session busy, and its headers go out after FIRST_EVENT_WAIT_MS', async () => {
    const a = await arm(true);
    a.post(call(7));
    await settled();
    const heads = () => a.seen.filter((s) => 'head' in s && s.res === 2);
    expect(heads()).toEqual([]);
    expect(a.busy()).toBe(true);
    vi.advanceTimersByTime(FIRST_EVENT_WAIT_MS);
    expect(heads()).toEqual([{ res: 2, head: 200, type: 'text/event-stream' }]);
    a.calls.running[0]!.settle(() => ({ content: [] }));
    await settled();
    expect(a.seen.at(-2)).toEqual({
      res: 2,
      message: { result: { content: [] }, jsonrpc: '2.0', id: 7 },
    });
    expect(a.busy()).toBe(false);
  });

  it('is aborted by the session closing, with the SDK error Protocol._onclose uses', async () => {
    const a = await arm(true);
    a.post(call(7));
    await settled();
    const { signal } = a.calls.running[0]!.opts;
    a.delete();
    await settled();
    expect(signal!.aborted).toBe(true);
    expect((signal!.reason as Error).message).toBe('Connection closed');
  });
});

describe('a lone call whose steps throw synchronously', () => {
  it('is answered as the SDK answers a handler that throws so, and leaves nothing in flight', async () => {
    const run = async (lone: boolean) => {
      const a = await arm(lone);
      // tools.ts's function for each path (the SDK path's wrapper calls toolCall, the lone path
      // plainCall), made to throw before any promise, as `_onrequest` never lets a handler do.
      const sessions = (a.endpoint as unknown as { sessions: { servers(): unknown[] } }).sessions;
      const server = sessions.servers()[0] as LoneCallServer;
      const thrower = () => {
        throw new Error('sync');
      };
      server.toolCall = thrower;
      server.plainCall = thrower;
      a.post(call(3));
      await settled();
      return { seen: a.seen.slice(3), errors: a.errors, busy: a.busy() };
    };
    const sdk = await run(false);
    const lone = await run(true);
    expect(runLone).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(lone)).toBe(JSON.stringify(sdk));
    expect(lone.seen).toContainEqual({
      res: 2,
      message: { jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'sync' } },
    });
    expect(lone.busy).toBe(false);
  });
});

describe('a call whose steps reject with something that is not an object', () => {
  // `_onrequest` reads `error["code"]` of whatever the handler rejects with: null or undefined
  // threw there, so no answer was sent and the id stayed registered (busy) — the agent waited
  // for ever. Both paths now answer it as an Internal error (call-server.ts `answerable`).
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'text'],
    ['a number', 7],
  ])(
    'rejected with %s: answered as an Internal error on both paths, nothing left in flight',
    async (_why, reason) => {
      const run = async (lone: boolean) => {
        const a = await arm(lone);
        const sessions = (a.endpoint as unknown as { sessions: { servers(): unknown[] } }).sessions;
        const server = sessions.servers()[0] as LoneCallServer;
        const rejecter = () => Promise.reject(reason as unknown as Error);
        server.toolCall = rejecter;
        server.plainCall = rejecter;
        a.post(call(4));
        await settled();
        return { seen: a.seen.slice(3), errors: a.errors, busy: a.busy() };
      };
      const sdk = await run(false);
      const lone = await run(true);
      expect(runLone).toHaveBeenCalledTimes(1);
      for (const path of [sdk, lone]) {
        expect(path.seen).toContainEqual({
          res: 2,
          message: { jsonrpc: '2.0', id: 4, error: { code: -32603, message: 'Internal error' } },
        });
        expect(path.busy).toBe(false);
      }
      expect(JSON.stringify(lone)).toBe(JSON.stringify(sdk));
    },
  );
});

describe('an id reused after its call was cancelled', () => {
  // MCP "Cancellation": the agent cancels request 5, then sends a new request 5. The old call may
  // still be running (its tool has not stopped yet); what it sends late carries relatedRequestId 5,
  // which the session's transport routes by id — to the new call's stream, where the agent would
  // take it for the new call's. A cancelled call's context sends nothing more (answerable-server.ts
  // `buildContext`, lone-call.ts `runLone`).
  it.each([
    ['the lone path', true],
    ['the SDK path', false],
  ])(
    "on %s: the old call's late log line and relayed request never reach the new call",
    async (_why, lone) => {
      const a = await arm(lone, { roots: {} });
      a.post(call(5));
      await settled();
      const old = a.calls.running[0]!;
      a.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } });
      await settled();
      const res = a.post(call(5));
      await settled();
      expect(a.calls.running).toHaveLength(2);
      // The old call, still running, sends a log line and asks the agent something.
      let refused = false;
      void old.opts
        .relay!.log?.({ level: 'info', data: 'from the cancelled call' })
        ?.catch(() => {});
      void old.opts
        .relay!.request({ method: 'roots/list', params: {}, server: 's' })
        .catch(() => void (refused = true));
      await settled();
      a.calls.running[1]!.settle(() => ({ content: [{ type: 'text', text: 'new' }] }));
      await settled();
      const onNew = a.seen.filter((x) => x.res === res.index && 'message' in x);
      expect(onNew).toEqual([
        {
          res: res.index,
          message: { result: { content: [{ type: 'text', text: 'new' }] }, jsonrpc: '2.0', id: 5 },
        },
      ]);
      // The relayed request fails at once rather than waiting for an answer that cannot come.
      expect(refused).toBe(true);
      expect(a.busy()).toBe(false);
    },
  );
});

describe('an id reused after its call was cancelled, with a progress token', () => {
  it("the old call's late progress never reaches the new call (same token, same id)", async () => {
    const a = await arm(true);
    const withToken = call(6, { _meta: { progressToken: 't' } });
    a.post(withToken);
    await settled();
    const old = a.calls.running[0]!;
    a.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 6 } });
    await settled();
    const res = a.post(withToken);
    await settled();
    expect(a.calls.running).toHaveLength(2);
    old.opts.progress?.(1, 2, 'from the cancelled call');
    await settled();
    a.calls.running[1]!.opts.progress?.(1, 2, 'from the new call');
    a.calls.running[1]!.settle(() => ({ content: [] }));
    await settled();
    const onNew = a.seen.filter((x) => x.res === res.index && 'message' in x);
    expect(onNew.map((x) => (x as { message: unknown }).message)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 't', progress: 1, total: 2, message: 'from the new call' },
      },
      { result: { content: [] }, jsonrpc: '2.0', id: 6 },
    ]);
  });
});

describe("the agent's cancel reaches what the call joined to its signal (abort-hooks.ts)", () => {
  // remote-calls.ts joins the call's signal with onAbort: on a lone call's controller (a
  // CallAbortController) a hook, not an EventTarget listener (issue 34); on the SDK path's own
  // controller a `once` listener. Either way the agent's notifications/cancelled must run it, with
  // the reason the agent gave, once — that is what cancels the call upstream.
  it.each([
    ['the lone path', true],
    ['the SDK path', false],
  ])('on %s', async (_why, lone) => {
    const a = await arm(lone);
    a.post(call(7));
    await settled();
    const { signal } = a.calls.running[0]!.opts;
    const added = vi.spyOn(EventTarget.prototype, 'addEventListener');
    const seen: unknown[] = [];
    onAbort(signal, () => seen.push(signal.reason));
    expect(added).toHaveBeenCalledTimes(lone ? 0 : 1);
    a.post({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 7, reason: 'user stop' },
    });
    await settled();
    expect(seen).toEqual(['user stop']);
  });
});
