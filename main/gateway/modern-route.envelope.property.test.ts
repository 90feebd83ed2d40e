import fc from 'fast-check';
import {
  CLIENT_CAPABILITIES_META_KEY as CAPS,
  CLIENT_INFO_META_KEY as INFO,
  LOG_LEVEL_META_KEY as LEVEL,
  PROTOCOL_VERSION_META_KEY as V,
  Server,
} from '@modelcontextprotocol/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { scalar } from '../../test-support/request-arbitraries.js';
import { ModernHotTransport, MODERN_REVISION } from './modern-hot.js';
import { envelopeSure, withSureEnvelopes } from './modern-route.js';

/**
 * withSureEnvelopes (modern-route.ts) answers the 2026-07-28 codec's per-request envelope check
 * at once where envelopeSure takes the envelope. Over generated envelopes — well-formed ones and
 * near misses in every key — and a held-out hostile list, the check it hands Protocol._onrequest
 * must answer exactly what the SDK's own codec answers, on a server bound to 2026-07-28 as the
 * hot path binds it.
 */
type Codec = { era: string; checkInboundEnvelope(m: { envelope?: unknown }): string | undefined };
const codecOf = (s: Server) =>
  (s as unknown as { _negotiatedWireCodec(): Codec })._negotiatedWireCodec();

async function modern(): Promise<Server> {
  const server = new Server(
    { name: 't', version: '1' },
    { capabilities: { tools: {} }, supportedProtocolVersions: ['2025-11-25', MODERN_REVISION] },
  );
  await server.connect(new ModernHotTransport());
  return server;
}

let ours: Codec;
let sdk: Codec;
beforeAll(async () => {
  ours = codecOf(withSureEnvelopes(await modern()));
  sdk = codecOf(await modern());
  expect(sdk.era).toBe(MODERN_REVISION);
});

const agree = (envelope: unknown) => {
  const m = envelope === undefined ? {} : { envelope };
  expect(ours.checkInboundEnvelope(m)).toBe(sdk.checkInboundEnvelope(m));
};

const anyJson = fc.oneof(scalar, fc.object({ maxDepth: 2 }), fc.array(scalar, { maxLength: 2 }));
const json = <T>(a: fc.Arbitrary<T>) => a.map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const maybe = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 6, arbitrary: good as fc.Arbitrary<unknown> }, anyJson);
// Mostly absent (undefined goes in the JSON round trip).
const rare = fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, anyJson);
const caps = fc.record(
  {
    roots: maybe(fc.record({ listChanged: maybe(fc.boolean()) }, { requiredKeys: [] })),
    sampling: maybe(
      fc.record({ context: maybe(fc.constant({})), tools: anyJson }, { requiredKeys: [] }),
    ),
    elicitation: maybe(
      fc.record(
        {
          form: maybe(fc.record({ applyDefaults: maybe(fc.boolean()) }, { requiredKeys: [] })),
          url: anyJson,
          other: anyJson,
        },
        { requiredKeys: [] },
      ),
    ),
    experimental: maybe(fc.dictionary(fc.string({ maxLength: 2 }), anyJson)),
    extensions: maybe(fc.dictionary(fc.string({ maxLength: 2 }), anyJson)),
    tasks: anyJson,
  },
  { requiredKeys: [] },
);
const envelope = fc.record(
  {
    [V]: fc.oneof(
      { weight: 6, arbitrary: fc.constant('2026-07-28') },
      fc.constant('2025-11-25'),
      anyJson,
    ),
    [CAPS]: maybe(caps),
    [INFO]: maybe(
      fc.record(
        {
          name: maybe(fc.string({ maxLength: 3 })),
          version: maybe(fc.string({ maxLength: 3 })),
          title: maybe(fc.string({ maxLength: 3 })),
          websiteUrl: rare,
          icons: rare,
        },
        { requiredKeys: [] },
      ),
    ),
    [LEVEL]: fc.oneof(fc.constantFrom('debug', 'info', 'emergency', 'verbose', 'INFO'), anyJson),
    other: rare,
  },
  { requiredKeys: [] },
);

/** A 2026-07-28 client's everyday envelope: near misses above rarely pass every check at once. */
const everyday = fc.record(
  {
    [V]: fc.constant('2026-07-28'),
    [CAPS]: fc.record(
      {
        roots: fc.record({ listChanged: fc.boolean() }, { requiredKeys: [] }),
        sampling: fc.record({ context: fc.constant({}) }, { requiredKeys: [] }),
        elicitation: fc.oneof(fc.constant({}), fc.constant({ form: { applyDefaults: true } })),
        extensions: fc.dictionary(fc.string({ maxLength: 3 }), fc.object({ maxDepth: 1 })),
        tasks: anyJson,
      },
      { requiredKeys: [] },
    ),
    [INFO]: fc.record(
      { name: fc.string({ maxLength: 4 }), version: fc.string({ maxLength: 4 }), title: rare },
      { requiredKeys: ['name', 'version'] },
    ),
    [LEVEL]: fc.constantFrom('debug', 'info', 'error'),
  },
  { requiredKeys: [V, CAPS] },
);

