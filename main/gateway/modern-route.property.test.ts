import fc from 'fast-check';
import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY as CAPS,
  CLIENT_INFO_META_KEY as INFO,
  isJSONRPCRequest,
  LOG_LEVEL_META_KEY as LEVEL,
  PROTOCOL_VERSION_META_KEY as V,
  RELATED_TASK_META_KEY as T,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { everydayRequest, parsedJson, scalar } from '../../test-support/request-arbitraries.js';
import { everydayModernRequest } from './modern-route.js';

/**
 * everydayModernRequest (modern-route.ts) answers for the SDK's classifyInboundRequest on a
 * 2026-07-28 agent's everyday POST. Over generated bodies and headers — well-formed envelopes and
 * every near miss: versions in the header and the envelope, Mcp-Method headers, capabilities,
 * client info, log levels, progress tokens, related-task keys, ids, responses, extra keys,
 * batches, other HTTP methods — whatever it answers must be what the SDK answers (deep-equal,
 * the same body object in it), on a body its JSONRPCRequestSchema takes.
 */
const anyJson = fc.oneof(scalar, fc.object({ maxDepth: 2 }), fc.array(scalar, { maxLength: 2 }));
const jsonObject = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  { weight: 2, arbitrary: fc.object({ maxDepth: 2 }) },
);
/**
 * A 2026-07-28 client's everyday POST, varied where the shortcut must still agree (ids, methods,
 * progress tokens, capabilities, client info, log levels, other _meta keys). The near misses
 * above rarely pass every check at once, so without these the shortcut is hardly reached.
 */
const everydayEnvelope = fc.record(
  {
    [V]: fc.constant('2026-07-28'),
    [CAPS]: fc.record(
      {
        roots: fc.record({ listChanged: fc.boolean() }, { requiredKeys: [] }),
        sampling: fc.record({ context: fc.constant({}), tools: jsonObject }, { requiredKeys: [] }),
        elicitation: fc.oneof(
          fc.constant({}),
          fc.record(
            {
              form: fc.record({ applyDefaults: fc.boolean() }, { requiredKeys: [] }),
              url: jsonObject,
            },
            { requiredKeys: [] },
          ),
        ),
        extensions: fc.dictionary(fc.string({ maxLength: 3 }), fc.object({ maxDepth: 1 })),
        tasks: anyJson,
      },
      { requiredKeys: [] },
    ),
    [INFO]: fc.record(
      {
        name: fc.string({ maxLength: 4 }),
        version: fc.string({ maxLength: 4 }),
        title: fc.string({ maxLength: 4 }),
      },
      { requiredKeys: ['name', 'version'] },
    ),
    [LEVEL]: fc.constantFrom('debug', 'info', 'error'),
    progressToken: fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.maxSafeInteger()),
    other: anyJson,
  },
  { requiredKeys: [V, CAPS] },
);
const everyday = everydayRequest(everydayEnvelope, { metaAlways: true });
const everydayExchange = fc
  .tuple(everyday, fc.boolean(), fc.option(fc.string({ maxLength: 4 }), { nil: undefined }))
  .map(
    ([b, sendMethod, name]) =>
      ['POST', '2026-07-28', sendMethod ? (b['method'] as string) : undefined, name, b] as const,
  );

/**
 * Near misses: an everyday exchange with one to three places changed — a header, a request
 * field, an envelope key or a value deep in the capabilities or client info set to another JSON
 * value (near-miss strings, wrong types, {}, [], deep objects) or removed. These walk every check
 * of the shortcut from its valid side.
 */
