import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectUpstream, type Upstream } from '../upstream/upstream.js';
import { callUpstream } from '../upstream/lean-call.js';
import { callingAgent, inRelayScope } from '../relay/relay-scope.js';

/**
 * Review of h-up (direct-call.ts): a JSON answer's server→client request and log line are handed
 * over in the relay scope of the call whose POST they came on — the agent that made that call —
 * as lean-send's async continuation does, also when the keep-alive socket was opened by another
 * agent's call, and when calls of two agents are in flight at once (MCP 2025-11-25, Streamable
 * HTTP: a server may send requests and notifications related to the request in its answer).
 */
let srv: Server;
let url: URL;
const held: { agent: string; id: unknown; res: ServerResponse }[] = [];
let waiting: (() => void) | undefined;

beforeAll(async () => {
  srv = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      const m = JSON.parse(raw || '{}') as {
        id?: number | string;
        method?: string;
        params?: { arguments?: { agent?: string } };
      };
      const json = { 'content-type': 'application/json' };
      if (m.method === 'initialize')
        return void res.writeHead(200, { ...json, 'mcp-session-id': 's1' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: m.id,
            result: {
              protocolVersion: '2025-11-25',
              capabilities: { tools: {}, logging: {} },
              serverInfo: { name: 'x', version: '1' },
            },
          }),
        );
      if (m.id === undefined || m.method === undefined) return void res.writeHead(202).end();
      if (m.method !== 'tools/call')
        return void res
          .writeHead(200, json)
          .end(
            JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no' } }),
          );
      held.push({ agent: m.params?.arguments?.agent ?? '?', id: m.id, res });
      waiting?.();
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  url = new URL(`http://127.0.0.1:${(srv.address() as AddressInfo).port}/mcp`);
});
afterAll(() => new Promise<void>((r) => srv.close(() => r())));

function answer(h: (typeof held)[number]): void {
  h.res.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: h.agent } },
      {
        jsonrpc: '2.0',
        id: `ask-${h.agent}`,
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: h.agent,
          requestedSchema: { type: 'object', properties: {} },
        },
      },
      { jsonrpc: '2.0', id: h.id, result: { content: [{ type: 'text', text: h.agent }] } },
    ]),
  );
}

const arrived = (n: number) =>
  new Promise<void>((resolve) => {
    const check = () => (held.length >= n ? resolve() : (waiting = check));
    check();
  });

async function scenario(direct: boolean): Promise<string[]> {
  const seen: string[] = [];
  held.length = 0;
  const up: Upstream = await connectUpstream({
    url,
    headers: {},
    timeoutMs: 10_000,
    clientVersion: 'test',
    directCalls: direct,
    onRelay: (method, params) => {
      seen.push(`relay ${String(params['message'])} in ${callingAgent() ?? 'none'}`);
      return Promise.resolve({ action: 'decline' });
    },
    onNotice: (n) => {
      if (n.kind === 'log') seen.push(`log ${JSON.stringify(n)} in ${callingAgent() ?? 'none'}`);
    },
  });
  const call = (agent: string) =>
    inRelayScope({ agent, signal: new AbortController().signal }, () =>
      callUpstream(up.client, { name: 't', arguments: { agent } }, true, {
        signal: new AbortController().signal,
        timeout: 60_000,
        maxTotalTimeout: 60_000,
        resetTimeoutOnProgress: true,
      }),
    );
  try {
    // A alone (opens the socket), then B on the socket A left free.
    const a = call('A');
    await arrived(1);
    answer(held[0]!);
    await a;
    const b = call('B');
    await arrived(2);
    answer(held[1]!);
    await b;
    // C and D at once, answered in the other order.
    const c = call('C');
    const d = call('D');
    await arrived(4);
    answer(held[3]!);
    answer(held[2]!);
    await Promise.all([c, d]);
    return seen;
  } finally {
    await up.close();
  }
}

describe('a JSON answer’s messages run in the scope of the call they answer', () => {
  it('direct and lean alike, each in its own agent’s scope', async () => {
    const lean = await scenario(false);
    const direct = await scenario(true);
    expect(lean.filter((s) => s.startsWith('relay'))).toEqual([
      'relay A in A',
      'relay B in B',
      'relay D in D',
      'relay C in C',
    ]);
    expect(direct).toEqual(lean);
  });
});
