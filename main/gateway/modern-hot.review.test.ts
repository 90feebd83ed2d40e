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
 * Review of h-modern (issue 34): the call's signal borrowed from Protocol's own per-request
 * controllers must still be aborted when its client goes away in every case the SDK's private map
 * does not hold what the transport expects; the path's bookkeeping across connect failures,
 * revocation and synchronous throws.
 */

const AUTH: AuthInfo = { token: 't', clientId: 'a', scopes: [], extra: { agent: 'a' } };
const CLASSIFIED = { era: 'modern', revision: MODERN_REVISION } as const;

function response() {
  const res = Object.assign(new EventEmitter(), {
    destroyed: false,
    writableFinished: false,
    writableEnded: false,
    status: 0,
    body: '',
    destroy() {
      res.destroyed = true;
    },
    writeHead(status: number) {
      res.status = status;
      return res;
    },
    end(body: string) {
      res.body = body;
      res.writableEnded = true;
      res.writableFinished = true;
      return res;
    },
  });
  return { res: res as unknown as ServerResponse, state: res, goAway: () => res.emit('close') };
}

function call(id: number | string, meta = true): JSONRPCRequest {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'hang',
      ...(meta
        ? {
            _meta: {
              [PROTOCOL_VERSION_META_KEY]: MODERN_REVISION,
              [CLIENT_CAPABILITIES_META_KEY]: {},
            },
          }
        : {}),
    },
  };
}

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

type Own = { _requestHandlerAbortControllers: Map<unknown, AbortController> };

describe('h-modern review: the borrowed signal', () => {
  it('a request the dispatch ladder refuses, then its client going away, leaves the next call cancellable', async () => {
    const transport = new ModernHotTransport();
    const signals: AbortSignal[] = [];
    const server = hangingServer(transport, (s) => signals.push(s));
    await server.connect(transport);
    transport.useServerSignals(server);
    const refused = response();
    // No envelope: the server's envelope check answers in dispatch, no handler, no controller.
    transport.serve(call(1, false), CLASSIFIED, refused.res, AUTH);
    expect(JSON.parse(refused.state.body)).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(transport.inFlight).toBe(0);
    expect(() => refused.goAway()).not.toThrow();
    const next = response();
    transport.serve(call(1), CLASSIFIED, next.res, AUTH);
    await eventually(() => expect(signals).toHaveLength(1));
    next.goAway();
    expect(signals[0]!.aborted).toBe(true);
    await server.close();
  });

  it("a call whose controller the server's map does not hold (an SDK keying it otherwise) is still cancelled", async () => {
    const transport = new ModernHotTransport();
    const signals: AbortSignal[] = [];
    const server = hangingServer(transport, (s) => signals.push(s));
    await server.connect(transport);
    transport.useServerSignals(server);
    // An SDK that keeps the map but keys it by something else than the transport's id.
    class Rekeyed extends Map<unknown, AbortController> {
      override set(k: unknown, v: AbortController) {
        return super.set(`k${String(k)}`, v);
      }
    }
    (server as unknown as Own)._requestHandlerAbortControllers = new Rekeyed();
    const c = response();
    transport.serve(call(1), CLASSIFIED, c.res, AUTH);
    await eventually(() => expect(signals).toHaveLength(1));
    c.goAway();
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[0]!.reason).toMatchObject({ message: 'Connection closed' });
    await server.close();
  });

  it('reads the map the server holds now, not the one it replaced (as Protocol does on close)', async () => {
    const transport = new ModernHotTransport();
    const signals: AbortSignal[] = [];
    const server = hangingServer(transport, (s) => signals.push(s));
    await server.connect(transport);
    transport.useServerSignals(server);
    const first = response();
    transport.serve(call(1), CLASSIFIED, first.res, AUTH);
    await eventually(() => expect(signals).toHaveLength(1));
    const stale = (server as unknown as Own)._requestHandlerAbortControllers;
    (server as unknown as Own)._requestHandlerAbortControllers = new Map();
    const second = response();
    transport.serve(call(1), CLASSIFIED, second.res, AUTH);
    await eventually(() => expect(signals).toHaveLength(2));
    expect(stale.size).toBe(1);
    second.goAway();
    expect(signals.map((s) => s.aborted)).toEqual([false, true]);
    first.goAway();
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
    await server.close();
  });

  it('server closed while calls run: each aborted with Connection closed, nothing left', async () => {
    const transport = new ModernHotTransport();
    const signals: AbortSignal[] = [];
    const server = hangingServer(transport, (s) => signals.push(s));
    await server.connect(transport);
    transport.useServerSignals(server);
    for (const id of [1, 1, 'x']) transport.serve(call(id), CLASSIFIED, response().res, AUTH);
    await eventually(() => expect(signals).toHaveLength(3));
    await server.close();
    expect(signals.map((s) => (s.reason as Error | undefined)?.message)).toEqual([
      'Connection closed',
      'Connection closed',
      'Connection closed',
    ]);
    expect(transport.inFlight).toBe(0);
    expect((server as unknown as Own)._requestHandlerAbortControllers.size).toBe(0);
  });
});

