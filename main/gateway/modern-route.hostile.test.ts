import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY as C,
  CLIENT_INFO_META_KEY as I,
  isJSONRPCRequest,
  LOG_LEVEL_META_KEY as L,
  PROTOCOL_VERSION_META_KEY as V,
  RELATED_TASK_META_KEY as T,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { everydayModernRequest } from './modern-route.js';

/**
 * Held out from modern-route.property.test.ts's generators: hand-written hostile 2026-07-28
 * bodies, as the raw text a client posts (so duplicate keys, `__proto__` own keys, -0, 1e400,
 * escapes and huge integers reach the classifiers as JSON.parse gives them), each with odd
 * MCP-Protocol-Version and Mcp-Method headers and Mcp-Name headers the classifier must not read.
 * Wherever everydayModernRequest answers, the SDK's classifyInboundRequest must answer the same
 * on a body its JSONRPCRequestSchema takes; where it declines, the SDK decides.
 */
const meta = (extra: string, caps = '{}') => `"_meta":{"${V}":"2026-07-28","${C}":${caps}${extra}}`;
const call = (m: string, method = 'tools/call', rest = '') =>
  `{"jsonrpc":"2.0","id":1,"method":"${method}","params":{"name":"x",${m}}${rest}}`;
const caps = (c: string) => call(meta('', c));
const info = (i: string) => call(meta(`,"${I}":${i}`));
const RAW: readonly string[] = [
  call(meta('')),
  call(meta(''), 'tools/list'),
  call(meta(''), 'ping'),
  call(meta(''), ' tools/call'),
  call(meta(''), 'tools/call\\t'), // a JSON escape: the method ends in a tab
  call(meta(''), ''),
  call(meta(''), 'initialize'),
  call(meta(''), 'Initialize'),
  call(meta(''), '__proto__'),
  call(meta(''), 'constructor'),
  // Capabilities: numbers JSON.parse makes odd, prototype-named keys, deep and wrong shapes.
  caps('{"experimental":{"x":{"n":1e400}}}'),
  caps('{"experimental":{"x":{"n":-1e400}}}'),
  caps('{"experimental":{"x":{"n":-0}}}'),
  caps('{"experimental":{"x":1e400}}'),
  caps('{"experimental":{"__proto__":{}}}'),
  caps('{"experimental":{"x":{"__proto__":{"a":1}}}}'),
  caps('{"extensions":{"__proto__":{"a":1}}}'),
  caps('{"extensions":{"x":{"a":{"b":{"c":{"d":{"e":{"f":[[[[1]]]]}}}}}}}}'),
  caps('{"extensions":{"x":[]}}'),
  caps('{"extensions":[]}'),
  caps('{"extensions":{"x":null}}'),
  caps('{"__proto__":{"roots":{"listChanged":"x"}}}'),
  caps('{"constructor":{"roots":1}}'),
  caps('{"roots":{"listChanged":true},"roots":{"listChanged":"no"}}'),
  caps('{"roots":{"listChanged":"no"},"roots":{"listChanged":false}}'),
  caps('{"roots":{"__proto__":{"listChanged":"no"}}}'),
  caps('{"roots":[]}'),
  caps('{"roots":null}'),
  caps('{"sampling":{"context":[]}}'),
  caps('{"sampling":{"tools":{"x":1e400}}}'),
  caps('{"sampling":{"tools":{"x":[1,"a",null,{"y":true}]}}}'),
  caps('{"elicitation":{}}'),
  caps('{"elicitation":{"form":{},"url":{}}}'),
  caps('{"elicitation":{"form":{"applyDefaults":1}}}'),
  caps('{"elicitation":{"form":{"applyDefaults":true,"x":[]}}}'),
  caps('{"elicitation":{"form":[]}}'),
  caps('{"elicitation":{"url":"x"}}'),
  caps('{"elicitation":{"other":{}}}'),
  caps('{"elicitation":{"__proto__":{}}}'),
  caps('{"elicitation":{"form":{"__proto__":{"applyDefaults":1}}}}'),
  caps('{"elicitation":[]}'),
  caps('{"tasks":"anything","other":[1e400]}'),
  caps('[]'),
  caps('null'),
  caps('"x"'),
  // Client info.
  info('{"name":"a","version":"1"}'),
  info('{"name":"a"}'),
  info('{"name":1,"version":"1"}'),
  info('{"name":"a","version":"1","title":null}'),
  info('{"name":"a","version":"1","icons":[]}'),
  info('{"name":"a","version":"1","icons":[{"src":1}]}'),
  info('{"name":"a","version":"1","websiteUrl":"not a url"}'),
  info('{"name":"a","version":"1","__proto__":{"name":1}}'),
  info('{"name":"a","version":"1","name":2}'),
  info('null'),
  info('[]'),
  // Log levels, progress tokens, the related-task key.
  call(meta(`,"${L}":"info"`)),
  call(meta(`,"${L}":"INFO"`)),
  call(meta(`,"${L}":"__proto__"`)),
  call(meta(`,"${L}":"toString"`)),
  call(meta(`,"${L}":null`)),
  call(meta(',"progressToken":1.5')),
  call(meta(',"progressToken":1e400')),
  call(meta(',"progressToken":9007199254740993')),
  call(meta(',"progressToken":-0')),
  call(meta(',"progressToken":null')),
  call(meta(`,"${T}":{"taskId":"t"}`)),
  // The claim itself: other versions, types, escapes, duplicates, missing keys.
  call(`"_meta":{"${V}":"2025-11-25","${C}":{}}`),
  call(`"_meta":{"${V}":"2027-01-01","${C}":{}}`),
  call(`"_meta":{"${V}":"2026-07-28 ","${C}":{}}`),
  call(`"_meta":{"${V}":"\\u0032026-07-28","${C}":{}}`),
  call(`"_meta":{"${V}":null,"${C}":{}}`),
  call(`"_meta":{"${V}":"2025-11-25","${V}":"2026-07-28","${C}":{}}`),
  call(`"_meta":{"${V}":"2026-07-28","${V}":"2025-11-25","${C}":{}}`),
  call(`"_meta":{"${V}":"2026-07-28"}`),
  call(`"_meta":{"${C}":{}}`),
  call(`"_meta":{"__proto__":{"${V}":"2026-07-28","${C}":{}}}`),
  call(`"_meta":{"${V}":"2026-07-28","${C}":{}},"_meta":{}`),
  // Request fields around the envelope.
  call(meta(''), 'tools/call', ',"result":{}'),
  call(meta(''), 'tools/call', ',"error":{"code":1,"message":"m"}'),
  call(meta(''), 'tools/call', ',"__proto__":{}'),
  call(meta(''), 'tools/call', ',"jsonrpc":"1.0"'),
  call(meta(''), 'tools/call', ',"id":null'),
  call(meta(''), 'tools/call', ',"id":1e400'),
  call(meta(''), 'tools/call', ',"id":9007199254740993'),
  `{"jsonrpc":"2.0","method":"tools/call","params":{${meta('')}}}`,
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[{${meta('')}}]}`,
  `[${call(meta(''))}]`,
];
const VERSIONS = [
  undefined,
  '2026-07-28',
  '2026-07-28 ',
  '\t2026-07-28',
  '2025-11-25',
  '2027-01-01',
];
const METHODS = [undefined, 'tools/call', ' tools/call', 'tools/call\t', 'tools/list', 'ping', ''];
const cases = RAW.flatMap((raw) =>
  VERSIONS.flatMap((v) => METHODS.map((mh) => [raw, v, mh] as const)),
);

describe('everydayModernRequest on hand-written hostile bodies', () => {
  it.each(cases)(
    '%s, version %j, Mcp-Method %j: where it answers, the SDK agrees',
    (raw, v, mh) => {
      const body = JSON.parse(raw) as unknown;
      const fast = everydayModernRequest('POST', v, mh, body);
      if (fast === undefined) return;
      // The Mcp-Name header is not the classifier's to read: no value of it changes the answer.
      for (const nh of [undefined, 'x', ' y', '=?base64?!?=']) {
        const sdk = classifyInboundRequest({
          httpMethod: 'POST',
          protocolVersionHeader: v,
          mcpMethodHeader: mh,
          mcpNameHeader: nh,
          body,
        });
        expect(fast).toEqual(sdk);
      }
      expect(fast).toMatchObject({ kind: 'modern', messageKind: 'request' });
      expect(isJSONRPCRequest(body)).toBe(true);
    },
  );

  it('answers for enough of them that the comparison above means something', () => {
    const answered = cases.filter(([raw, v, mh]) =>
      everydayModernRequest('POST', v, mh, JSON.parse(raw)),
    );
    // Deterministic: 47 today (two header pairs of each body it takes).
    expect(answered.length).toBeGreaterThan(40);
  });
});
