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
 * open calls' relays stays once empty, and revoking drops it. A call still open when its agent is
 * revoked is no longer findable by relayFor: a new agent under the same name (another token) gets
 * its own AuthInfo and relays, never the old call's — even while the old call is still open, when
 * the approval engine's fallback (relayFor) would otherwise have sent a server's requests for the
 * new agent's approved call to the revoked agent's client.
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

/** `hold`: a new gate (CountingSource.hold replaces the one open calls wait on: one at a time). */
async function openCall(name: string, token: string, mode: 'legacy' | 'auto', hold = true) {
  const client = await connectClient(t.started.mcpUrl, token, mode);
  const before = source.count('count_read');
  if (hold) source.hold();
  const call = client.callTool({ name: 'count_read', arguments: { who: name } });
  await eventually(() => expect(source.count('count_read')).toBe(before + 1));
  return { client, call };
}

describe.each(['legacy', 'auto'] as const)('relayFor across a revocation (%s client)', (mode) => {
  it('finds no revoked agent’s open call, and gives a new agent of the name only its own', async () => {
    const name = `relayer-${mode}`;
    const old = await openCall(name, (await t.app.control.addAgent(name)).token, mode);
    const first = relayFor(name);
    expect(first).toBeDefined();

    await t.app.control.revokeAgent(name);
    // The call is still open, but its agent is gone: its relay is findable no more.
    expect(relayFor(name)).toBeUndefined();

    // Same name, another token, while the old call is still open: only its own relay is found.
    const fresh = await openCall(name, (await t.app.control.addAgent(name)).token, mode, false);
    const second = relayFor(name);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    source.unhold();
    expect(textOf(await old.call)).toMatch(/count_read ok/);
    expect(textOf(await fresh.call)).toMatch(/count_read ok/);
    expect(relayFor(name)).toBeUndefined();
    await old.client.close().catch(() => {});
    await fresh.client.close().catch(() => {});
  });
});