// Held out: written by hand, not tuned against the generators above.
const J = (text: string) => JSON.parse(text) as unknown;
const ok = { [V]: '2026-07-28', [CAPS]: {} };
const hostile: unknown[] = [
  undefined,
  null,
  [],
  'x',
  {},
  ok,
  { [V]: '2026-07-28' },
  { [CAPS]: {} },
  { ...ok, [V]: ' 2026-07-28' },
  { ...ok, [V]: 20260728 },
  { ...ok, [CAPS]: null },
  { ...ok, [CAPS]: [] },
  { ...ok, [CAPS]: { roots: { listChanged: 'yes' } } },
  { ...ok, [CAPS]: { sampling: { context: [] } } },
  { ...ok, [CAPS]: { elicitation: { form: { applyDefaults: 1 } } } },
  { ...ok, [CAPS]: { elicitation: { other: {} } } },
  { ...ok, [CAPS]: { experimental: { x: 1 } } },
  { ...ok, [CAPS]: { extensions: { x: [] } } },
  { ...ok, [CAPS]: { tasks: 5, unknown: 'z' } },
  { ...ok, [INFO]: { name: 'a' } },
  { ...ok, [INFO]: { name: 'a', version: 1 } },
  { ...ok, [INFO]: { name: 'a', version: '1', icons: [{ src: 'https://x/i.png' }] } },
  { ...ok, [INFO]: { name: 'a', version: '1', icons: 'no' } },
  { ...ok, [INFO]: null },
  { ...ok, [LEVEL]: 'warning' },
  { ...ok, [LEVEL]: 'warn' },
  { ...ok, [LEVEL]: null },
  { ...ok, progressToken: 1.5 },
  J(
    '{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"__proto__":{"roots":1}}}',
  ),
  J(
    '{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"experimental":{"__proto__":{}}}}',
  ),
];

describe("the hot server's envelope check answers as the SDK's codec does", () => {
  it('over generated envelopes', () => {
    let sure = 0;
    fc.assert(
      fc.property(json(fc.oneof(envelope, everyday)), (e) => {
        if (envelopeSure(e)) sure++;
        agree(e);
      }),
      { numRuns: 4000 },
    );
    // The generators reach the shortcut often enough for the comparison to mean something.
    expect(sure).toBeGreaterThan(300);
  });

  it('hostile envelopes', () => {
    for (const [i, e] of hostile.entries()) {
      const m = e === undefined ? {} : { envelope: e };
      expect([i, ours.checkInboundEnvelope(m)]).toEqual([i, sdk.checkInboundEnvelope(m)]);
    }
  });

  it('leaves a 2025-era codec untouched', () => {
    const legacy = new Server({ name: 't', version: '1' }, { capabilities: {} });
    expect(codecOf(withSureEnvelopes(legacy))).toBe(
      codecOf(new Server({ name: 't', version: '1' }, { capabilities: {} })),
    );
  });
});

/**
 * A second held-out hostile list (review, not tuned on): envelopes built from JSON text, as the
 * wire gives them — duplicate keys, own `__proto__`/`constructor` keys, non-finite numbers,
 * deep nesting, lone surrogates — through withSureEnvelopes and the SDK's own codec.
 */
const v = JSON.stringify(V);
const c = JSON.stringify(CAPS);
const i = JSON.stringify(INFO);
const l = JSON.stringify(LEVEL);
const env = (rest: string) => `{${v}:"2026-07-28",${rest}}`;
const texts = [
  env(`${c}:{},${c}:null`),
  env(`${c}:null,${c}:{}`),
  `{${v}:"2025-11-25",${v}:"2026-07-28",${c}:{}}`,
  env(`${c}:{"roots":{"listChanged":true,"listChanged":"x"}}`),
  env(`${c}:{"constructor":{"a":1},"toString":1}`),
  env(`${c}:{"experimental":{"constructor":{}}}`),
  env(`${c}:{"experimental":{"x":{"y":1e999}}}`),
  env(`${c}:{"sampling":{"context":{"a":-1e999}}}`),
  env(`${c}:{"extensions":{"x":{"a":[[[[[[[[[[1]]]]]]]]]]}}}`),
  env(`${c}:{"elicitation":{"__proto__":{"form":1}}}`),
  env(`${c}:{"elicitation":{"form":{"__proto__":{"applyDefaults":1}}}}`),
  env(`${c}:{"elicitation":{"form":{},"url":{},"form":null}}`),
  env(`${c}:{"elicitation":[]}`),
  env(`${c}:{"roots":[]}`),
  env(`${c}:{"roots":{"__proto__":{"listChanged":"no"}}}`),
  env(`${c}:{},${i}:{"name":"\\ud800","version":"1"}`),
  env(`${c}:{},${i}:{"name":"a","version":"1","__proto__":{"version":1}}`),
  env(`${c}:{},${i}:{"name":"a","version":"1","icons":null}`),
  env(`${c}:{},${i}:{"name":"a","version":"1","websiteUrl":"not a url","title":""}`),
  env(`${c}:{},${i}:{"name":"a","version":"1","constructor":5}`),
  env(`${c}:{},${l}:"__proto__"`),
  env(`${c}:{},${l}:"toString"`),
  env(`${c}:{},${l}:"debug",${l}:"loud"`),
  env(`${c}:{},"__proto__":{"x":1}`),
];

describe('held-out hostile envelopes from JSON text (review)', () => {
  it('answer as the SDK codec does', () => {
    for (const [n, text] of texts.entries()) {
      const m = { envelope: JSON.parse(text) as unknown };
      expect([n, ours.checkInboundEnvelope(m)]).toEqual([n, sdk.checkInboundEnvelope(m)]);
    }
  });
});
