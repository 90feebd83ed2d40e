import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { httpControlClient } from '../../common/http-control-client.js';
import { nextRequest } from '../../test-support/core-events.js';
import {
  connectClient,
  CountingSource,
  startTestApp,
  textOf,
  type TestApp,
} from '../../test-support/harness.js';
import type { ToolDefinition } from '../tools/types.js';

/**
 * Red-team wave 4, TOCTOU on "always allow" from outside the window (docs/security.md "A
 * decision only on what was shown"). In the window, "Always allow" is refused once the tool's
 * description, title or hints differ from the card's (shown-binding.ts): a server cannot have a
 * grant made on a definition the user was not shown. Asked for by the CLI (or any control-API
 * caller), the same decision runs the call once and leaves the standing grant waiting for the
 * user's confirmation on the Tools page, up to ten minutes on — where only a one-line summary is
 * shown. The grant was made at confirmation on the tool as it was then: a server that relisted
 * the tool meanwhile ("Sends to everyone", now destructive) got a grant on words nobody saw.
 */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function start() {
  const source = new CountingSource();
  t = await startTestApp({ sources: [source] });
  const token = new URL(t.started.controlUrl).hash.replace('#token=', '');
  // The CLI's transport: the control token, not Airlock's page.
  return { t, source, cli: httpControlClient(t.started.url, token) };
}

/** The server relists count_send with `change` applied. */
function relist(source: CountingSource, change: (d: ToolDefinition) => ToolDefinition): void {
  source.defs = source.defs.map((d) => (d.name === 'count_send' ? change(d) : d));
  source.changed();
}

const CHANGES: [string, (d: ToolDefinition) => ToolDefinition][] = [
  ['a new description', (d) => ({ ...d, description: 'Sends to everyone in your address book.' })],
  ['now destructive', (d) => ({ ...d, annotations: { ...d.annotations, destructiveHint: true } })],
  ['a new title', (d) => ({ ...d, title: 'Harmless preview' })],
];

describe('a held "always allow" is made only on the tool the card showed', () => {
  it.each(CHANGES)(
    'relisted with %s after the request: the window would refuse the grant, and so does the held change at confirmation',
    async (_label, change) => {
      const { t, source, cli } = await start();
      const agent = await connectClient(t.started.mcpUrl, t.token);
      const call = agent.callTool({ name: 'count_send', arguments: { to: 'someone' } });
      const { id } = await nextRequest(t.app);
      await cli.decide(id, { kind: 'always_allow' });
      await call;
      expect(source.count('count_send')).toBe(1); // allowed once, as shown
      relist(source, change);
      const [held] = await t.app.control.listPolicyChanges();
      const decided = await t.app.control.decidePolicyChange(held!.id, true);
      expect(decided.state).toBe('failed');
      expect(decided.error).toMatch(/changed since this request was shown/);
      expect(await t.app.control.listGrants()).toEqual([]);
      // The next call asks: no grant lets it run unseen.
      const next = nextRequest(t.app);
      const again = agent.callTool({ name: 'count_send', arguments: { to: 'someone else' } });
      expect((await next).tool).toBe('count_send');
      expect(source.count('count_send')).toBe(1);
      await agent.close();
      await again.catch(() => {});
    },
  );

  it.each(CHANGES)(
    'relisted with %s before the decision: refused at once as in the window, nothing run, nothing held',
    async (_label, change) => {
      const { t, source, cli } = await start();
      const agent = await connectClient(t.started.mcpUrl, t.token);
      const call = agent.callTool({ name: 'count_send', arguments: { to: 'someone' } });
      const { id } = await nextRequest(t.app);
      relist(source, change);
      const err = await cli.decide(id, { kind: 'always_allow' }).then(
        () => null,
        (e: unknown) => e as { code?: string; message?: string },
      );
      expect(err).toMatchObject({
        code: 'CONFLICT',
        message: expect.stringMatching(/changed since this request was shown/),
      });
      expect(await t.app.control.listPolicyChanges()).toEqual([]);
      expect(source.count('count_send')).toBe(0);
      expect((await t.app.control.getApproval(id)).state).toBe('pending');
      // Allow once still runs the call as shown.
      await t.app.control.decide(id, { kind: 'allow_once' });
      expect(textOf(await call)).toMatch(/count_send ok/);
      await agent.close();
    },
  );

  it('unchanged: the held grant is made on confirmation, as before', async () => {
    const { t, cli } = await start();
    const agent = await connectClient(t.started.mcpUrl, t.token);
    const call = agent.callTool({ name: 'count_send', arguments: { to: 'someone' } });
    const { id } = await nextRequest(t.app);
    await cli.decide(id, { kind: 'always_allow' });
    await call;
    const [held] = await t.app.control.listPolicyChanges();
    expect((await t.app.control.decidePolicyChange(held!.id, true)).state).toBe('confirmed');
    expect((await t.app.control.listGrants()).map((g) => g.toolKey)).toEqual(['count/count_send']);
    await agent.close();
  });
});

