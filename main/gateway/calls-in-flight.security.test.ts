import { EventEmitter } from 'node:events';
import type { Client } from '@modelcontextprotocol/client';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectClient, startTestApp, textOf, type TestApp } from '../../test-support/harness.js';
import { asTask, taskAgent } from '../../test-support/task-agent.js';
import { DEFAULT_CALLS_IN_FLIGHT } from '../platform/settings.js';
import type {
  CallToolResult,
  ToolCallContext,
  ToolDefinition,
  ToolSource,
} from '../tools/types.js';

/**
 * The per-agent cap on tool calls in flight (budgets.ts CallsInFlight, docs/security.md "Cannot
 * exhaust the machine"): one agent's flood of N+k calls at once against a tool that holds every
 * call until the test lets it go gets exactly N in and k refused as tool errors naming the limit;
 * another agent is still served; and the count goes back to 0 however a call ends — an answer,
 * an error, the agent's cancellation, the agent hanging up — which a second flood shows: exactly
 * N in again, k refused. Driven by the stock v2 SDK client in both eras and by raw HTTP in both.
 * No clock: every wait is on the calls themselves (arrivals at the tool, answers received).
 */

/** A tool that holds each call until released, or until its signal is aborted (then it throws). */
class GateSource implements ToolSource {
  readonly id = 'gate';
  readonly kind = 'test' as const;
  readonly label = 'Gate';
  readonly prefix = '';
  readonly changes = new EventEmitter();
  arrived = 0;
  aborted = 0;
  private held: { resolve: (r: CallToolResult) => void; reject: (e: Error) => void }[] = [];
  private readonly defs: ToolDefinition[] = [
    {
      name: 'gate_wait',
      description: 'Waits at the gate.',
      inputSchema: { type: 'object', properties: { i: { type: 'number' } } },
      trustedReadOnly: true,
      // Task-augmented calls too (MCP 2025-11-25 tasks): a task's call is a call in flight.
      execution: { taskSupport: 'optional' },
    },
    {
      name: 'gate_roots',
      description: "Asks for the agent's roots, then answers.",
      inputSchema: { type: 'object', properties: {} },
      trustedReadOnly: true,
    },
    {
      name: 'gate_send',
      description: 'Sends at once; asks first.',
      inputSchema: { type: 'object', properties: { i: { type: 'number' } } },
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
  call(tool: string, _args: Record<string, unknown>, ctx: ToolCallContext) {
    if (tool === 'gate_roots')
      return ctx
        .relay!.request({ method: 'roots/list', params: {}, server: 'gate' })
        .then((got): CallToolResult => ({
          content: [{ type: 'text', text: JSON.stringify(got) }],
        }));
    if (tool === 'gate_send')
      return Promise.resolve<CallToolResult>({ content: [{ type: 'text', text: 'sent' }] });
    this.arrived += 1;
    return new Promise<CallToolResult>((resolve, reject) => {
      this.held.push({ resolve, reject });
      ctx.signal?.addEventListener(
        'abort',
        () => {
          this.aborted += 1;
          reject(new Error('cancelled'));
          this.changes.emit('change');
        },
        { once: true },
      );
      this.changes.emit('change');
    });
  }
  /** Lets every held call go: with an answer, or failing. */
  release(how: 'ok' | 'error'): void {
    for (const h of this.held.splice(0)) {
      if (how === 'ok') h.resolve({ content: [{ type: 'text', text: 'done' }] });
      else h.reject(new Error('the upstream broke'));
    }
  }
}

/** Resolves once `ready()` holds, checked whenever the gate or an answer changes something. */
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

const REFUSAL =
  /^Refused: agent "[^"]+" already has (\d+) tool calls in flight, Airlock's limit per agent \((\d+)\); this call was not run\. Wait for some of them/;

interface Answer {
  isError: boolean;
  text: string;
}

/** Makes call number `i` as one agent; `signal` aborts it (cancel or hang up, by the caller's kind). */
type Caller = (i: number, signal: AbortSignal) => Promise<Answer>;

let t: TestApp;
const gate = new GateSource();

beforeAll(async () => {
  t = await startTestApp({
    sources: [gate],
    settings: {
      tools: {
        'gate/gate_wait': { approval: 'auto' },
        'gate/gate_roots': { approval: 'auto' },
        'gate/gate_send': { approval: 'ask' },
      },
    },
  });
});
afterAll(async () => {
  gate.release('ok');
  await t.stop();
});

const setLimit = (n: number) =>
  t.app.settings.update((d) => {
    d.limits.callsInFlightPerAgent = n;
  });

/**
 * Sends n+k calls at once through `call` and waits until the gate holds its share and the rest
 * are answered (n + k in all, so a broken cap fails the assertions instead of hanging). Returns the
 * answers received and the controllers of every call.
 */
async function flood(call: Caller, n: number, k: number, limit = n) {
  const before = gate.arrived;
  const answered: Answer[] = [];
  const controllers = Array.from({ length: n + k }, () => new AbortController());
  // The answered ones: only the calls still held are cancelled or hung up on.
  const settled = new Set<AbortController>();
  const all = controllers.map((c, i) =>
    call(i, c.signal).then(
      (a) => {
        answered.push(a);
        settled.add(c);
        gate.changes.emit('change');
        return a;
      },
      // A cancelled call's client throws: kept as an answer, so no rejection goes unhandled.
      (err: unknown): Answer => {
        const a = { isError: true, text: `threw: ${String(err)}` };
        answered.push(a);
        settled.add(c);
        gate.changes.emit('change');
        return a;
      },
    ),
  );
  await until(gate.changes, () => gate.arrived - before + answered.length >= n + k);
  expect(gate.arrived - before).toBe(n);
  expect(answered).toHaveLength(k);
  for (const a of answered) {
    expect(a.isError).toBe(true);
    expect(a.text).toMatch(REFUSAL);
    const [, has, named] = REFUSAL.exec(a.text)!;
    expect(Number(has)).toBe(limit);
    expect(Number(named)).toBe(limit);
  }
  return { all, controllers: controllers.filter((c) => !settled.has(c)) };
}

/** The stock SDK client, over `sessions` sessions (2025 era) or stateless (2026-07-28). */
async function sdkCaller(token: string, mode: 'legacy' | 'auto', sessions = 1) {
  const clients: Client[] = [];
  for (let s = 0; s < sessions; s++)
    clients.push(await connectClient(t.started.mcpUrl, token, mode));
  const call: Caller = async (i, signal) => {
    const r = await clients[i % clients.length]!.callTool(
      { name: 'gate_wait', arguments: { i } },
      { signal },
    );
    return { isError: r.isError === true, text: textOf(r) };
  };
  return { call, close: () => Promise.all(clients.map((c) => c.close())) };
}

/** The 1.x SDK's client (2025 era), as some agents still ship it. */
async function sdk1Caller(token: string) {
  const client = await taskAgent(t.started.mcpUrl, token);
  const call: Caller = async (i, signal) => {
    const r = (await client.callTool({ name: 'gate_wait', arguments: { i } }, undefined, {
      signal,
    })) as CallToolResult;
    return { isError: r.isError === true, text: textOf(r) };
  };
  return { call, close: () => client.close() };
}

const headers = (token: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...extra,
});

