import {
  classifyInboundRequest,
  isJSONRPCRequest,
  PROTOCOL_VERSION_META_KEY as V,
  RELATED_TASK_META_KEY as T,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { everydaySessionRequest } from './session-route.js';

/**
 * Held out from session-route.property.test.ts's generators: hand-written hostile bodies, as the
 * raw text a client posts (so duplicate keys, `__proto__` own keys, -0, 1e400 and huge integers
 * reach the classifiers as JSON.parse gives them), each with odd MCP-Protocol-Version headers and
 * the 2026-07-28 Mcp-Method / Mcp-Name headers. Wherever everydaySessionRequest answers, the SDK's
 * classifyInboundRequest must answer the same (legacy, no-claim) on a body its JSONRPCRequestSchema
 * takes; where it declines, the SDK decides, so nothing is checked.
 */
const req = (extra: string) => `{"jsonrpc":"2.0","id":1,"method":"tools/call"${extra}}`;
const RAW: readonly string[] = [
  // Keys that are not a request's, including prototype-named ones.
  req(',"__proto__":{"method":"initialize"}'),
  req(',"constructor":{}'),
  req(',"toString":1'),
  req(',"params":{"__proto__":{"_meta":{"' + V + '":"2026-07-28"}}}'),
  req(',"params":{"_meta":{"__proto__":{"' + V + '":"2026-07-28"}}}'),
  req(',"params":{"_meta":{"constructor":{"' + V + '":"2026-07-28"}}}'),
  req(',"params":{"constructor":null,"_meta":{"progressToken":"p"}}'),
  // Ids of every JSON type.
  '{"jsonrpc":"2.0","id":null,"method":"tools/call"}',
  '{"jsonrpc":"2.0","id":1.5,"method":"tools/call"}',
  '{"jsonrpc":"2.0","id":1.0,"method":"tools/call"}',
  '{"jsonrpc":"2.0","id":-0,"method":"tools/call"}',
  '{"jsonrpc":"2.0","id":1e400,"method":"tools/call"}',
  '{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call"}',
  '{"jsonrpc":"2.0","id":9007199254740991,"method":"tools/call"}',
  '{"jsonrpc":"2.0","id":"","method":"tools/call"}',
  '{"jsonrpc":"2.0","id":true,"method":"tools/call"}',
  '{"jsonrpc":"2.0","id":[],"method":"tools/call"}',
  '{"jsonrpc":"2.0","id":{},"method":"tools/call"}',
  '{"jsonrpc":"2.0","method":"tools/call"}',
  // jsonrpc missing or near.
  '{"id":1,"method":"tools/call"}',
  '{"jsonrpc":"2.0 ","id":1,"method":"tools/call"}',
  '{"jsonrpc":2,"id":1,"method":"tools/call"}',
  '{"jsonrpc":"2.00","id":1,"method":"tools/call"}',
  '{"jsonrpc":null,"id":1,"method":"tools/call"}',
  // Method of odd types and near-initialize names.
  '{"jsonrpc":"2.0","id":1,"method":1}',
  '{"jsonrpc":"2.0","id":1,"method":null}',
  '{"jsonrpc":"2.0","id":1,"method":""}',
  '{"jsonrpc":"2.0","id":1,"method":["tools/call"]}',
  '{"jsonrpc":"2.0","id":1,"method":"Initialize"}',
  '{"jsonrpc":"2.0","id":1,"method":"initialize "}',
  '{"jsonrpc":"2.0","id":1,"method":"initialize"}',
  // Params of odd types.
  req(',"params":[]'),
  req(',"params":[1,2]'),
  req(',"params":null'),
  req(',"params":"x"'),
  req(',"params":0'),
  req(',"params":{}'),
  req(',"params":{"_meta":null}'),
  req(',"params":{"_meta":[]}'),
  req(',"params":{"_meta":"x"}'),
  req(',"params":{"_meta":{}}'),
  // Progress tokens the SDK's ProgressTokenSchema refuses or takes.
  req(',"params":{"_meta":{"progressToken":null}}'),
  req(',"params":{"_meta":{"progressToken":1.5}}'),
  req(',"params":{"_meta":{"progressToken":{}}}'),
  req(',"params":{"_meta":{"progressToken":""}}'),
  req(',"params":{"_meta":{"progressToken":1e400}}'),
  req(',"params":{"_meta":{"progressToken":-0}}'),
  // The related-task key, valid and not.
  req(',"params":{"_meta":{"' + T + '":{"taskId":"t"}}}'),
  req(',"params":{"_meta":{"' + T + '":null}}'),
  req(',"params":{"_meta":{"' + T + '":{}}}'),
  // Responses and errors posted, and hybrids.
  '{"jsonrpc":"2.0","id":1,"result":{}}',
  '{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","result":{}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","error":{"code":1,"message":"m"}}',
  // Duplicate keys (JSON.parse keeps the last).
  '{"jsonrpc":"2.0","id":1,"method":"initialize","method":"tools/list"}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"initialize"}',
  '{"jsonrpc":"1.0","jsonrpc":"2.0","id":1,"method":"ping"}',
  '{"jsonrpc":"2.0","id":{},"id":2,"method":"ping"}',
  req(',"params":{"_meta":{"' + V + '":"2026-07-28"},"_meta":{}}'),
  req(',"params":{"_meta":{},"_meta":{"' + V + '":"2026-07-28"}}'),
  // The 2026-07-28 marker in odd places and with odd values.
  req(',"params":{"_meta":{"' + V + '":"2026-07-28"}}'),
  req(',"params":{"_meta":{"' + V + '":"2025-11-25"}}'),
  req(',"params":{"_meta":{"' + V + '":null}}'),
  req(',"params":{"_meta":{"' + V + '":{}}}'),
  req(',"params":{"arguments":{"_meta":{"' + V + '":"2026-07-28"}}}'),
  req(',"params":{"' + V + '":"2026-07-28"}'),
  req(',"' + V + '":"2026-07-28"'),
  req(',"params":{"_meta":{"IO.MODELCONTEXTPROTOCOL/PROTOCOLVERSION":"2026-07-28"}}'),
  // Batches and non-objects.
  '[]',
  `[${req('')}]`,
  `[[${req('')}]]`,
  'null',
  '"x"',
  '1',
  'true',
];
const HEADERS: readonly (string | undefined)[] = [
  undefined,
  '2025-11-25',
  '2025-03-26',
  '2024-11-05',
  '2026-07-28',
  '2026-07-27',
  '2026-07-28 ',
  ' 2025-11-25',
  '\t2026-07-28',
  '2025-11-25, 2026-07-28',
  '2026-07-28, 2025-11-25',
  '2026',
  '2025',
  '',
  '1',
  'junk',
  '9999-99-99',
];
const cases = RAW.flatMap((raw) => HEADERS.map((header) => [raw, header] as const));

describe('everydaySessionRequest on hand-written hostile bodies', () => {
  it.each(cases)('%s with MCP-Protocol-Version %j: where it answers, the SDK agrees', (raw, v) => {
    const body = JSON.parse(raw) as unknown;
    const fast = everydaySessionRequest('POST', v, body);
    if (fast === undefined) return;
    // The 2026-07-28 headers the shortcut does not read must not change the SDK's answer either.
    for (const extra of [{}, { mcpMethodHeader: 'initialize', mcpNameHeader: 'x' }]) {
      const sdk = classifyInboundRequest({
        httpMethod: 'POST',
        protocolVersionHeader: v,
        body,
        ...extra,
      });
      expect(fast).toEqual(sdk);
    }
    expect(fast).toMatchObject({ kind: 'legacy', reason: 'no-claim' });
    expect(isJSONRPCRequest(body)).toBe(true);
  });

  it('answers for enough of them that the comparison above means something', () => {
    const answered = cases.filter(([raw, v]) => everydaySessionRequest('POST', v, JSON.parse(raw)));
    expect(answered.length).toBeGreaterThan(100);
  });

  it('declines every body that carries the 2026-07-28 marker in its _meta, and every initialize', () => {
    for (const raw of RAW) {
      const body = JSON.parse(raw) as { method?: unknown; params?: { _meta?: object } };
      const meta = body?.params?._meta;
      const claims = meta !== null && typeof meta === 'object' && V in meta;
      if (claims || body?.method === 'initialize')
        for (const v of HEADERS) expect(everydaySessionRequest('POST', v, body)).toBeUndefined();
    }
  });
});
