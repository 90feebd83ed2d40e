import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { startRemoteApp, type RemoteTestApp } from '../../test-support/remote-app.js';
import { MAX_LISTEN_STREAMS } from '../gateway/listen-streams.js';

/**
 * Review (issue 28 item 5, subscriptions/listen): malformed listen requests get a JSON-RPC error
 * and leave the agent able to listen; the per-agent cap holds per agent and is freed when
 * streams end (client gone), so a well-behaved client is never refused after reconnecting.
 */
let t: RemoteTestApp;
let otherToken: string;

beforeAll(async () => {
  t = await startRemoteApp();
  otherToken = (await t.app.control.addAgent('other')).token;
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

function post(token: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(t.started.mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

const envelope = {
  [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
  [CLIENT_INFO_META_KEY]: { name: 'probe', version: '1.0.0' },
  [CLIENT_CAPABILITIES_META_KEY]: {},
};
const listenBody = (id: unknown, params: unknown) => ({
  jsonrpc: '2.0',
  ...(id === undefined ? {} : { id }),
  method: 'subscriptions/listen',
  ...(params === 'no params' ? {} : { params }),
});

interface Open {
  acked: boolean;
  error?: { code: number; message: string };
  stop: AbortController;
}

/** Opens a listen stream and reads until it is acknowledged or refused. */
const GOOD = { notifications: {}, _meta: envelope };
async function open(token: string, params: unknown = GOOD, id: unknown = 1): Promise<Open> {
  const stop = new AbortController();
  const res = await post(token, listenBody(id, params), stop.signal);
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const json = (await res.json()) as { error?: { code: number; message: string } };
    return { acked: false, ...(json.error ? { error: json.error } : {}), stop };
  }
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('notifications/subscriptions/acknowledged')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return { acked: text.includes('acknowledged'), stop };
}

describe('review: listen state', () => {
  it('malformed listen params get a JSON-RPC error, and a good listen still works after', async () => {
    const bad = fc.oneof(
      fc.constant<unknown>('no params'),
      fc.constant<unknown>(null),
      fc.constant<unknown>([]),
      fc.record({ notifications: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) }),
      fc.record({
        notifications: fc.record({
          resourceSubscriptions: fc.oneof(fc.string(), fc.array(fc.integer(), { minLength: 1 })),
        }),
      }),
      fc.record({
        notifications: fc.record({ toolsListChanged: fc.oneof(fc.string(), fc.integer()) }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(bad, async (params) => {
        const o = await open(
          t.token,
          params && typeof params === 'object' && !Array.isArray(params)
            ? { ...(params as object), _meta: envelope }
            : params,
        );
        o.stop.abort();
        expect(o.acked).toBe(false);
        expect(o.error?.code).toBeTypeOf('number');
        expect(o.error?.message).toMatch(/\S/);
      }),
      { numRuns: 30 },
    );
    const good = await open(t.token);
    expect(good.acked).toBe(true);
    good.stop.abort();
  });

  it('the cap is per agent, refuses the one past it clearly, and is freed when the client goes', async () => {
    const mine: Open[] = [];
    for (let i = 0; i < MAX_LISTEN_STREAMS; i++) {
      const o = await open(t.token, GOOD, i + 100);
      expect(o.acked).toBe(true);
      mine.push(o);
    }
    const over = await open(t.token, GOOD, 999);
    expect(over.acked).toBe(false);
    expect(over.error?.message).toMatch(/limit/i);
    // Another agent is not refused by this one's streams.
    const theirs = await open(otherToken);
    expect(theirs.acked).toBe(true);
    theirs.stop.abort();
    // The client goes away: its streams end and no longer count.
    for (const o of mine) o.stop.abort();
    await eventually(async () => {
      const again = await open(t.token, GOOD, 1000);
      again.stop.abort();
      expect(again.acked).toBe(true);
    });
    const batch: Open[] = [];
    await eventually(async () => {
      const o = await open(t.token, GOOD, 2000 + batch.length);
      if (o.acked) batch.push(o);
      else o.stop.abort();
      expect(batch.length).toBe(MAX_LISTEN_STREAMS - 1);
    });
    for (const o of batch) o.stop.abort();
  }, 120_000);
});
