import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import * as sdkExports from '@modelcontextprotocol/server';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  Server,
  type AuthInfo,
  type JSONRPCRequest,
} from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModernHotTransport, MODERN_REVISION } from './modern-hot.js';
import { liftSureEnvelope, withSureEnvelopes } from './modern-route.js';
import { directRequests } from './request-dispatch.js';

/**
 * Issue 34: the hot transport lifts a request's envelope out of `_meta` itself
 * (modern-route.ts liftSureEnvelope) instead of leaving it to the SDK's liftWireOnlyMaterial,
 * which deletes keys from copies. Over generated tools/call requests — params and `_meta` keys in
 * any order (integer-like ones too), any subset of the envelope's keys, good and bad values,
 * extra `_meta` keys, an own `__proto__` key, retry material — a handler on a server fed by a
 * transport that lifts sees exactly what one fed by a transport that leaves it to the SDK sees:
 * the request (keys in order), its `_meta`, the envelope, what `ctx.mcpReq.log` sends at the
 * request's level; and the agent gets the same bytes back.
 */

const AUTH: AuthInfo = { token: 't', clientId: 'a', scopes: [], extra: { agent: 'a' } };
const CLASSIFIED = { era: 'modern', revision: MODERN_REVISION } as const;

/** Enough of a ServerResponse to read what the transport writes. */
function recordingResponse() {
  const out: unknown[] = [];
  const res = Object.assign(new EventEmitter(), {
    destroyed: false,
    writableFinished: false,
    writableEnded: false,
    headersSent: false,
    writableLength: 0,
    writeHead(status: number, headers: unknown) {
      res.headersSent = true;
      out.push(['head', status, headers]);
      return res;
    },
    flushHeaders() {},
    write(chunk: unknown) {
      out.push(['write', String(chunk)]);
      return true;
    },
    end(chunk?: unknown) {
      out.push(['end', chunk === undefined ? null : String(chunk)]);
      res.writableEnded = true;
      res.writableFinished = true;
      return res;
    },
    destroy() {
      res.destroyed = true;
    },
  });
  return { res: res as unknown as ServerResponse, out };
}