const DELETE = Symbol('delete');
const M = ['params', '_meta'];
const paths: readonly (readonly string[])[] = [
  ['http'],
  ['version'],
  ['methodHeader'],
  ['body'],
  ['jsonrpc'],
  ['id'],
  ['method'],
  ['result'],
  ['error'],
  ['extra'],
  ['params'],
  ['params', 'task'],
  ['params', 'requestState'],
  M,
  [...M, V],
  [...M, CAPS],
  [...M, CAPS, 'roots'],
  [...M, CAPS, 'roots', 'listChanged'],
  [...M, CAPS, 'sampling'],
  [...M, CAPS, 'sampling', 'context'],
  [...M, CAPS, 'sampling', 'tools'],
  [...M, CAPS, 'sampling', 'tools', 'x'],
  [...M, CAPS, 'elicitation'],
  [...M, CAPS, 'elicitation', 'form'],
  [...M, CAPS, 'elicitation', 'form', 'applyDefaults'],
  [...M, CAPS, 'elicitation', 'form', 'x'],
  [...M, CAPS, 'elicitation', 'url'],
  [...M, CAPS, 'elicitation', 'url', 'x'],
  [...M, CAPS, 'elicitation', 'other'],
  [...M, CAPS, 'experimental'],
  [...M, CAPS, 'experimental', 'x'],
  [...M, CAPS, 'experimental', 'x', 'y'],
  [...M, CAPS, 'extensions'],
  [...M, CAPS, 'extensions', 'x'],
  [...M, CAPS, 'extensions', 'x', 'y'],
  [...M, CAPS, 'extensions', 'x', 'y', 'z'],
  [...M, CAPS, 'tasks'],
  [...M, CAPS, 'other'],
  [...M, INFO],
  [...M, INFO, 'name'],
  [...M, INFO, 'version'],
  [...M, INFO, 'title'],
  [...M, INFO, 'icons'],
  [...M, INFO, 'websiteUrl'],
  [...M, INFO, 'description'],
  [...M, INFO, 'other'],
  [...M, LEVEL],
  [...M, 'progressToken'],
  [...M, T],
  [...M, 'other'],
];
const nearValue = fc.oneof(
  fc.constant(DELETE),
  anyJson,
  fc.constantFrom(
    '2026-07-28',
    '2026-07-28 ',
    '2025-11-25',
    'tools/call',
    ' tools/call',
    'initialize',
    'info',
    'INFO',
    {},
    [],
    [{}],
    { a: { b: { c: { d: { e: 1 } } } } },
    { a: [[[[[1]]]]] },
    { form: {} },
    { listChanged: 1 },
    { taskId: 't' },
  ),
);
type Exchange = readonly [
  string,
  string | undefined,
  string | undefined,
  string | undefined,
  unknown,
];
function mutate(
  x: Exchange,
  changes: readonly (readonly [readonly string[], unknown])[],
): Exchange {
  const nh = x[3];
  let [m, v, mh, , b] = x;
  b = parsedJson(b);
  const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
  for (const [path, value] of changes) {
    if (path[0] === 'http') m = str(value) ?? 'GET';
    else if (path[0] === 'version') v = str(value);
    else if (path[0] === 'methodHeader') mh = str(value);
    else if (path[0] === 'body') b = value === DELETE ? undefined : structuredClone(value);
    else {
      let at = b as Record<string, unknown>;
      for (const key of path.slice(0, -1)) {
        if (at === null || typeof at !== 'object') break;
        at[key] ??= {};
        at = at[key] as Record<string, unknown>;
      }
      if (at === null || typeof at !== 'object') continue;
      const last = path.at(-1)!;
      if (value === DELETE) delete at[last];
      else at[last] = structuredClone(value); // never the shared constant itself
    }
  }
  return [m, v, mh, nh, parsedJson(b ?? null)];
}
const nearMiss = fc
  .tuple(
    everydayExchange,
    fc.array(fc.tuple(fc.constantFrom(...paths), nearValue), { minLength: 1, maxLength: 3 }),
  )
  .map(([x, changes]) => mutate(x, changes));

describe('everydayModernRequest answers as the SDK classifier does', () => {
  it('where it answers, the SDK says the same (modern request on 2026-07-28), on a well-formed request', () => {
    let answered = 0;
    fc.assert(
      fc.property(fc.oneof(everydayExchange, nearMiss, nearMiss), ([m, v, mh, nh, b]) => {
        const fast = everydayModernRequest(m, v, mh, b);
        if (fast === undefined) return;
        answered++;
        const sdk = classifyInboundRequest({
          httpMethod: m,
          protocolVersionHeader: v,
          mcpMethodHeader: mh,
          mcpNameHeader: nh,
          body: b,
        });
        expect(fast).toEqual(sdk);
        expect(sdk.kind === 'modern' && sdk.message).toBe(b);
        expect(isJSONRPCRequest(b)).toBe(true);
      }),
      { numRuns: 4000 },
    );
    // Reached often enough for the comparison to mean something (about 2,000 of 4,000 runs on the
    // seeds tried; 1,000 is many standard deviations below, whatever the seed).
    expect(answered).toBeGreaterThan(1000);
  });

  it('a 2026-07-28 client SDK tools/call, as @modelcontextprotocol/client sends it, is answered here', () => {
    const call = {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: {
        name: 'srv__echo',
        arguments: { text: 'hi' },
        _meta: {
          progressToken: 3,
          [V]: '2026-07-28',
          [INFO]: { name: 'bench', version: '1.0.0' },
          [CAPS]: { elicitation: { form: {} }, roots: { listChanged: true } },
        },
      },
    };
    const fast = everydayModernRequest('POST', '2026-07-28', 'tools/call', call);
    expect(fast).toBeDefined();
    expect(fast).toEqual(
      classifyInboundRequest({
        httpMethod: 'POST',
        protocolVersionHeader: '2026-07-28',
        mcpMethodHeader: 'tools/call',
        mcpNameHeader: 'srv__echo',
        body: call,
      }),
    );
  });
});
