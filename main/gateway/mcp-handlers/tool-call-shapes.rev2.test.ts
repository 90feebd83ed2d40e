import fc from 'fast-check';
import { Server, type JSONRPCRequest, type Result } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  ctx,
  handedBy,
  info,
  options,
  sdkWrap,
  type Wrap,
} from '../../../test-support/tool-call-wrap.js';
import { TaskServer } from './tasks.js';

/**
 * Review (h-rev2): a result whose `_meta` holds a progress token after other keys. The SDK's
 * result check gives `_meta` back with the token moved first (its RequestMetaSchema parse);
 * the shortcut must give the same bytes. The property test's generator (fc.record) only ever
 * builds `_meta` with the token first, so it could not see this; here the keys are shuffled.
 */
const ours = new TaskServer(info, options) as unknown as { _wrapHandler: Wrap };
const sdk = new Server(info, options) as unknown as { _wrapHandler: Wrap };
const call = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'x' },
} as JSONRPCRequest;

/** `_meta` entries in any key order, a progress token among them or not. */
const entry = fc.oneof(
  fc.tuple(fc.constant('progressToken'), fc.oneof(fc.integer(), fc.string({ maxLength: 3 }))),
  fc.tuple(fc.string({ minLength: 1, maxLength: 3 }), fc.integer()),
);
const metaEntries = fc.uniqueArray(entry, { selector: (e) => e[0], maxLength: 4 });

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
    await fc.assert(
      fc.asyncProperty(metaEntries, async (entries) => {
        const [a, b] = await both({ _meta: Object.fromEntries(entries), content: [] });
        expect(a).toBe(b);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the registered handler, request _meta in any key order', () => {
  it('is handed the same bytes as from the SDK', async () => {
    await fc.assert(
      fc.asyncProperty(metaEntries, async (entries) => {
        const req = { ...call, params: { name: 'x', _meta: Object.fromEntries(entries) } };
        const a = await handedBy(new TaskServer(info, options), true, req);
        const b = await handedBy(new Server(info, options), false, req);
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
      }),
      { numRuns: 300 },
    );
  });
});
