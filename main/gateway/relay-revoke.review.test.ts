import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test-support/eventually.js';
import type { LazyMcpEndpoint } from './lazy-mcp.js';
import {
  connectClient,
  CountingSource,
  startTestApp,
  textOf,
  type TestApp,
} from '../../test-support/harness.js';

/**
 * Review of issue 34's kept relay set and frozen AuthInfo (mcp-endpoint.ts): an agent's set of
 * open calls' relays now stays once empty, and revoking drops it only when empty. A call still
 * open when its agent is revoked stays findable by relayFor until it ends, then nothing is; a new
 * agent under the same name (another token) gets its own AuthInfo and relays, never the old call's.
 */
let t: TestApp;
let source: CountingSource;
const relayFor = (agent: string) =>
  (t.app as unknown as { mcp: LazyMcpEndpoint }).mcp.relayFor(agent);

beforeAll(async () => {
  source = new CountingSource();
  t = await startTestApp({ sources: [source] });
});
afterAll(async () => {
  source.unhold();
  await t.stop();
});

async function openCall(name: string, token: string, mode: 'legacy' | 'auto') {
  const client = await connectClient(t.started.mcpUrl, token, mode);
  const before = source.count('count_read');
  source.hold();
  const call = client.callTool({ name: 'count_read', arguments: { who: name } });
  await eventually(() => expect(source.count('count_read')).toBe(before + 1));
  return { client, call };
}

describe.each(['legacy', 'auto'] as const)('relayFor across a revocation (%s client)', (mode) => {
  it('keeps a revoked agent’s open call findable until it ends, then gives the new agent only its own', async () => {
    const name = `relayer-${mode}`;
    const old = await openCall(name, (await t.app.control.addAgent(name)).token, mode);
    const first = relayFor(name);
    expect(first).toBeDefined();

    await t.app.control.revokeAgent(name);
    // The call is still open: its relay stays findable (as before issue 34).
    expect(relayFor(name)).toBe(first);
    source.unhold();
    expect(textOf(await old.call)).toMatch(/count_read ok/);
    expect(relayFor(name)).toBeUndefined();
    await old.client.close().catch(() => {});

    // Same name, another token: its AuthInfo and relays are its own.
    const fresh = await openCall(name, (await t.app.control.addAgent(name)).token, mode);
    const second = relayFor(name);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    source.unhold();
    expect(textOf(await fresh.call)).toMatch(/count_read ok/);
    expect(relayFor(name)).toBeUndefined();
    await fresh.client.close().catch(() => {});
  });
});
