import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  PROTOCOL_VERSION_META_KEY,
  Server,
} from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';

/**
 * Review (issue 28 item 5, subscriptions/listen): Airlock serves listen itself, ahead of the
 * SDK's createMcpHandler, so the checks the SDK's modern path makes before it reaches its own
 * listen router (claimed revision supported, SEP-2243 standard headers present and matching the
 * body, Content-Type) must be made here too. Property: for generated header/envelope variants,
 * whenever the SDK's own handler refuses a listen request, Airlock refuses it with the same
 * JSON-RPC error code (and serves no stream); where the SDK serves one, Airlock does too.
 */
let t: RemoteTestApp;

beforeAll(async () => {
  t = await startRemoteApp();
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

interface Variant {
  methodHeader: string | null;
  versionHeader: string | null;
  envelopeVersion: string | null;
  contentType: string;
  filter: unknown;
}

const variant = fc.record<Variant>({
  methodHeader: fc.constantFrom(null, 'subscriptions/listen', 'tools/list', 'SUBSCRIPTIONS/LISTEN'),
  versionHeader: fc.constantFrom(null, '2026-07-28', '2025-11-25', '2099-01-01'),
  envelopeVersion: fc.constantFrom('2026-07-28', '2099-01-01', null),
  contentType: fc.constantFrom('application/json', 'text/plain'),
  filter: fc.constantFrom<unknown>({}, { toolsListChanged: true }, { toolsListChanged: 'yes' }),
});

function body(v: Variant): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    [CLIENT_INFO_META_KEY]: { name: 'probe', version: '1.0.0' },
    [CLIENT_CAPABILITIES_META_KEY]: {},
  };
  if (v.envelopeVersion !== null) meta[PROTOCOL_VERSION_META_KEY] = v.envelopeVersion;
  return {
    jsonrpc: '2.0',
    id: 7,
    method: 'subscriptions/listen',
    params: { notifications: v.filter, _meta: meta },
  };
}

function headers(v: Variant, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': v.contentType,
    accept: 'application/json, text/event-stream',
    ...(v.methodHeader !== null ? { 'mcp-method': v.methodHeader } : {}),
    ...(v.versionHeader !== null ? { 'mcp-protocol-version': v.versionHeader } : {}),
    ...extra,
  };
}

interface Answer {
  stream: boolean;
  code: number | null;
}

async function read(res: Response): Promise<Answer> {
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) {
    await res.body?.cancel();
    return { stream: true, code: null };
  }
  const text = await res.text();
  try {
    const json = JSON.parse(text) as { error?: { code?: number } };
    return { stream: false, code: json.error?.code ?? null };
  } catch {
    return { stream: false, code: null };
  }
}

const reference = createMcpHandler(
  () =>
    new Server(
      { name: 'ref', version: '1.0.0' },
      {
        capabilities: { tools: { listChanged: true }, logging: {}, resources: { subscribe: true } },
      },
    ),
  { legacy: 'reject' },
);

async function sdkAnswer(v: Variant): Promise<Answer> {
  const stop = new AbortController();
  const res = await reference.fetch(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: headers(v),
      body: JSON.stringify(body(v)),
      signal: stop.signal,
    }),
  );
  const a = await read(res);
  stop.abort();
  return a;
}

async function airlockAnswer(v: Variant): Promise<Answer> {
  const stop = new AbortController();
  const res = await fetch(t.started.mcpUrl, {
    method: 'POST',
    headers: headers(v, { authorization: `Bearer ${t.token}` }),
    body: JSON.stringify(body(v)),
    signal: stop.signal,
  });
  const a = await read(res);
  stop.abort();
  return a;
}

describe('review: subscriptions/listen makes the checks the SDK would have made', () => {
  it('a listen request whose Mcp-Method header names another method is refused as the SDK refuses it', async () => {
    const v: Variant = {
      methodHeader: 'tools/list',
      versionHeader: '2026-07-28',
      envelopeVersion: '2026-07-28',
      contentType: 'application/json',
      filter: {},
    };
    const sdk = await sdkAnswer(v);
    expect(sdk.stream).toBe(false);
    expect(await airlockAnswer(v)).toEqual(sdk);
  });

  it('a listen request claiming an unsupported revision is refused as the SDK refuses it', async () => {
    const v: Variant = {
      methodHeader: 'subscriptions/listen',
      versionHeader: '2099-01-01',
      envelopeVersion: '2099-01-01',
      contentType: 'application/json',
      filter: {},
    };
    const sdk = await sdkAnswer(v);
    expect(sdk.stream).toBe(false);
    expect(await airlockAnswer(v)).toEqual(sdk);
  });

  it('over generated header and envelope variants, Airlock answers as the SDK does', async () => {
    await fc.assert(
      fc.asyncProperty(variant, async (v) => {
        // 2025-era traffic (no envelope claim) goes to Airlock's 2025 sessions, not to listen.
        const era = classifyInboundRequest({
          httpMethod: 'POST',
          ...(v.methodHeader !== null ? { mcpMethodHeader: v.methodHeader } : {}),
          ...(v.versionHeader !== null ? { protocolVersionHeader: v.versionHeader } : {}),
          body: body(v),
        });
        if (era.kind === 'legacy') return;
        const sdk = await sdkAnswer(v);
        const ours = await airlockAnswer(v);
        expect({ v, ours }).toEqual({ v, ours: sdk });
      }),
      { numRuns: 40 },
    );
  });
});
