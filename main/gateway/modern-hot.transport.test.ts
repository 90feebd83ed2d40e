import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  Server,
  type AuthInfo,
  type JSONRPCRequest,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import { ModernHotPath, ModernHotTransport, MODERN_REVISION } from './modern-hot.js';

/**
 * Issue 34: what the hot path saves per call — no AbortController of its own beside the one the
 * server's dispatch makes, no promise per call once the agent's server is connected — without
 * changing what a call sees: its signal is aborted with the SDK's "Connection closed" when its
 * client goes away, with or without the server's own controllers to lean on.
 */

const AUTH: AuthInfo = { token: 't', clientId: 'a', scopes: [], extra: { agent: 'a' } };
const CLASSIFIED = { era: 'modern', revision: MODERN_REVISION } as const;

/** Enough of a ServerResponse for a call that never answers: the client's going away. */
function hangingResponse() {
  const res = Object.assign(new EventEmitter(), {
    destroyed: false,
    writableFinished: false,
    destroy() {
      res.destroyed = true;
    },
  });
  return { res: res as unknown as ServerResponse, goAway: () => res.emit('close') };
}

function call(id: number): JSONRPCRequest {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'hang',
      _meta: {
        [PROTOCOL_VERSION_META_KEY]: MODERN_REVISION,
        [CLIENT_CAPABILITIES_META_KEY]: {},
      },
    },
  };
}

/** A server whose tools/call hangs, reporting the signal it would watch (as mcp-endpoint.ts). */
function hangingServer(transport: ModernHotTransport, seen: (s: AbortSignal) => void) {
  const server = new Server(
    { name: 't', version: '1' },
    { capabilities: { tools: {} }, supportedProtocolVersions: ['2025-11-25', MODERN_REVISION] },
  );
  server.setRequestHandler('tools/call', (_req, ctx) => {
    seen(transport.signalOf(ctx.mcpReq.id) ?? ctx.mcpReq.signal);
    return new Promise(() => {});
  });
  return server;
}

describe('the hot transport and path (issue 34)', () => {
  for (const lean of [true, false]) {
    it(`a call's signal is aborted when its client goes away (${lean ? "the server's controller" : 'its own'})`, async () => {
      const transport = new ModernHotTransport();
      const signals: AbortSignal[] = [];
      const server = hangingServer(transport, (s) => signals.push(s));
      await server.connect(transport);
      if (lean) transport.useServerSignals(server);
      const own = (server as unknown as { _requestHandlerAbortControllers: Map<unknown, unknown> })
        ._requestHandlerAbortControllers;
      const [a, b] = [hangingResponse(), hangingResponse()];
      transport.serve(call(1), CLASSIFIED, a.res, AUTH);
      transport.serve(call(1), CLASSIFIED, b.res, AUTH);
      await eventually(() => expect(signals).toHaveLength(2));
      // With the server's controllers, the call watches the very signal its context carries.
      const controllers = [...own.values()] as AbortController[];
      expect(signals.map((s) => controllers.some((c) => c.signal === s))).toEqual([lean, lean]);
      a.goAway();
      expect(signals[0]!.aborted).toBe(true);
      expect(signals[0]!.reason).toMatchObject({ message: 'Connection closed' });
      // The other agent's request, same JSON-RPC id, is untouched.
      expect(signals[1]!.aborted).toBe(false);
      expect(transport.inFlight).toBe(1);
      await server.close();
      expect(signals[1]!.aborted).toBe(true);
      expect(transport.inFlight).toBe(0);
    });
  }

  it('serves a connected agent at once, and its first requests once its server connects', async () => {
    const signals: AbortSignal[] = [];
    const path = new ModernHotPath(
      (_agent, transport) => hangingServer(transport, (s) => signals.push(s)),
      () => {},
    );
    // Two requests before the server is connected: both wait for it, on one server.
    const first = [hangingResponse(), hangingResponse()].map((r) =>
      path.serve('a', call(1), CLASSIFIED, r.res, AUTH),
    );
    expect(first.every((p) => p instanceof Promise)).toBe(true);
    await Promise.all(first);
    // Connected: no promise, dispatched before serve returns (the handler runs a tick later).
    const later = path.serve('a', call(2), CLASSIFIED, hangingResponse().res, AUTH);
    expect(later).toBeUndefined();
    await eventually(() => expect(signals).toHaveLength(3));
    await path.close();
    expect(signals.every((s) => s.aborted)).toBe(true);
  });
});