/** JSON text of an object whose keys come in this order (`__proto__` as an own key, as on the wire). */
const objectText = (entries: [string, string][]) =>
  `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;

const json = (v: unknown) => JSON.stringify(v);
/**
 * Every `_meta` key the SDK names (its exported `*_META_KEY` constants) other than the envelope's:
 * should the SDK come to lift one of them too, the lift here must follow (see the last test).
 */
const OTHER_SDK_META_KEYS = Object.entries(sdkExports)
  .filter(([name, value]) => name.endsWith('_META_KEY') && typeof value === 'string')
  .map(([, value]) => value as string)
  .filter(
    (key) =>
      ![
        PROTOCOL_VERSION_META_KEY,
        CLIENT_INFO_META_KEY,
        CLIENT_CAPABILITIES_META_KEY,
        LOG_LEVEL_META_KEY,
      ].includes(key),
  );
const keyName = fc.constantFrom(
  'x',
  'y/z',
  '0',
  '12',
  'progressToken',
  '__proto__',
  '_meta2',
  // Names Object.prototype holds: set key by key, they must become own keys as in a spread.
  'constructor',
  'toString',
  ...OTHER_SDK_META_KEYS,
);
const jsonValue = fc.oneof(
  fc.constant('1'),
  fc.constant('"s"'),
  fc.constant('{}'),
  fc.constant('null'),
  fc.constant('[1]'),
);
const envelopeEntry = fc.oneof(
  fc.constantFrom(
    [PROTOCOL_VERSION_META_KEY, json(MODERN_REVISION)],
    [PROTOCOL_VERSION_META_KEY, json('2025-11-25')],
    [CLIENT_CAPABILITIES_META_KEY, '{}'],
    [CLIENT_CAPABILITIES_META_KEY, json({ sampling: {}, roots: { listChanged: true } })],
    [CLIENT_CAPABILITIES_META_KEY, json({ roots: { listChanged: 'yes' } })],
    [CLIENT_INFO_META_KEY, json({ name: 'agent', version: '1' })],
    [CLIENT_INFO_META_KEY, json({ name: 'agent' })],
    [LOG_LEVEL_META_KEY, json('info')],
    [LOG_LEVEL_META_KEY, json('debug')],
    [LOG_LEVEL_META_KEY, json('error')],
    [LOG_LEVEL_META_KEY, json('loud')],
  ) as fc.Arbitrary<[string, string]>,
  fc.tuple(keyName, jsonValue),
);
/** An envelope the hot path takes (2026-07-28, sure capabilities), keys in any order, or any. */
const sureEnvelope = fc
  .record({
    caps: fc.constantFrom('{}', json({ sampling: {}, roots: { listChanged: true } })),
    info: fc.option(fc.constant(json({ name: 'agent', version: '1' })), { nil: undefined }),
    level: fc.option(fc.constantFrom('"info"', '"debug"', '"error"'), { nil: undefined }),
    extra: fc.uniqueArray(fc.tuple(keyName, jsonValue), { selector: ([k]) => k, maxLength: 3 }),
  })
  .chain(({ caps, info, level, extra }) => {
    const entries: [string, string][] = [
      [PROTOCOL_VERSION_META_KEY, json(MODERN_REVISION)],
      [CLIENT_CAPABILITIES_META_KEY, caps],
      ...(info === undefined ? [] : [[CLIENT_INFO_META_KEY, info] as [string, string]]),
      ...(level === undefined ? [] : [[LOG_LEVEL_META_KEY, level] as [string, string]]),
      ...extra,
    ];
    return fc.shuffledSubarray(entries, { minLength: entries.length });
  });
const metaText = fc
  .oneof(
    { weight: 3, arbitrary: sureEnvelope },
    { weight: 1, arbitrary: fc.uniqueArray(envelopeEntry, { selector: ([k]) => k, maxLength: 7 }) },
  )
  .map((entries) => objectText(entries));
const paramsText = fc
  .record({
    name: fc.constantFrom('"echo"', '"other"', '7'),
    args: fc.option(fc.constantFrom('{}', '{"a":1}', '"no"'), { nil: undefined }),
    meta: fc.option(metaText, { nil: undefined, freq: 6 }),
    extra: fc.uniqueArray(
      fc.oneof(
        fc.tuple(keyName, jsonValue),
        fc.constantFrom(
          ['requestState', '"s1"'],
          ['inputResponses', '{}'],
          ['task', '{}'],
        ) as fc.Arbitrary<[string, string]>,
      ),
      { selector: ([k]) => k, maxLength: 3 },
    ),
    metaAt: fc.nat(4),
  })
  .map(({ name, args, meta, extra, metaAt }) => {
    const entries: [string, string][] = [['name', name]];
    if (args !== undefined) entries.push(['arguments', args]);
    entries.push(...extra.filter(([k]) => k !== 'name' && k !== 'arguments' && k !== '_meta'));
    if (meta !== undefined) entries.splice(Math.min(metaAt, entries.length), 0, ['_meta', meta]);
    return objectText(entries);
  });
const request = fc
  .tuple(paramsText, fc.constantFrom('1', '"id"'))
  .map(
    ([params, id]) =>
      JSON.parse(
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`,
      ) as JSONRPCRequest,
  );

/** Key order as well as values: what JSON.stringify writes, down to nested objects. */
const seen = (v: unknown) => (v === undefined ? 'undefined' : JSON.stringify(v));

async function side(lifts: boolean) {
  const log: unknown[] = [];
  const transport = new ModernHotTransport();
  const server = withSureEnvelopes(
    new Server(
      { name: 't', version: '1' },
      {
        capabilities: { tools: {}, logging: {} },
        supportedProtocolVersions: ['2025-11-25', MODERN_REVISION],
      },
    ),
  );
  server.setRequestHandler('tools/call', async (req, ctx) => {
    log.push([
      'handler',
      seen(req),
      Object.keys(req.params),
      seen(ctx.mcpReq._meta),
      seen(ctx.mcpReq.envelope),
      ctx.mcpReq.envelope === undefined ? [] : Object.keys(ctx.mcpReq.envelope),
      ctx.mcpReq.requestState<unknown>() ?? null,
    ]);
    await ctx.mcpReq.log('info', 'a line');
    return { content: [{ type: 'text', text: 'ok' }] };
  });
  server.onerror = (e) => log.push(['onerror', String(e)]);
  await server.connect(transport);
  directRequests(server, transport);
  transport.useServerSignals(server);
  transport.liftsEnvelopes = lifts;
  return {
    log,
    async answer(message: JSONRPCRequest) {
      const { res, out } = recordingResponse();
      transport.serve(structuredClone(message), CLASSIFIED, res, AUTH);
      for (let i = 0; i < 20 && !(res as unknown as { writableEnded: boolean }).writableEnded; i++)
        await new Promise((r) => setImmediate(r));
      log.push(['answer', out]);
    },
  };
}

