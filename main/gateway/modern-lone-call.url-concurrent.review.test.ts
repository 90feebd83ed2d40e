import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Logger } from '../platform/log.js';
import { waitingApprovalId, waitingResult } from '../approvals/messages.js';
import type { ApprovalRow } from '../store/approval-store.js';
import type { CallOptions, CallToolResult } from '../tools/types.js';
import type { AgentFeatures } from './mcp-handlers/api.js';
import { McpEndpoint, type AgentToolCalls } from './mcp-endpoint.js';
import { ModernHotTransport } from './modern-hot.js';

/**
 * Review of the 2026-07-28 lone path's escalation for URL elicitation clients (mcp-endpoint.ts
 * loneRound, modern-hot.ts presets): a "waiting for approval" answer is handed to the SDK's
 * handler as a preset outcome keyed by the transport's own request number. Requests open at once
 * — two agents with the same JSON-RPC id, and one agent sending the same id twice — settled in the
 * reverse order must each get the input_required naming THEIR OWN approval request, with nothing
 * left preset, exactly as the hot path without lone calls answers them.
 */

const REV = '2026-07-28';
const CAPS = { elicitation: { url: {} } };

interface Pending {
  agent: string;
  name: string;
  args: unknown;
  noWait: boolean;
  settle: (r: CallToolResult) => void;
}

class Calls implements AgentToolCalls {
  readonly pending: Pending[] = [];
  listTools() {
    return Promise.resolve([]);
  }
  waitingApproval(result: CallToolResult) {
    const id = waitingApprovalId(result);
    return id ? { id, url: `https://airlock.test/#/approve/${id}` } : null;
  }
  call(agent: string, name: string, args: unknown, o: CallOptions): Promise<CallToolResult> {
    return new Promise((settle) =>
      this.pending.push({ agent, name, args, noWait: o.noWait === true, settle }),
    );
  }
}

function response(out: string[]) {
  const res = Object.assign(new EventEmitter(), {
    destroyed: false,
    headersSent: false,
    writableFinished: false,
    writableEnded: false,
    writableLength: 0,
    writeHead(status: number) {
      res.headersSent = true;
      out.push(`head ${status}`);
      return res;
    },
    flushHeaders() {},
    write(chunk: unknown) {
      out.push(String(chunk));
      return true;
    },
    end(chunk?: unknown) {
      if (res.writableEnded) return res;
      if (chunk !== undefined) out.push(String(chunk));
      res.writableEnded = true;
      res.writableFinished = true;
      queueMicrotask(() => res.emit('close'));
      return res;
    },
    destroy() {
      res.destroyed = true;
      queueMicrotask(() => res.emit('close'));
      return res;
    },
  });
  return res;
}

const drain = async () => {
  for (let i = 0; i < 12; i++) await vi.advanceTimersByTimeAsync(0);
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate'] });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** Sends `sends` at once on one endpoint, settles the calls at once in reverse; each answer. */
async function play(loneCalls: boolean, sends: { agent: string; id: number; name: string }[]) {
  const calls = new Calls();
  const endpoint = new McpEndpoint({
    pipeline: calls,
    features: { recordRelay: () => {} } as unknown as AgentFeatures,
    logger: new Logger({ stderr: false }),
    version: '0.0.0-test',
    maxBodyBytes: 1 << 20,
    hotPath: true,
    loneCalls,
  });
  const lone = vi.spyOn(
    ModernHotTransport.prototype as unknown as { runLone: () => void },
    'runLone',
  );
  const serving = vi.spyOn(ModernHotTransport.prototype, 'serve');
  const outs = sends.map(() => [] as string[]);
  try {
    sends.forEach((s, i) => {
      const body = {
        jsonrpc: '2.0',
        id: s.id,
        method: 'tools/call',
        params: {
          name: s.name,
          arguments: { to: s.agent },
          _meta: { [PROTOCOL_VERSION_META_KEY]: REV, [CLIENT_CAPABILITIES_META_KEY]: CAPS },
        },
      };
      void endpoint.handle({
        req: {
          method: 'POST',
          url: '/mcp',
          headers: {
            host: '127.0.0.1',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': REV,
            'mcp-method': 'tools/call',
            'mcp-name': s.name,
          },
        } as unknown as IncomingMessage,
        res: response(outs[i]!) as unknown as ServerResponse,
        agent: s.agent,
        parsedBody: JSON.parse(JSON.stringify(body)) as unknown,
        raw: Buffer.from(JSON.stringify(body)),
        credential: `c-${s.agent}`,
      });
    });
    await drain();
    const running = [...calls.pending];
    expect(running).toHaveLength(sends.length);
    // Each first try is told not to wait; settled last-sent first, naming its own request.
    expect(running.map((p) => p.noWait)).toEqual(sends.map(() => true));
    // All in one turn: every escalation is preset before any SDK handler takes one.
    for (const p of [...running].reverse())
      p.settle(waitingResult({ id: `req-${p.agent}-${p.name}`, expiresAt: 0 } as ApprovalRow));
    await drain();
    const transports = new Set(serving.mock.contexts as unknown as ModernHotTransport[]);
    const presets = [...transports].reduce(
      (n, t) => n + (t as unknown as { presets: Map<number, unknown> }).presets.size,
      0,
    );
    return {
      lone: lone.mock.calls.length,
      calls: calls.pending.length,
      answers: outs.map((o) => o.join('|')),
      presets,
    };
  } finally {
    await endpoint.close();
  }
}

describe('2026-07-28 URL elicitation lone calls escalated at once', () => {
  it('two agents, the same JSON-RPC id: each gets its own approval view, as without lone calls', async () => {
    const sends = [
      { agent: 'a', id: 1, name: 'send' },
      { agent: 'b', id: 1, name: 'send' },
    ];
    const sdk = await play(false, sends);
    const lone = await play(true, sends);
    expect(lone.lone).toBe(2);
    expect(sdk.lone).toBe(0);
    expect(lone.calls).toBe(2);
    expect(lone.presets).toBe(0);
    expect(lone.answers[0]).toContain('"url":"https://airlock.test/#/approve/req-a-send"');
    expect(lone.answers[1]).toContain('"url":"https://airlock.test/#/approve/req-b-send"');
    for (const a of lone.answers) expect(a).toContain('"resultType":"input_required"');
    expect(lone.answers).toEqual(sdk.answers);
  });

  it('one agent, the same JSON-RPC id twice at once: each its own, as without lone calls', async () => {
    const sends = [
      { agent: 'a', id: 9, name: 'one' },
      { agent: 'a', id: 9, name: 'two' },
      { agent: 'b', id: 9, name: 'one' },
    ];
    const sdk = await play(false, sends);
    const lone = await play(true, sends);
    expect(lone.lone).toBe(3);
    expect(lone.presets).toBe(0);
    expect(lone.answers[0]).toContain('approve/req-a-one"');
    expect(lone.answers[1]).toContain('approve/req-a-two"');
    expect(lone.answers[2]).toContain('approve/req-b-one"');
    expect(lone.answers).toEqual(sdk.answers);
  });
});