/** The JSON-RPC answer in a POST's response, sent as one JSON object or as an event stream. */
async function rpcAnswer(res: Response): Promise<Record<string, unknown>> {
  const body = await res.text();
  const messages = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? body
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => JSON.parse(l.slice(5)) as Record<string, unknown>)
    : [JSON.parse(body) as Record<string, unknown>];
  const answer = messages.find((m) => 'result' in m || 'error' in m);
  if (!answer) throw new Error(`no answer in ${res.status} ${body}`);
  return answer;
}

const answerOf = (m: Record<string, unknown>): Answer => {
  if (m.error) return { isError: true, text: JSON.stringify(m.error) };
  const r = m.result as CallToolResult;
  return { isError: r.isError === true, text: textOf(r) };
};

/** Raw HTTP, 2025 era: one session made by hand, every call a POST on it. */
async function rawLegacyCaller(token: string, tool = 'gate_wait'): Promise<Caller> {
  const init = await fetch(t.started.mcpUrl, {
    method: 'POST',
    headers: headers(token),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    }),
  });
  const session = init.headers.get('mcp-session-id')!;
  await init.body?.cancel();
  const h = headers(token, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' });
  await (
    await fetch(t.started.mcpUrl, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    })
  ).body?.cancel();
  return async (i, signal) => {
    const res = await fetch(t.started.mcpUrl, {
      method: 'POST',
      headers: h,
      signal,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: { name: tool, arguments: { i } },
      }),
    });
    return answerOf(await rpcAnswer(res));
  };
}

