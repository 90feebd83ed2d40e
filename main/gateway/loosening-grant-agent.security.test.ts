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

/**
 * Red-team wave 4: a held "always allow" (asked for from outside the window, confirmed on the
 * Tools page up to ten minutes on) names its agent by name. Revoking an agent ends its grants and
 * requests so that "a new agent given the same name inherits nothing" (revoke.security.test.ts);
 * a grant held for the revoked agent and confirmed after the revocation was made all the same,
 * under the name — for whichever agent bears it next.
 */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('a held "always allow" dies with the agent it was asked for', () => {
  it.each([
    ['re-added under the same name before the confirmation', true],
    ['not re-added (yet)', false],
  ])('agent revoked, %s: the grant is not made; the new agent asks', async (_label, readdFirst) => {
    const source = new CountingSource();
    t = await startTestApp({ sources: [source] });
    const token = new URL(t.started.controlUrl).hash.replace('#token=', '');
    const cli = httpControlClient(t.started.url, token);
    const old = await connectClient(t.started.mcpUrl, t.token);
    const call = old.callTool({ name: 'count_send', arguments: { to: 'someone' } });
    const { id } = await nextRequest(t.app);
    await cli.decide(id, { kind: 'always_allow' });
    await call;
    await old.close();
    await t.app.control.revokeAgent('test');
    const added = readdFirst ? await t.app.control.addAgent('test') : null;
    const [held] = await t.app.control.listPolicyChanges();
    const decided = await t.app.control.decidePolicyChange(held!.id, true);
    expect(decided.state).toBe('failed');
    expect(decided.error).toMatch(/revoked/);
    expect(await t.app.control.listGrants()).toEqual([]);
    // Whoever bears the name now asks like any agent.
    const fresh = added ?? (await t.app.control.addAgent('test'));
    const next = await connectClient(t.started.mcpUrl, fresh.token);
    const asked = nextRequest(t.app);
    const again = next.callTool({ name: 'count_send', arguments: { to: 'someone' } });
    expect((await asked).agent).toBe('test');
    expect(source.count('count_send')).toBe(1);
    await next.close();
    expect(textOf(await again.catch(() => ({ content: [] })))).not.toMatch(/count_send ok/);
  });
});
