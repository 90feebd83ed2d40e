import fc from 'fast-check';
import {
  Server,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { TaskServer } from './tasks.js';

/**
 * Review (h-rev2): a result whose `_meta` holds a progress token after other keys. The SDK's
 * result check gives `_meta` back with the token moved first (its RequestMetaSchema parse);
 * the shortcut must give the same bytes. The property test's generator (fc.record) only ever
 * builds `_meta` with the token first, so it could not see this; here the keys are shuffled.
 */
type Wrap = (
  method: string,
  handler: (r: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
) => (r: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;
const info = { name: 't', version: '1' };
const options = { capabilities: { tools: {} } };
const ours = new TaskServer(info, options) as unknown as { _wrapHandler: Wrap };
const sdk = new Server(info, options) as unknown as { _wrapHandler: Wrap };
const sdkWrap = (Server.prototype as unknown as { _wrapHandler: Wrap })._wrapHandler;
const ctx = { mcpReq: { requestState: () => undefined } } as unknown as ServerContext;
const call = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'x' },
} as JSONRPCRequest;

async function both(result: unknown): Promise<[string, string]> {
  const h = async () => structuredClone(result) as Result;
  const a = await ours._wrapHandler('tools/call', h)(structuredClone(call), ctx);
  const b = await sdkWrap.call(sdk, 'tools/call', h)(structuredClone(call), ctx);
  return [JSON.stringify(a), JSON.stringify(b)];
}

describe("TaskServer's result shortcut, _meta key order", () => {
  it('hostile: a progress token after another key', async () => {
    for (const r of [
      { content: [{ type: 'text', text: 'a' }], _meta: { a: 1, progressToken: 2 } },
      { _meta: { a: 1, progressToken: 'x' }, content: [] },
    ]) {
      const [a, b] = await both(r);
      expect(a).toBe(b);
    }
  });

  it('over generated _meta in any key order', async () => {
    const entry = fc.oneof(
      fc.tuple(fc.constant('progressToken'), fc.oneof(fc.integer(), fc.string({ maxLength: 3 }))),
      fc.tuple(fc.string({ minLength: 1, maxLength: 3 }), fc.integer()),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(entry, { selector: (e) => e[0], maxLength: 4 }),
        async (entries) => {
          const [a, b] = await both({ _meta: Object.fromEntries(entries), content: [] });
          expect(a).toBe(b);
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** What the function registered for tools/call is handed (as in the property test). */
async function handed(server: Server, direct: boolean, request: unknown): Promise<unknown[]> {
  const seen: unknown[] = [];
  const fn = async (r: unknown) => {
    seen.push(r);
    return { content: [] };
  };
  server.setRequestHandler('tools/call', fn);
  if (direct) (server as TaskServer).toolCall = fn;
  type W = (r: JSONRPCRequest, c: ServerContext) => Promise<Result>;
  const h = (server as unknown as { _requestHandlers: Map<string, W> })._requestHandlers;
  await h.get('tools/call')!(structuredClone(request) as JSONRPCRequest, ctx).catch(() => {});
  return seen;
}

describe('the registered handler, request _meta in any key order', () => {
  it('is handed the same bytes as from the SDK', async () => {
    const entry = fc.oneof(
      fc.tuple(fc.constant('progressToken'), fc.oneof(fc.integer(), fc.string({ maxLength: 3 }))),
      fc.tuple(fc.string({ minLength: 1, maxLength: 3 }), fc.integer()),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(entry, { selector: (e) => e[0], maxLength: 4 }),
        async (entries) => {
          const req = { ...call, params: { name: 'x', _meta: Object.fromEntries(entries) } };
          const a = await handed(new TaskServer(info, options), true, req);
          const b = await handed(new Server(info, options), false, req);
          expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        },
      ),
      { numRuns: 300 },
    );
  });
});
