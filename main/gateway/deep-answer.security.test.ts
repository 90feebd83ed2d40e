import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { isRequested, nextEvent } from '../../test-support/core-events.js';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { connectClient, CountingSource, startTestApp, textOf } from '../../test-support/harness.js';
import type { CallToolResult, ToolCallContext } from '../tools/types.js';

/**
 * The outside tester's F1 and F2 from Airlock's side of the gateway: an answer `JSON.stringify`
 * cannot write (a `_meta` nested 10,000 deep). Servers' messages are bounded where they are
 * parsed (remote/upstream/json-values.ts), so a source inside the process brings it here, as the
 * next unbounded thing would. An approved call must end `failed` with the reason and the process
 * keep serving (it used to exit: the store's stringify threw out of an unawaited `run`); an auto
 * call's agent must get a JSON-RPC error, on both eras (its request used to stay open forever).
 */
const cleanup = cleanupAfterEach();

function deepValue(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

/** CountingSource whose calls answer with a `_meta` nested 10,000 deep while `deep` is set. */
class DeepSource extends CountingSource {
  deep = true;
  override async call(
    tool: string,
    args: Record<string, unknown>,
    ctx: ToolCallContext,
  ): Promise<CallToolResult> {
    const r = await super.call(tool, args, ctx);
    return this.deep ? { ...r, _meta: { a: deepValue(10_000) } } : r;
  }
}

async function setUp(era: 'legacy' | 'auto') {
  const source = new DeepSource();
  const t = await startTestApp({ sources: [source] });
  cleanup.push(() => t.stop());
  const agent: Client = await connectClient(t.started.mcpUrl, t.token, era);
  cleanup.push(() => agent.close());
  expect(agent.getProtocolEra()).toBe(era === 'auto' ? 'modern' : 'legacy');
  return { t, source, agent };
}

describe.each([
  ['2025 session', 'legacy'],
  ['2026-07-28', 'auto'],
] as const)('an answer JSON.stringify cannot write (%s)', (_era, mode) => {
  it('allowed once: the request ends failed with the reason, the agent is told, Airlock serves on', async () => {
    const { t, source, agent } = await setUp(mode);
    const requested = nextEvent(t.app, isRequested);
    const call = agent.callTool({ name: 'count_send', arguments: { to: 'bob' } });
    const { approval } = await requested;
    await t.app.control.decide(approval.id, { kind: 'allow_once' });
    const r = await call;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(
      /The call was sent, but Airlock could not finish handling it: Maximum call stack size exceeded\. It may have run; check before trying again\./,
    );
    const row = await t.app.control.getApproval(approval.id);
    expect(row.state).toBe('failed');
    const [activity] = await t.app.control.listActivity({ tool: 'count_send' });
    expect(activity?.outcome).toBe('error');
    expect(activity?.detail).toMatch(/could not finish handling it/);

    source.deep = false;
    const ok = await agent.callTool({ name: 'count_read', arguments: {} });
    expect(textOf(ok)).toMatch(/count_read ok/);
  });

  it('auto: the agent gets a JSON-RPC error at once, not a request left open; Airlock serves on', async () => {
    const { source, agent } = await setUp(mode);
    await expect(agent.callTool({ name: 'count_read', arguments: {} })).rejects.toThrow(
      /Airlock could not write this answer \(Maximum call stack size exceeded\)/,
    );
    source.deep = false;
    const ok = await agent.callTool({ name: 'count_read', arguments: {} });
    expect(textOf(ok)).toMatch(/count_read ok/);
  });
});
