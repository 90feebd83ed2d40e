import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leanCallTool } from './lean-call.js';
import { UpstreamClient } from './upstream-client.js';

/**
 * Issue 34, wave 3 session 29: the lean call (lean-call.ts) no longer runs the SDK's outbound
 * `_meta` envelope on each call, because on a legacy-era connection the SDK hands every message
 * back by reference (SDK 2.4, `Protocol._envelopeOutbound` with `Client._outboundMetaEnvelope`
 * asking the 2025 codec, whose `outboundEnvelope` is undefined). These tests hold that against
 * the SDK itself, on a real client, over generated messages, client infos and capabilities, for
 * every legacy version the SDK supports — so they fail should the SDK start to change a legacy
 * message — and check that the lean call takes the SDK path where the envelope is not a no-op.
 */
type Envelope = { _envelopeOutbound<T>(m: T): T; _negotiatedProtocolVersion?: string };

const probe = new UpstreamClient({ name: 'p', version: '1' }, {});
const eraOf = (v: string) => {
  (probe as unknown as Envelope)._negotiatedProtocolVersion = v;
  return probe.getProtocolEra();
};
const LEGACY = SUPPORTED_PROTOCOL_VERSIONS.filter((v) => eraOf(v) === 'legacy');
/** MCP's first modern revision (the SDK's list above holds the legacy ones only). */
const MODERN = ['2026-07-28'].filter((v) => eraOf(v) === 'modern');
/**
 * Any version the SDK reads as legacy (it compares strings: below 2026-07-28), dates or not: the
 * held-out part's versions, beside the SDK's own list.
 */
const anyLegacy = fc
  .oneof(
    fc
      .date({ min: new Date('2000-01-01'), max: new Date('2026-07-27'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
    fc.string(),
  )
  .filter((v) => v !== '' && eraOf(v) === 'legacy');

const info = fc.record(
  { name: fc.string(), version: fc.string(), title: fc.string() },
  { requiredKeys: ['name', 'version'] },
);
const capabilities = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });

/** Tuning generator: the messages an upstream connection sends (requests, notifications). */
const tuned: fc.Arbitrary<JSONRPCMessage> = fc.oneof(
  fc.record(
    {
      jsonrpc: fc.constant('2.0' as const),
      id: fc.oneof(fc.nat(), fc.string()),
      method: fc.constantFrom('tools/call', 'tools/list', 'ping', 'resources/read'),
      params: fc.record(
        {
          name: fc.string(),
          arguments: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })),
          _meta: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 })),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ['jsonrpc', 'id', 'method'] },
  ) as fc.Arbitrary<JSONRPCMessage>,
  fc.record(
    {
      jsonrpc: fc.constant('2.0' as const),
      method: fc.constantFrom('notifications/cancelled', 'notifications/initialized'),
      params: fc.record({ requestId: fc.nat(), reason: fc.string() }, { requiredKeys: [] }),
    },
    { requiredKeys: ['jsonrpc', 'method'] },
  ) as fc.Arbitrary<JSONRPCMessage>,
);

/** Held out (never tuned on): any JSON object with a method, params of any JSON shape. */
const heldOut = fc
  .record({
    rest: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })),
    method: fc.string(),
    params: fc.jsonValue({ maxDepth: 3 }),
  })
  .map(({ rest, method, params }) => ({ ...rest, jsonrpc: '2.0', method, params }));

function identityHolds(
  versions: fc.Arbitrary<string>,
  messages: fc.Arbitrary<object>,
  seed: number,
): void {
  fc.assert(
    fc.property(versions, info, capabilities, messages, (version, clientInfo, caps, message) => {
      const client = new UpstreamClient(clientInfo, { capabilities: caps as never });
      const c = client as unknown as Envelope;
      c._negotiatedProtocolVersion = version;
      const before = structuredClone(message);
      expect(c._envelopeOutbound(message)).toBe(message);
      expect(message).toEqual(before);
    }),
    { numRuns: 300, seed },
  );
}

describe('the SDK envelope on a legacy-era connection is the message itself', () => {
  it('holds for every legacy version the SDK supports', () => {
    expect(LEGACY.length).toBeGreaterThan(0);
    expect(MODERN.length).toBeGreaterThan(0);
  });

  it('holds over generated messages (tuning seed)', () =>
    identityHolds(fc.constantFrom(...LEGACY), tuned, 2925));

  it('holds over generated messages and versions (held-out seed and generators)', () =>
    identityHolds(anyLegacy, heldOut, 8133));

  it('is not the message on a modern connection (the test can tell)', () => {
    const client = new UpstreamClient({ name: 'p', version: '1' }, {});
    const c = client as unknown as Envelope;
    c._negotiatedProtocolVersion = MODERN[0];
    const m = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } };
    expect(c._envelopeOutbound(m)).not.toBe(m);
  });
});

describe('lean call: decided per client and negotiated version', () => {
  const options = () => ({
    signal: new AbortController().signal,
    timeout: 60_000,
    maxTotalTimeout: 600_000,
    resetTimeoutOnProgress: true,
  });

  /** A connected legacy-era client whose transport only records what is written. */
  async function connected() {
    const client = new UpstreamClient(
      { name: 'airlock', version: 'test' },
      { versionNegotiation: { mode: 'legacy' } },
    );
    const written: JSONRPCMessage[] = [];
    const transport = {
      start: async () => {},
      close: async () => {},
      send: async (m: JSONRPCMessage) => {
        written.push(m);
        const r = m as { id?: number; method?: string };
        if (r.method === 'initialize')
          queueMicrotask(() =>
            transport.onmessage?.({
              jsonrpc: '2.0',
              id: r.id!,
              result: {
                protocolVersion: LEGACY.at(-1)!,
                capabilities: { tools: {} },
                serverInfo: { name: 's', version: '1' },
              },
            } as JSONRPCMessage),
          );
      },
      onmessage: undefined as ((m: JSONRPCMessage) => void) | undefined,
    };
    await client.connect(transport as never);
    return { client, written };
  }

  it('sends the request the SDK envelope would, by reference, on a legacy connection', async () => {
    const { client, written } = await connected();
    const call = leanCallTool(client, { name: 'echo', arguments: { a: 1 } }, options());
    expect(call).toBeDefined();
    void call!.catch(() => {});
    const sent = written.at(-1)!;
    expect((client as unknown as Envelope)._envelopeOutbound(sent)).toBe(sent);
    await client.close();
  });

  it('takes the SDK path once the negotiated version is a modern one', async () => {
    const { client } = await connected();
    const first = leanCallTool(client, { name: 'echo', arguments: {} }, options());
    expect(first).toBeDefined();
    void first!.catch(() => {});
    (client as unknown as Envelope)._negotiatedProtocolVersion = MODERN[0];
    expect(leanCallTool(client, { name: 'echo', arguments: {} }, options())).toBeUndefined();
    await client.close();
  });

  it('takes the SDK path where this client’s envelope is not a no-op', async () => {
    const { client } = await connected();
    // An SDK whose legacy envelope changed: the probe in leanFit sees it before any lean call.
    (client as unknown as Envelope)._envelopeOutbound = <T>(m: T): T => ({ ...m });
    expect(leanCallTool(client, { name: 'echo', arguments: {} }, options())).toBeUndefined();
    await client.close();
  });
});