/** Raw HTTP, 2026-07-28: every call its own stateless request. */
function rawModernCaller(token: string): Caller {
  return async (i, signal) => {
    const res = await fetch(t.started.mcpUrl, {
      method: 'POST',
      headers: headers(token, {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'gate_wait',
      }),
      signal,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: {
          name: 'gate_wait',
          arguments: { i },
          _meta: {
            [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
            [CLIENT_CAPABILITIES_META_KEY]: {},
            [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1' },
          },
        },
      }),
    });
    return answerOf(await rpcAnswer(res));
  };
}

const newAgent = async (name: string) => (await t.app.control.addAgent(name)).token;

/** Lets the held calls end by `how` and waits until the server has seen every one end. */
async function end(
  how: 'ok' | 'error' | 'cancel' | 'hangup',
  run: { all: Promise<Answer>[]; controllers: AbortController[] },
  held: number,
) {
  if (how === 'ok' || how === 'error') {
    gate.release(how);
    const settled = await Promise.allSettled(run.all);
    const ran = settled.filter((s) => s.status === 'fulfilled' && !REFUSAL.test(s.value.text));
    expect(ran).toHaveLength(held);
    for (const s of ran) {
      const a = (s as PromiseFulfilledResult<Answer>).value;
      if (how === 'ok') expect(a).toEqual({ isError: false, text: 'done' });
      else expect(a.text).toMatch(/failed: the upstream broke/);
    }
    return;
  }
  const aborted = gate.aborted;
  for (const c of run.controllers) c.abort();
  if (how === 'cancel') {
    // notifications/cancelled (2025) or the request's end (2026-07-28) reaches the tool's signal.
    await until(gate.changes, () => gate.aborted - aborted >= held);
  } else {
    // Hanging up need not cancel (2025: a disconnection is not a cancellation); the tool then
    // answers into the void, and the call must still give its slot back.
    await Promise.allSettled(run.all);
    gate.release('ok');
  }
  await Promise.allSettled(run.all);
}

