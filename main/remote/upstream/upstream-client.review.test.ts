import {
  Client,
  type JSONRPCMessage,
  type JSONRPCResponse,
  type Transport,
} from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { UpstreamClient } from './upstream-client.js';

/**
 * Review of issue 34's shortcut (UpstreamClient settling a plain result itself), on hand-written
 * cases the property test's generator does not make: progress before the result with its handler
 * and idle timeout, a second answer for the same id, an answer after the caller gave up (late), a
 * result whose `_meta` names a related task — and the SDK's books after many calls (no leak).
 * The reference is the SDK client with only UpstreamClient's long-standing response deferral.
 */
class Reference extends Client {
  protected override _onresponse(response: JSONRPCResponse): void {
    queueMicrotask(() => super._onresponse(response));
  }
  override request = UpstreamClient.prototype.request;
}

type Script = (id: number, send: (m: unknown) => void) => void;

/** A transport whose every request after initialize is answered by `script` (one event-loop turn later). */
function scripted(script: Script): Transport & { deliver(m: unknown): void } {
  const t: Transport & { deliver(m: unknown): void } = {
    start: () => Promise.resolve(),
    close: () => Promise.resolve(t.onclose?.()),
    deliver: (m) => t.onmessage?.(m as JSONRPCMessage),
    send: (m: JSONRPCMessage) => {
      const msg = m as { id?: number; method?: string };
      if (msg.id === undefined) return Promise.resolve();
      const id = msg.id;
      setImmediate(() => {
        if (msg.method === 'initialize')
          t.deliver({
            jsonrpc: '2.0',
            id,
            result: {
              protocolVersion: '2025-11-25',
              capabilities: { tools: {}, logging: {} },
              serverInfo: { name: 'scripted', version: '1' },
            },
          });
        else script(id, t.deliver);
      });
      return Promise.resolve();
    },
  };
  return t;
}

interface Books {
  _responseHandlers: Map<unknown, unknown>;
  _progressHandlers: Map<unknown, unknown>;
  _timeoutInfo: Map<unknown, unknown>;
}
const sizes = (c: Client) => {
  const b = c as unknown as Books;
  return [b._responseHandlers.size, b._progressHandlers.size, b._timeoutInfo.size];
};
const turn = () => new Promise((resolve) => setImmediate(resolve));

async function run(
  make: () => Client,
  script: Script,
  calls: number,
  signal?: () => AbortSignal,
): Promise<unknown> {
  const client = make();
  const log: unknown[] = [];
  client.onerror = (e) => void log.push(`error: ${e.message}`);
  const t = scripted(script);
  await client.connect(t);
  const outcomes: unknown[] = [];
  for (let i = 0; i < calls; i++) {
    const progress: number[] = [];
    outcomes.push(
      await client
        .callTool(
          { name: 'echo', arguments: {} },
          {
            onprogress: (p) => void progress.push(p.progress),
            resetTimeoutOnProgress: true,
            ...(signal ? { signal: signal() } : {}),
          },
        )
        .then(
          (r) => ({ result: r, progress }),
          (e: Error & { code?: unknown }) => ({ error: [e.constructor.name, e.code], progress }),
        ),
    );
  }
  // Whatever the script still sends after the last call settled (duplicates, late answers).
  for (let i = 0; i < 5; i++) await turn();
  const books = sizes(client);
  await client.close();
  return { outcomes, log, books };
}

const info = { name: 'airlock', version: 'test' };
const options = { versionNegotiation: { mode: 'legacy' as const } };
const both = async (script: Script, calls: number, signal?: () => AbortSignal) => {
  const ours = await run(() => new UpstreamClient(info, options), script, calls, signal);
  const sdk = await run(() => new Reference(info, options), script, calls, signal);
  expect(ours).toEqual(sdk);
  return ours as { books: number[]; log: unknown[]; outcomes: unknown[] };
};

const progress = (id: number, n: number) => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: id, progress: n },
});
const result = (id: number, extra: object = {}) => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text: `r${id}` }], ...extra },
});

describe('UpstreamClient shortcut ≡ the SDK, hand-written cases (review, issue 34)', () => {
  it('progress then the result in one burst, 200 calls: same progress and results, books empty', async () => {
    const r = await both((id, send) => {
      send(progress(id, 1));
      send(progress(id, 2));
      send(result(id));
      send(progress(id, 3)); // after the result: no handler any more, dropped in both
    }, 200);
    expect(r.books).toEqual([0, 0, 0]);
    expect(r.outcomes[0]).toMatchObject({ progress: [1, 2] });
  });

  it('a second answer for the same id: the first settles, the second is an unknown id in both', async () => {
    const r = await both((id, send) => {
      send(result(id));
      send(result(id, { extra: 'again' }));
    }, 3);
    expect(r.log).toHaveLength(3);
    expect(r.books).toEqual([0, 0, 0]);
  });

  it('an answer after the caller aborted: a cancellation in both, the late result an unknown id', async () => {
    let controller: AbortController;
    const r = await both(
      (id, send) => {
        controller.abort('gave up');
        setImmediate(() => send(result(id)));
      },
      3,
      () => (controller = new AbortController()).signal,
    );
    expect(r.outcomes[0]).toHaveProperty('error');
    expect(r.log).toHaveLength(3); // each late result: an unknown id
    expect(r.books).toEqual([0, 0, 0]);
  });

  it('results with related-task `_meta`, a string id for a numeric request, an error: as the SDK', async () => {
    const r = await both((id, send) => {
      if (id % 3 === 0)
        send(result(id, { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } }));
      else if (id % 3 === 1) send({ ...result(id), id: String(id) });
      else send({ jsonrpc: '2.0', id, error: { code: -32000, message: 'no' } });
    }, 9);
    expect(r.books).toEqual([0, 0, 0]);
  });
});

describe('UpstreamClient: a response dispatch that throws (issue 34)', () => {
  // The deferred dispatch runs in a promise reaction: a throw there must reach onerror — the
  // transport's own and the client's, as when the SDK dispatched inside the transport's
  // onmessage — not become an unhandled rejection (which fails this run).
  it('reaches the transport’s and the client’s onerror, plain result or not', async () => {
    const client = new UpstreamClient(info, options);
    const t = scripted(() => {});
    const seen: string[] = [];
    t.onerror = (e) => void seen.push(`transport: ${e.message}`);
    client.onerror = (e) => void seen.push(`client: ${e.message}`);
    await client.connect(t);
    const handlers = (client as unknown as Books)._responseHandlers;
    const throwing = (n: number) => () => {
      throw new Error(`boom ${n}`);
    };
    handlers.set(101, throwing(1)); // a plain result: settled by UpstreamClient itself
    handlers.set(102, throwing(2)); // an error response: the SDK's _onresponse
    t.deliver(result(101));
    t.deliver({ jsonrpc: '2.0', id: 102, error: { code: -32000, message: 'no' } });
    expect(seen).toEqual([]); // deferred, as before
    await turn();
    expect(seen).toEqual([
      'transport: boom 1',
      'client: boom 1',
      'transport: boom 2',
      'client: boom 2',
    ]);
    await client.close();
  });
});
