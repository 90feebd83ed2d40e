import { describe, expect, it } from 'vitest';
import { LoneCallServer } from './mcp-handlers/lone-call.js';

/**
 * A 2025 session's lone-call kind (plain steps, or approval-url's choice for a client that
 * declared URL elicitation) is decided once its initialize has run, not read again per call
 * (issue 34, lone-call.ts `loneKind`): nothing before initialize, and what an initialize that
 * reaches the SDK's handler sets is what the next call sees.
 */
const call = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 't', arguments: { n: 1 } },
};

function server() {
  const s = new LoneCallServer({ name: 'airlock', version: '0' }, { capabilities: { tools: {} } });
  s.setRequestHandler('tools/call', () => Promise.resolve({ content: [] }));
  // What tools.ts sets: two recognisable step functions.
  s.plainCall = () => Promise.resolve('plain');
  s.urlCall = () => Promise.resolve('url');
  return s;
}

/** The SDK's own initialize handler, as its dispatch would run it. */
async function initialize(s: LoneCallServer, capabilities: Record<string, unknown>) {
  const handlers = (
    s as unknown as {
      _requestHandlers: Map<string, (request: unknown, ctx: unknown) => Promise<unknown>>;
    }
  )._requestHandlers;
  await handlers.get('initialize')!(
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities,
        clientInfo: { name: 'a', version: '1' },
      },
    },
    {},
  );
}

describe('a 2025 session decides its lone-call kind once initialized', () => {
  it('takes no lone call before initialize, and does not keep that answer', async () => {
    const s = server();
    expect(s.loneCallOf(call)).toBeUndefined();
    await initialize(s, {});
    expect(s.loneCallOf(call)?.steps).toBe(s.plainCall);
  });

  it('a client with URL elicitation gets urlCall on every call', async () => {
    const s = server();
    await initialize(s, { elicitation: { url: {} } });
    expect(s.loneCallOf(call)?.steps).toBe(s.urlCall);
    expect(s.loneCallOf({ ...call, id: 2 })?.steps).toBe(s.urlCall);
  });

  it('an initialize reaching the SDK handler again decides afresh', async () => {
    const s = server();
    await initialize(s, {});
    expect(s.loneCallOf(call)?.steps).toBe(s.plainCall);
    await initialize(s, { elicitation: { url: {} } });
    expect(s.loneCallOf(call)?.steps).toBe(s.urlCall);
    await initialize(s, {});
    expect(s.loneCallOf(call)?.steps).toBe(s.plainCall);
  });
});