describe('tool calls in flight, per agent', () => {
  it(`the default is ${DEFAULT_CALLS_IN_FLIGHT}, read from settings`, () => {
    expect(t.app.settings.get().limits.callsInFlightPerAgent).toBe(DEFAULT_CALLS_IN_FLIGHT);
  });

  it('the stock SDK client over three 2025 sessions: N in, k refused naming the limit, another agent served, the Activity row written', async () => {
    setLimit(6);
    const flooder = await sdkCaller(await newAgent('flood-sdk'), 'legacy', 3);
    const run = await flood(flooder.call, 6, 4);
    // Another agent is served while this one is at its limit: its call reaches the tool.
    const other = await sdkCaller(await newAgent('bystander-sdk'), 'auto');
    const arrived = gate.arrived;
    let early: Answer | undefined;
    const theirs = other.call(0, new AbortController().signal).then((a) => {
      early = a;
      gate.changes.emit('change');
      return a;
    });
    // Its call reaches the tool (held there), rather than being answered at once.
    await until(gate.changes, () => gate.arrived > arrived || early !== undefined);
    expect(early).toBeUndefined();
    expect(gate.arrived).toBe(arrived + 1);
    await end('ok', run, 6);
    await expect(theirs).resolves.toEqual({ isError: false, text: 'done' });
    const rows = await t.app.control.listActivity({ agent: 'flood-sdk' });
    const refusedRows = rows.filter((r) => r.decision === 'rejected');
    expect(refusedRows).toHaveLength(4);
    for (const r of refusedRows) {
      expect(r.tool).toBe('gate_wait');
      expect(r.detail).toMatch(/tool calls in flight/);
    }
    await Promise.all([flooder.close(), other.close()]);
  });

  const kinds = ['ok', 'error', 'cancel', 'hangup'] as const;
  const eras = [
    ['SDK client, 2025 sessions', (tok: string) => sdkCaller(tok, 'legacy', 2)],
    ['SDK client, 2026-07-28', (tok: string) => sdkCaller(tok, 'auto')],
    ['1.x SDK client, 2025 session', (tok: string) => sdk1Caller(tok)],
    [
      'raw HTTP, a 2025 session',
      async (tok: string) => ({ call: await rawLegacyCaller(tok), close: async () => {} }),
    ],
    [
      'raw HTTP, 2026-07-28',
      (tok: string) => Promise.resolve({ call: rawModernCaller(tok), close: async () => {} }),
    ],
  ] as const;

  for (const [era, make] of eras)
    for (const how of kinds) {
      // The SDK client cancels (notifications/cancelled, or the request's end); raw HTTP hangs up.
      if (era.includes('SDK') && how === 'hangup') continue;
      if (era.startsWith('raw') && how === 'cancel') continue;
      it(`${era}: after ${how}, the count is back to 0 (N in and k refused again)`, async () => {
        setLimit(5);
        const agent = `ends-${era.replace(/\W+/g, '-')}-${how}`;
        const caller = await make(await newAgent(agent));
        await end(how, await flood(caller.call, 5, 2), 5);
        const again = await flood(caller.call, 5, 2);
        await end('ok', again, 5);
        await caller.close();
      });
    }

  it('generated limits, flood sizes and eras: exactly k refused, and nothing kept after', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom(0, 1, 2, 3, 4),
        fc.constantFrom('ok', 'error'),
        async (limit, k, which, how) => {
          setLimit(limit);
          const caller = await eras[which]![1](await newAgent(`gen-${n++}`));
          await end(how, await flood(caller.call, limit, k), limit);
          await end('ok', await flood(caller.call, limit, 1), limit);
          await caller.close();
        },
      ),
      { numRuns: 12 },
    );
  });

  it("calls waiting for the user's approval hold their slots until decided; the cap never refuses them once in", async () => {
    setLimit(4);
    const token = await newAgent('asks');
    const client = await connectClient(t.started.mcpUrl, token);
    let requested = 0;
    const off = t.app.events.subscribe((e) => {
      if (e.type === 'approval.requested' && e.approval.agent === 'asks') {
        requested += 1;
        gate.changes.emit('change');
      }
    });
    const asked = [0, 1, 2].map((i) =>
      client.callTool({ name: 'gate_send', arguments: { i } }).then((r) => textOf(r)),
    );
    await until(gate.changes, () => requested === 3);
    off();
    // Three parked, one slot left: one call in, the other two refused naming 4 in flight.
    const caller = await sdkCaller(token, 'legacy');
    const run = await flood(caller.call, 1, 2, 4);
    const pending = (await t.app.control.listPending()).filter((p) => p.agent === 'asks');
    expect(pending).toHaveLength(3);
    // The user decides: the parked calls are answered (the allowed one runs) and let go.
    await t.app.control.decide(pending[0]!.id, { kind: 'allow_once' });
    for (const p of pending.slice(1)) await t.app.control.decide(p.id, { kind: 'deny' });
    const answers = await Promise.all(asked);
    expect(answers.filter((a) => a === 'sent')).toHaveLength(1);
    expect(answers.filter((a) => /denied/i.test(a))).toHaveLength(2);
    await end('ok', run, 1);
    await end('ok', await flood(caller.call, 4, 1), 4);
    await Promise.all([client.close(), caller.close()]);
  });

  it('task-augmented calls count: N tasks run, k end with the refusal as their result', async () => {
    setLimit(3);
    const agent = await taskAgent(t.started.mcpUrl, await newAgent('tasks'));
    const before = gate.arrived;
    const created = await Promise.all(
      Array.from({ length: 5 }, (_, i) => asTask(agent, 'gate_wait', { i })),
    );
    let refused = 0;
    const results = created.map((c) =>
      agent.experimental.tasks.getTaskResult(c.task.taskId, CallToolResultSchema).then((r) => {
        if (REFUSAL.test(textOf(r))) refused += 1;
        gate.changes.emit('change');
        return r;
      }),
    );
    await until(gate.changes, () => gate.arrived - before + refused >= 5);
    expect(gate.arrived - before).toBe(3);
    expect(refused).toBe(2);
    gate.release('ok');
    const all = await Promise.all(results);
    expect(all.filter((r) => textOf(r) === 'done')).toHaveLength(3);
    const plain = await sdk1Caller(await newAgent('tasks-after'));
    await end('ok', await flood(plain.call, 3, 1), 3);
    await Promise.all([agent.close(), plain.close()]);
  });

  it(`held out: the default ${DEFAULT_CALLS_IN_FLIGHT} over raw 2026-07-28 requests, 3 refused`, async () => {
    setLimit(DEFAULT_CALLS_IN_FLIGHT);
    const call = rawModernCaller(await newAgent('held-out'));
    await end('ok', await flood(call, DEFAULT_CALLS_IN_FLIGHT, 3), DEFAULT_CALLS_IN_FLIGHT);
  });

  describe('calls waiting for approval give their slots back', () => {
    // The longest wait a call may be held for approval (settings.ts, 300 s): what frees a slot in
    // the tests below is the decision, the cancellation or the revocation, never the wait's end.
    const longWait = (seconds: number) =>
      t.app.settings.update((d) => {
        d.approvals.waitSeconds = seconds;
      });
    beforeEach(() => longWait(300));
    afterEach(() => longWait(45));

    /** Resolves with the next approval request of `agent`, as the UIs are told of it. */
    const requested = (agent: string) =>
      new Promise<string>((resolve) => {
        const off = t.app.events.subscribe((e) => {
          if (e.type !== 'approval.requested' || e.approval.agent !== agent) return;
          off();
          resolve(e.approval.id);
        });
      });

    it('2025, raw HTTP: a call waiting for approval that the agent hung up on keeps its slot until the user decides, then gives it back', async () => {
      setLimit(3);
      const token = await newAgent('hangs-up-asking');
      const ask = await rawLegacyCaller(token, 'gate_send');
      const hangUp = new AbortController();
      const id = requested('hangs-up-asking');
      const asked = ask(0, hangUp.signal).catch(() => null);
      const approval = await id;
      // A disconnection is not a cancellation (MCP 2025-11-25, transports): the call still waits.
      hangUp.abort();
      await asked;
      const caller = await rawLegacyCaller(token);
      await end('ok', await flood(caller, 2, 1, 3), 2);
      // Decided after the agent left: the waiting call ends, and its slot with it.
      await t.app.control.decide(approval, { kind: 'deny' });
      await end('ok', await flood(caller, 3, 1), 3);
    });

    it('an SDK client cancelling a call waiting for approval gives its slot back', async () => {
      setLimit(3);
      const token = await newAgent('cancels-asking');
      const client = await connectClient(t.started.mcpUrl, token, 'legacy');
      const cancel = new AbortController();
      const id = requested('cancels-asking');
      const asked = client
        .callTool({ name: 'gate_send', arguments: { i: 0 } }, { signal: cancel.signal })
        .catch(() => null);
      const approval = await id;
      // The engine marks the card "agent left" once the cancellation reached the waiting call.
      const left = new Promise<void>((resolve) => {
        const off = t.app.events.subscribe((e) => {
          if (
            e.type !== 'approval.updated' ||
            e.approval.id !== approval ||
            !e.approval.agentLeftAt
          )
            return;
          off();
          resolve();
        });
      });
      cancel.abort();
      await Promise.all([asked, left]);
      const caller = await sdkCaller(token, 'legacy');
      await end('ok', await flood(caller.call, 3, 1), 3);
      await Promise.all([client.close(), caller.close()]);
    });

    it("a revoked agent's calls waiting for approval give their slots back: the same name added again has all N", async () => {
      setLimit(3);
      const token = await newAgent('revoked-asking');
      const client = await connectClient(t.started.mcpUrl, token, 'legacy');
      const asked: Promise<unknown>[] = [];
      for (let i = 0; i < 3; i++) {
        const id = requested('revoked-asking');
        asked.push(client.callTool({ name: 'gate_send', arguments: { i } }).catch(() => null));
        await id;
      }
      await t.app.control.revokeAgent('revoked-asking');
      await Promise.all(asked);
      const again = await sdkCaller(await newAgent('revoked-asking'), 'legacy');
      await end('ok', await flood(again.call, 3, 1), 3);
      await Promise.all([client.close().catch(() => {}), again.close()]);
    });
  });

  it('2026-07-28: a call answered input_required keeps its one slot until its retry ends it; the retry takes none', async () => {
    setLimit(3);
    const token = await newAgent('input-rounds');
    const roots = (id: number, extra: Record<string, unknown>) =>
      fetch(t.started.mcpUrl, {
        method: 'POST',
        headers: headers(token, {
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'gate_roots',
        }),
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: {
            name: 'gate_roots',
            arguments: {},
            ...extra,
            _meta: {
              [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
              [CLIENT_CAPABILITIES_META_KEY]: { roots: {} },
              [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1' },
            },
          },
        }),
      }).then(rpcAnswer);
    const first = (await roots(1, {})).result as {
      resultType: string;
      requestState: string;
      inputRequests: Record<string, unknown>;
    };
    expect(first.resultType).toBe('input_required');
    // The call goes on upstream while the agent answers: it holds its slot.
    const caller = rawModernCaller(token);
    await end('ok', await flood(caller, 2, 1, 3), 2);
    const [key] = Object.keys(first.inputRequests);
    const last = answerOf(
      await roots(2, {
        requestState: first.requestState,
        inputResponses: { [key!]: { roots: [{ uri: 'file:///r' }] } },
      }),
    );
    expect(last).toEqual({ isError: false, text: '{"roots":[{"uri":"file:///r"}]}' });
    await end('ok', await flood(caller, 3, 1), 3);
  });
});
