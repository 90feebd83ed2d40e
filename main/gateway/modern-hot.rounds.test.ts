import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { Logger } from '../platform/log.js';
import type { CallOptions, CallToolResult } from '../tools/types.js';
import type { AgentFeatures } from './mcp-handlers/api.js';
import { McpEndpoint, type AgentToolCalls } from './mcp-endpoint.js';
import { ModernHotTransport } from './modern-hot.js';

/**
 * Issue 34: a hot 2026-07-28 call's signal is its first HTTP request's own controller
 * (modern-hot.ts controllerOf, input-rounds.ts `start`). That request ends with the
 * input_required answer while the call goes on across the agent's retries (which take the SDK's
 * per-request handler: they carry requestState). Played here through the endpoint on a real
 * HTTP server: the first answer's end must not abort the call; the retry's answers reach it; a
 * retry whose client goes away does abort it.
 */

/** `asks`: asks the agent for its roots, then answers with them or, for `hang`, waits. */
class AskingCalls implements AgentToolCalls {
  readonly signals: AbortSignal[] = [];
  listTools() {
    return Promise.resolve([{ name: 'asks', inputSchema: { type: 'object' as const } }]);
  }
  async call(_agent: string, name: string, args: unknown, o: CallOptions): Promise<CallToolResult> {
    this.signals.push(o.signal!);
    const got = await o.relay!.request({ method: 'roots/list', params: {}, server: 's' });
    if ((args as { hang?: boolean } | undefined)?.hang)
      await new Promise((_, reject) =>
        o.signal!.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    return { content: [{ type: 'text', text: `${name} ${JSON.stringify(got)}` }] };
  }
}

let calls: AskingCalls;
let endpoint: McpEndpoint;
let server: http.Server;
let url: string;
/** Server-side responses that have emitted 'close' (the transport's own listener is on it). */
let closed = 0;

beforeAll(async () => {
  calls = new AskingCalls();
  endpoint = new McpEndpoint({
    pipeline: calls,
    features: { recordRelay: () => {} } as unknown as AgentFeatures,
    logger: new Logger({ stderr: false }),
    version: '0.0.0-test',
    maxBodyBytes: 1 << 20,
    hotPath: true,
  });
  server = http.createServer((req, res) => {
    res.on('close', () => closed++);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const parsedBody = raw.length ? (JSON.parse(raw.toString()) as unknown) : undefined;
      void endpoint.handle({ req, res, agent: 'a', parsedBody, raw, credential: 'c' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  await endpoint.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function post(id: number, extra: Record<string, unknown>, args: unknown, signal?: AbortSignal) {
  const body = {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'asks',
      arguments: args,
      ...extra,
      _meta: {
        [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
        [CLIENT_CAPABILITIES_META_KEY]: { roots: {} },
      },
    },
  };
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'asks',
    },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

interface Answer {
  result?: {
    resultType?: string;
    requestState?: string;
    inputRequests?: Record<string, { method: string }>;
    content?: { text: string }[];
  };
  error?: unknown;
}

/** The first round through the hot path: its input_required answer, once its response closed. */
async function firstRound(id: number, args: unknown) {
  const took = vi.spyOn(ModernHotTransport.prototype, 'serve');
  const before = closed;
  const res = await post(id, {}, args);
  const answer = (await res.json()) as Answer;
  expect(took).toHaveBeenCalledTimes(1);
  took.mockRestore();
  expect(answer.result?.resultType).toBe('input_required');
  expect(Object.values(answer.result!.inputRequests!)).toEqual([
    expect.objectContaining({ method: 'roots/list' }),
  ]);
  // Every 'close' listener of the first response has run (the transport's among them).
  await eventually(() => expect(closed).toBeGreaterThan(before));
  await new Promise((r) => setImmediate(r));
  return { answer, signal: calls.signals.at(-1)! };
}

describe('a hot call across its input rounds (issue 34)', () => {
  it('outlives its first HTTP request, and its retry gets its result', async () => {
    const { answer, signal } = await firstRound(1, {});
    expect(signal.aborted).toBe(false);
    const [key] = Object.keys(answer.result!.inputRequests!);
    const took = vi.spyOn(ModernHotTransport.prototype, 'serve');
    const res = await post(
      2,
      {
        requestState: answer.result!.requestState,
        inputResponses: { [key!]: { roots: [{ uri: 'file:///r' }] } },
      },
      {},
    );
    const final = (await res.json()) as Answer;
    // The retry took the SDK's per-request handler (hotModernRequest leaves retries to it).
    expect(took).not.toHaveBeenCalled();
    took.mockRestore();
    expect(final.error).toBeUndefined();
    expect(final.result?.content?.[0]?.text).toBe('asks {"roots":[{"uri":"file:///r"}]}');
    expect(signal.aborted).toBe(false);
  });

  it("a retry whose client goes away cancels the call, through the first request's controller", async () => {
    const { answer, signal } = await firstRound(3, { hang: true });
    expect(signal.aborted).toBe(false);
    const [key] = Object.keys(answer.result!.inputRequests!);
    const aborted = new Promise<unknown>((r) =>
      signal.addEventListener('abort', () => r(signal.reason), { once: true }),
    );
    const gone = new AbortController();
    const pending = post(
      4,
      { requestState: answer.result!.requestState, inputResponses: { [key!]: { roots: [] } } },
      { hang: true },
      gone.signal,
    ).catch(() => null);
    // The retry's answer has reached the call (it now waits on its signal), then the client goes.
    await eventually(() => expect(endpointRounds()).toBe(0));
    gone.abort();
    await pending;
    expect(await aborted).toMatchObject({ message: 'Connection closed' });
  });
});

/** Rounds still waiting for the agent (none once the retry is open on the call). */
function endpointRounds(): number {
  const rounds = (endpoint as unknown as { rounds: { rounds: Map<string, { wake?: unknown }> } })
    .rounds.rounds;
  let away = 0;
  for (const r of rounds.values()) if (!r.wake) away++;
  return away;
}
