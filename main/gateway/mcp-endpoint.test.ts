import { afterEach, describe, expect, it } from 'vitest';
import {
  connectClient,
  CountingSource,
  getStreamOpen,
  startTestApp,
  textOf,
  type TestApp,
} from '../../test-support/harness.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('/mcp serves both protocol eras', () => {
  it('2025 era: initialize, session, tools/list, tools/call airlock_status', async () => {
    t = await startTestApp();
    const client = await connectClient(t.started.mcpUrl, t.token, 'legacy');
    expect(client.getProtocolEra()).toBe('legacy');
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).toContain('airlock_status');
    const status = tools.find((x) => x.name === 'airlock_status')!;
    expect(status.annotations?.readOnlyHint).toBe(true);
    const result = await client.callTool({ name: 'airlock_status', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/No Google account is connected/);
    await client.close();
  });

  it('2026-07-28 era: negotiated client lists and calls tools', async () => {
    t = await startTestApp();
    const client = await connectClient(t.started.mcpUrl, t.token, 'auto');
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).toContain('airlock_status');
    const result = await client.callTool({ name: 'airlock_status', arguments: {} });
    expect(textOf(result)).toMatch(/Airlock/);
    await client.close();
  });

  it('unknown tools are a JSON-RPC error, invalid arguments a readable tool error', async () => {
    const source = new CountingSource();
    t = await startTestApp({ sources: [source] });
    const client = await connectClient(t.started.mcpUrl, t.token);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(
      /Unknown tool: nope/,
    );
    const bad = await client.callTool({ name: 'count_send', arguments: { to: 1 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/Invalid arguments for count_send: \/to must be string/);
    expect(source.count('count_send')).toBe(0);
    await client.close();
  });

  it('an unknown or foreign session id gets 404 so clients re-initialize', async () => {
    t = await startTestApp();
    const res = await fetch(t.started.mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${t.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'does-not-exist',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(res.status).toBe(404);
    // A real session, used with another agent's token, is not found either.
    const client = await connectClient(t.started.mcpUrl, t.token);
    const sessionId = (client as unknown as { transport?: { sessionId?: string } }).transport
      ?.sessionId;
    expect(sessionId).toBeTruthy();
    const other = await t.app.control.addAgent('other');
    const foreign = await fetch(t.started.mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${other.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId!,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(foreign.status).toBe(404);
    await client.close();
  });

  it('disabling a tool removes it from tools/list and sends tools/list_changed', async () => {
    const source = new CountingSource();
    t = await startTestApp({ sources: [source] });
    const client = await connectClient(t.started.mcpUrl, t.token);
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
    );
    // The 2025 era delivers notifications on the GET stream: wait for it to open.
    await getStreamOpen(client);
    await t.app.control.setToolPolicy('count_read', { enabled: false });
    await changed;
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).not.toContain('count_read');
    await expect(client.callTool({ name: 'count_read', arguments: {} })).rejects.toThrow(
      /Unknown tool/,
    );
    await client.close();
  });

  it('revoking an agent stops its token at once, even mid-session', async () => {
    t = await startTestApp();
    const client = await connectClient(t.started.mcpUrl, t.token);
    await t.app.control.revokeAgent('test');
    const res = await fetch(t.started.mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${t.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(res.status).toBe(401);
    await client.close().catch(() => {});
  });
});