describe('h-modern review: the path', () => {
  it("a revoked agent's connect failing does not drop the entry its next request made", async () => {
    let builds = 0;
    let fail = true;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const path = new ModernHotPath(
      (_agent, transport) => {
        builds++;
        const server = hangingServer(transport, () => {});
        if (fail) {
          fail = false;
          // Fails once the agent has been revoked and its next request has built a new server.
          server.connect = async () => {
            await gate;
            throw new Error('connect failed');
          };
        }
        return server;
      },
      () => {},
    );
    const first = path.serve('a', call(1), CLASSIFIED, response().res, AUTH);
    path.forget('a');
    const second = path.serve('a', call(2), CLASSIFIED, response().res, AUTH);
    release();
    await expect(first).rejects.toThrow('connect failed');
    await second;
    expect(builds).toBe(2);
    // The second server is still the agent's: a third request reuses it, synchronously.
    expect(path.serve('a', call(3), CLASSIFIED, response().res, AUTH)).toBeUndefined();
    expect(builds).toBe(2);
    await path.close();
  });

  it('a connect that fails: the next request builds afresh and is served', async () => {
    let builds = 0;
    const signals: AbortSignal[] = [];
    const path = new ModernHotPath(
      (_agent, transport) => {
        builds++;
        const server = hangingServer(transport, (s) => signals.push(s));
        if (builds === 1) server.connect = () => Promise.reject(new Error('connect failed'));
        return server;
      },
      () => {},
    );
    await expect(path.serve('a', call(1), CLASSIFIED, response().res, AUTH)).rejects.toThrow(
      'connect failed',
    );
    const c = response();
    await path.serve('a', call(1), CLASSIFIED, c.res, AUTH);
    await eventually(() => expect(signals).toHaveLength(1));
    c.goAway();
    expect(signals[0]!.aborted).toBe(true);
    await path.close();
  });

  it('a synchronous throw in serve is a rejection of McpEndpoint.handle, not an exception', async () => {
    const { McpEndpoint } = await import('./mcp-endpoint.js');
    const { Logger } = await import('../platform/log.js');
    const endpoint = new McpEndpoint({
      pipeline: {} as never,
      features: {} as never,
      logger: new Logger({ stderr: false }),
      version: '0',
      maxBodyBytes: 1 << 20,
      hotPath: true,
    });
    const hot = (endpoint as unknown as { hot: ModernHotPath }).hot;
    hot.serve = () => {
      throw new Error('sync');
    };
    const body = call(1);
    const req = Object.assign(new EventEmitter(), {
      method: 'POST',
      url: '/mcp',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN_REVISION,
        'mcp-method': 'tools/call',
        'mcp-name': 'hang',
      },
    });
    // McpEndpoint.handle answers in its caller's turn (issue 34, h-in); its caller, Gateway's async
    // mcp(), makes a throw a rejection, answered 500 (http-server.entry.review.test.ts).
    const result = (async () =>
      endpoint.handle({
        req: req as never,
        res: response().res,
        agent: 'a',
        parsedBody: body,
        raw: Buffer.from(JSON.stringify(body)),
        credential: 'c',
      }))();
    await expect(result).rejects.toThrow('sync');
    await endpoint.close();
  });
});