describe('a hot request lifted ahead of the SDK (issue 34)', () => {
  it('reaches its handler and its agent as the SDK lifts it', async () => {
    const lifted = await side(true);
    const sdk = await side(false);
    await fc.assert(
      fc.asyncProperty(request, async (message) => {
        lifted.log.length = 0;
        sdk.log.length = 0;
        await lifted.answer(message);
        await sdk.answer(message);
        expect(lifted.log).toEqual(sdk.log);
      }),
      { numRuns: 600 },
    );
  });

  it('the generator reaches both outcomes: lifted here, and left to the SDK', () => {
    const samples = fc.sample(request, 600);
    const ours = samples.filter((m) => liftSureEnvelope(m) !== undefined);
    expect(ours.length).toBeGreaterThan(60);
    expect(samples.length - ours.length).toBeGreaterThan(60);
    // Among those lifted here: envelopes with a log level, `_meta` keeping other keys, and not.
    expect(ours.some((m) => LOG_LEVEL_META_KEY in (m.params!._meta as object))).toBe(true);
    expect(ours.some((m) => Object.keys(m.params!._meta as object).length > 3)).toBe(true);
    expect(ours.some((m) => !('_meta' in liftSureEnvelope(m)!.params))).toBe(true);
  });

  it('lifts what the SDK lifts from a `_meta` holding every key the SDK names (loud if it reserves more)', async () => {
    expect(OTHER_SDK_META_KEYS.length).toBeGreaterThan(3);
    const lifted = await side(true);
    const sdk = await side(false);
    const meta: Record<string, unknown> = {
      [CLIENT_CAPABILITIES_META_KEY]: {},
      [LOG_LEVEL_META_KEY]: 'debug',
      [CLIENT_INFO_META_KEY]: { name: 'agent', version: '1' },
      [PROTOCOL_VERSION_META_KEY]: MODERN_REVISION,
    };
    // The related-task key makes a request no hot one (requestShaped): left out, or nothing is lifted.
    for (const key of OTHER_SDK_META_KEYS)
      if (key !== sdkExports.RELATED_TASK_META_KEY) meta[key] = 'v';
    const message = JSON.parse(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { _meta: meta, name: 'echo' },
      }),
    ) as JSONRPCRequest;
    expect(liftSureEnvelope(message)).toBeDefined();
    await lifted.answer(message);
    await sdk.answer(message);
    expect(lifted.log).toEqual(sdk.log);
    // The SDK's own lift took the envelope's four keys, in its order, and left every other.
    const [, , , sdkMeta, envelope] = sdk.log[0] as string[];
    expect(Object.keys(JSON.parse(envelope!) as object)).toEqual([
      PROTOCOL_VERSION_META_KEY,
      CLIENT_INFO_META_KEY,
      CLIENT_CAPABILITIES_META_KEY,
      LOG_LEVEL_META_KEY,
    ]);
    expect(Object.keys(JSON.parse(sdkMeta!) as object).sort()).toEqual(
      OTHER_SDK_META_KEYS.filter((k) => k !== sdkExports.RELATED_TASK_META_KEY).sort(),
    );
  });

  it('an everyday request: envelope out, in the SDK order; other `_meta` keys stay in place', () => {
    const message = JSON.parse(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          _meta: {
            progressToken: 3,
            [CLIENT_CAPABILITIES_META_KEY]: {},
            [PROTOCOL_VERSION_META_KEY]: MODERN_REVISION,
          },
          name: 'echo',
        },
      }),
    ) as JSONRPCRequest;
    const got = liftSureEnvelope(message)!;
    expect(Object.keys(got.envelope)).toEqual([
      PROTOCOL_VERSION_META_KEY,
      CLIENT_CAPABILITIES_META_KEY,
    ]);
    expect(JSON.stringify(got.params)).toBe('{"_meta":{"progressToken":3},"name":"echo"}');
  });
});
