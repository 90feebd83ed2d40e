import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callKey, canonicalJson } from '../approvals/canonical.js';
import type { McpHandler } from '../gateway/http-server.js';
import { nextRequest } from '../../test-support/core-events.js';
import {
  connectClient,
  CountingSource,
  startTestApp,
  textOf,
  type TestApp,
} from '../../test-support/harness.js';

/**
 * Issue 17, item 8: revoking an agent ends what it had going; sessions belong
 * to a token, not to a name; call comparison keeps every key.
 */
let t: TestApp;
let source: CountingSource;

beforeAll(async () => {
  source = new CountingSource();
  t = await startTestApp({ sources: [source], settings: { approvals: { waitSeconds: 300 } } });
});
afterAll(async () => {
  await t.stop();
});

const mcpPost = (token: string, body: unknown, sessionId?: string) =>
  fetch(t.started.mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } : {}),
    },
    body: JSON.stringify(body),
  });
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'x', version: '1' },
  },
};
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

describe('revoking an agent', () => {
  it('withdraws its pending requests (the waiting call is answered, approving later fails, nothing runs)', async () => {
    const token = (await t.app.control.addAgent('leaver')).token;
    const client = await connectClient(t.started.mcpUrl, token);
    const call = client.callTool({ name: 'count_send', arguments: { to: 'someone' } });
    const pending = (await nextRequest(t.app, (a) => a.agent === 'leaver')).id;
    await t.app.control.revokeAgent('leaver');
    const result = await call;
    expect(textOf(result)).toMatch(/withdrawn because this agent was revoked/);
    expect((await t.app.control.getApproval(pending)).state).toBe('withdrawn');
    expect((await t.app.control.listPending()).some((p) => p.agent === 'leaver')).toBe(false);
    await expect(t.app.control.decide(pending, { kind: 'allow_once' })).rejects.toThrow(
      /withdrawn/,
    );
    expect(source.count('count_send')).toBe(0);
    await client.close().catch(() => {});
  });

  it('ends its sessions; a new token under the same name does not inherit them', async () => {
    const old = (await t.app.control.addAgent('reused')).token;
    const init = await mcpPost(old, initialize);
    const sid = init.headers.get('mcp-session-id')!;
    await init.body?.cancel();
    expect(sid).toBeTruthy();
    const before = await mcpPost(old, listTools, sid);
    expect(before.status).toBe(200);
    await before.body?.cancel();

    await t.app.control.revokeAgent('reused');
    const fresh = (await t.app.control.addAgent('reused')).token;
    const inherited = await mcpPost(fresh, listTools, sid);
    expect(inherited.status).toBe(404);
    await inherited.body?.cancel();
  });

  it('the revoked token itself is refused (401) on its own open session, before the body is read', async () => {
    // Issue 34 hashes the token once per request (http-server.ts → agent-service.ts): the digest
    // it passes along must still be looked up against the live agents on every request.
    const old = (await t.app.control.addAgent('midway')).token;
    const init = await mcpPost(old, initialize);
    const sid = init.headers.get('mcp-session-id')!;
    await init.body?.cancel();
    const before = await mcpPost(old, listTools, sid);
    expect(before.status).toBe(200);
    expect(before.headers.get('content-type')).toMatch(/^(application\/json|text\/event-stream)/);
    await before.body?.cancel();
    await t.app.control.revokeAgent('midway');
    for (const body of [{ ...listTools, id: 3 }, '{not json', { jsonrpc: '2.0', id: 4 }]) {
      const after = await fetch(t.started.mcpUrl, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${old}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sid,
          'mcp-protocol-version': '2025-06-18',
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      expect(after.status).toBe(401);
      expect(await after.text()).not.toContain(sid);
    }
  });

  it('sessions are bound to the token even while the agent is not revoked', async () => {
    // Two live tokens can't share a name, so this checks the binding at the endpoint itself.
    const a = (await t.app.control.addAgent('binder')).token;
    const init = await mcpPost(a, initialize);
    const sid = init.headers.get('mcp-session-id')!;
    await init.body?.cancel();
    const mcp = (t.app as unknown as { mcp: McpHandler }).mcp;
    const req = new IncomingMessage(new Socket());
    req.method = 'POST';
    req.headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sid,
      'mcp-protocol-version': '2025-06-18',
    };
    const res = new ServerResponse(req);
    await mcp.handle({
      req,
      res,
      agent: 'binder',
      parsedBody: listTools,
      raw: Buffer.from(JSON.stringify(listTools)),
      credential: 'some-other-credential',
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('call comparison keeps every key', () => {
  it('a nested __proto__ key makes a different call', () => {
    const withProto = JSON.parse(
      '{"to":"a","opts":{"__proto__":{"bcc":"evil@example.com"}}}',
    ) as unknown;
    const without = JSON.parse('{"to":"a","opts":{}}') as unknown;
    expect(canonicalJson(withProto)).toBe(
      '{"opts":{"__proto__":{"bcc":"evil@example.com"}},"to":"a"}',
    );
    expect(callKey('agent', 'tool', withProto)).not.toBe(callKey('agent', 'tool', without));
  });

  it('key order still does not matter', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
  });
});