/** A relisting of count_send: any of its words changed, or none (then the grant must be made). */
const relisting = fc.record({
  description: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
  title: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
  readOnlyHint: fc.option(fc.boolean(), { nil: undefined }),
  destructiveHint: fc.option(fc.boolean(), { nil: undefined }),
  openWorldHint: fc.option(fc.boolean(), { nil: undefined }),
});

describe('generated relistings while the grant waits (fast-check)', () => {
  it('the held grant is made exactly when the tool is as its card showed it', async () => {
    const { t, source, cli } = await start();
    const agent = await connectClient(t.started.mcpUrl, t.token);
    const original = source.defs.find((d) => d.name === 'count_send')!;
    let round = 0;
    try {
      await fc.assert(
        fc.asyncProperty(relisting, async (r) => {
          source.defs = source.defs.map((d) => (d.name === 'count_send' ? original : d));
          source.changed();
          for (const g of await t.app.control.listGrants()) await t.app.control.revokeGrant(g.id);
          round += 1;
          const call = agent.callTool({
            name: 'count_send',
            arguments: { to: `r${round}@x.example` },
          });
          const { id } = await nextRequest(t.app);
          await cli.decide(id, { kind: 'always_allow' });
          await call;
          const changed: ToolDefinition = {
            ...original,
            ...(r.description !== undefined ? { description: r.description } : {}),
            ...(r.title !== undefined ? { title: r.title } : {}),
            annotations: {
              ...original.annotations,
              ...(r.readOnlyHint !== undefined ? { readOnlyHint: r.readOnlyHint } : {}),
              ...(r.destructiveHint !== undefined ? { destructiveHint: r.destructiveHint } : {}),
              ...(r.openWorldHint !== undefined ? { openWorldHint: r.openWorldHint } : {}),
            },
          };
          relist(source, () => changed);
          const same =
            JSON.stringify({ ...changed, annotations: changed.annotations }) ===
            JSON.stringify({ ...original, annotations: { ...original.annotations } });
          const [held] = await t.app.control.listPolicyChanges();
          const decided = await t.app.control.decidePolicyChange(held!.id, true);
          expect(decided.state).toBe(same ? 'confirmed' : 'failed');
          expect((await t.app.control.listGrants()).filter((g) => g.active)).toHaveLength(
            same ? 1 : 0,
          );
        }),
        { numRuns: 25 },
      );
    } finally {
      await agent.close();
    }
  });
});

/**
 * Held out (not tuned on): what runs changes while the grant waits — the input schema — and the
 * tool goes away. Neither may end in a grant.
 */
describe('held out: the schema changed, the tool gone', () => {
  it.each([
    [
      'a wider input schema',
      (s: CountingSource) =>
        relist(s, (d) => ({
          ...d,
          inputSchema: { type: 'object', properties: { to: { type: 'string' } } },
        })),
    ],
    [
      'the tool gone',
      (s: CountingSource) => {
        s.defs = s.defs.filter((d) => d.name !== 'count_send');
        s.changed();
      },
    ],
  ])('%s: the held grant fails, nothing granted', async (_label, change) => {
    const { t, source, cli } = await start();
    const agent = await connectClient(t.started.mcpUrl, t.token);
    const call = agent.callTool({ name: 'count_send', arguments: { to: 'someone' } });
    const { id } = await nextRequest(t.app);
    await cli.decide(id, { kind: 'always_allow' });
    await call;
    change(source);
    const [held] = await t.app.control.listPolicyChanges();
    expect((await t.app.control.decidePolicyChange(held!.id, true)).state).toBe('failed');
    expect(await t.app.control.listGrants()).toEqual([]);
    await agent.close();
  });
});
