import fc from 'fast-check';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  PROTOCOL_VERSION_META_KEY,
  RELATED_TASK_META_KEY,
  Server,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Transport,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { metaShapes, nearMissMethod, scalar } from '../../test-support/request-arbitraries.js';
import { directRequests } from './request-dispatch.js';
import { requestShaped } from './session-route.js';

/**
 * directRequests (request-dispatch.ts) hands some messages to the server's `_onrequest` without
 * the SDK's onmessage closure. Over generated messages — requests and every near miss: responses,
 * notifications, ids, params, _meta, extra keys — a server so wired must call exactly what the
 * SDK's closure calls, with the same arguments, and whatever it shortcuts the SDK's own guards
 * must call a request and neither kind of response.
 */
const id = fc.oneof(
  { weight: 4, arbitrary: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })) },
  { weight: 1, arbitrary: scalar },
);
const meta = fc.oneof(...metaShapes(id, fc.constantFrom('2025-11-25', '2026-07-28', 'x')));
const params = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      { name: fc.string({ maxLength: 4 }), arguments: fc.object({ maxDepth: 1 }), _meta: meta },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 2 }) },
);
const method = nearMissMethod('notifications/cancelled', 'notifications/initialized');
const jsonrpc = fc.oneof(
  { weight: 5, arbitrary: fc.constant('2.0') },
  { weight: 1, arbitrary: scalar },
);
const message = fc
  .oneof(
    // An agent's everyday request, where the shortcut answers.
    {
      weight: 4,
      arbitrary: fc.record(
        {
          jsonrpc: fc.constant('2.0'),
          id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })),
          method: fc.constantFrom('tools/call', 'tools/list', 'ping', 'resources/read'),
          params: fc.record(
            {
              name: fc.string({ maxLength: 4 }),
              arguments: fc.object({ maxDepth: 1 }),
              _meta: fc.record(
                { progressToken: fc.oneof(fc.integer(), fc.string()), other: scalar },
                { requiredKeys: [] },
              ),
            },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: ['jsonrpc', 'id', 'method'] },
      ),
    },
    // Requests with near misses in every field.
    {
      weight: 3,
      arbitrary: fc.record(
        { jsonrpc: fc.constant('2.0'), id, method, params },
        { requiredKeys: ['jsonrpc', 'id', 'method'] },
      ),
    },
    // Any mix of a message's keys: responses, notifications, hybrids.
    {
      weight: 3,
      arbitrary: fc.record(
        {
          jsonrpc,
          id,
          method,
          params,
          result: fc.object({ maxDepth: 1 }),
          error: fc.record({ code: fc.integer(), message: fc.string() }, { requiredKeys: [] }),
          extra: scalar,
        },
        { requiredKeys: [] },
      ),
    },
  )
  .map((m) => JSON.parse(JSON.stringify(m)) as Record<string, unknown>);

type Call = [kind: string, message: unknown, extra: unknown];

/** A server on a stub transport whose dispatch targets only record what they are given. */
async function recording(direct: boolean) {
  const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
  const calls: Call[] = [];
  const record =
    (kind: string) =>
    (...args: unknown[]) =>
      void calls.push([kind, args[0], args[1]]);
  const s = server as unknown as Record<string, unknown>;
  for (const k of ['_onrequest', '_onresponse', '_onnotification', '_onerror']) s[k] = record(k);
  const transport: Transport = {
    start: async () => {},
    send: async () => {},
    close: async () => {},
  };
  await server.connect(transport);
  if (direct) directRequests(server, transport);
  const deliver = (m: unknown, extra: MessageExtraInfo) =>
    transport.onmessage!(m as JSONRPCMessage, extra);
  return { calls, deliver };
}

/** Both servers get `m`; they must have been called the same, the same message and extra. */
async function agree(ms: readonly unknown[]) {
  const sdk = await recording(false);
  const ours = await recording(true);
  const extra: MessageExtraInfo = { authInfo: { token: 't', clientId: 'a', scopes: [] } };
  for (const m of ms) {
    sdk.deliver(m, extra);
    ours.deliver(m, extra);
  }
  expect(ours.calls.map(([k]) => k)).toEqual(sdk.calls.map(([k]) => k));
  ours.calls.forEach(([kind, m, x], i) => {
    const [, sm, sx] = sdk.calls[i]!;
    // An error is made afresh by each closure: the same message says the same.
    if (kind === '_onerror') return expect(String(m)).toBe(String(sm));
    expect(m).toBe(sm);
    expect(x).toBe(sx);
  });
  return sdk.calls;
}

describe('directRequests dispatches as the SDK onmessage closure does', () => {
  it('what requestShaped takes, the SDK guards call a request and no response', () => {
    let taken = 0;
    fc.assert(
      fc.property(message, (m) => {
        if (!requestShaped(m)) return;
        taken++;
        expect(isJSONRPCResultResponse(m)).toBe(false);
        expect(isJSONRPCErrorResponse(m)).toBe(false);
        expect(isJSONRPCRequest(m)).toBe(true);
      }),
      { numRuns: 4000 },
    );
    // About 40% of runs are requests the shortcut takes; 1,000 of 4,000 is far below, whatever the seed.
    expect(taken).toBeGreaterThan(1000);
  });

  it('over generated messages, a directRequests server is dispatched the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 4 }), async (ms) => {
        await agree(ms);
      }),
      { numRuns: 500 },
    );
  });

  // Held out: written by hand, not tuned against the generators above.
  it('hostile messages are dispatched as the SDK does', async () => {
    const req = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } };
    const hostile: unknown[] = [
      { ...req, result: {} },
      { ...req, error: { code: 1, message: 'm' } },
      { ...req, id: null },
      { ...req, id: 1.5 },
      { ...req, id: 2 ** 53 },
      { ...req, id: true },
      { ...req, id: {} },
      { ...req, method: '' },
      { ...req, method: 'initialize', params: {} },
      { ...req, jsonrpc: '1.0' },
      { ...req, jsonrpc: 2 },
      { ...req, params: [] },
      { ...req, params: null },
      { ...req, params: 'x' },
      { ...req, params: { _meta: null } },
      { ...req, params: { _meta: [] } },
      { ...req, params: { _meta: { progressToken: {} } } },
      { ...req, params: { _meta: { progressToken: 1.5 } } },
      { ...req, params: { _meta: { [RELATED_TASK_META_KEY]: { taskId: 't' } } } },
      { ...req, params: { _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' } } },
      { ...req, params: { task: { ttl: 1 } } },
      { ...req, extra: 1 },
      JSON.parse('{"jsonrpc":"2.0","id":1,"method":"ping","__proto__":{"result":{}}}'),
      JSON.parse('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"__proto__":null}}'),
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 1, error: { code: -1, message: 'no' } },
      { jsonrpc: '2.0', id: 1 },
      { jsonrpc: '2.0' },
      {},
      [req],
      'tools/call',
      null,
      7,
    ];
    for (const m of hostile) await agree([m]);
  });

  it('a plain tools/call goes to _onrequest with its own message and extra', async () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } };
    const calls = await agree([call]);
    expect(calls).toEqual([['_onrequest', call, expect.anything()]]);
  });
});
