import {
  CLIENT_CAPABILITIES_META_KEY as CAPS,
  CLIENT_INFO_META_KEY as INFO,
  LOG_LEVEL_META_KEY as LEVEL,
  PROTOCOL_VERSION_META_KEY as V,
  Server,
} from '@modelcontextprotocol/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { ModernHotTransport, MODERN_REVISION } from './modern-hot.js';
import { withSureEnvelopes } from './modern-route.js';

/**
 * A second held-out hostile list (review, not tuned on): envelopes built from JSON text, as the
 * wire gives them — duplicate keys, own `__proto__`/`constructor` keys, non-finite numbers,
 * deep nesting, lone surrogates — through withSureEnvelopes and the SDK's own codec.
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
});

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
