import { afterEach, describe, expect, it } from 'vitest';
import { nextRequest } from '../../test-support/core-events.js';
import {
  connectClient,
  CountingSource,
  startTestApp,
  type TestApp,
} from '../../test-support/harness.js';
import { constraintHolds } from './grant-scope.js';

// Issue 16 item 2 / issue 17 "a third party can only make things stricter": a grant covers
// exactly what the user confirmed — this agent, this tool as it was, these arguments — and
// nothing an agent or an upstream can arrange afterwards.

let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function grantedSetup(constraint?: { path: string; op: 'domain' | 'equals'; value: string }) {
  const source = new CountingSource();
  t = await startTestApp({ sources: [source] });
  const client = await connectClient(t.started.mcpUrl, t.token);
  const app = t.app;
  const requested = nextRequest(app);
  const call = client.callTool({ name: 'count_send', arguments: { to: 'ann@mycorp.com' } });
  const id = (await requested).id;
  await app.control.decide(id, {
    kind: 'always_allow',
    confirm: true,
    ...(constraint ? { constraint } : {}),
  });
  await call;
  return { source, client, app };
}

/** Resolves true when the call asked (a request appeared), false when it ran freely. */
async function asks(
  app: TestApp['app'],
  client: Awaited<ReturnType<typeof connectClient>>,
  args: Record<string, unknown>,
): Promise<boolean> {
  const requested = nextRequest(app).then((r) => r);
  const call = client.callTool({ name: 'count_send', arguments: args });
  const first = await Promise.race([requested.then(() => 'asked'), call.then(() => 'ran')]);
  if (first === 'asked') {
    const r = await requested;
    await app.control.decide(r.id, { kind: 'deny' });
    await call;
    return true;
  }
  return false;
}

describe('grants cannot be stretched', () => {
  it('an always-allow without confirm makes no grant and leaves the request pending', async () => {
    const source = new CountingSource();
    t = await startTestApp({ sources: [source] });
    const client = await connectClient(t.started.mcpUrl, t.token);
    const requested = nextRequest(t.app);
    void client.callTool({ name: 'count_send', arguments: { to: 'x@y.z' } });
    const id = (await requested).id;
    await expect(t.app.control.decide(id, { kind: 'always_allow' })).rejects.toMatchObject({
      code: 'CONFIRM_REQUIRED',
    });
    expect(await t.app.control.listGrants({ includeInactive: true })).toEqual([]);
    expect((await t.app.control.getApproval(id)).state).toBe('pending');
    expect(source.count('count_send')).toBe(0);
  });

  it('a domain grant does not cover look-alike domains, mixed recipients, or a missing argument', async () => {
    const { app, client, source } = await grantedSetup({
      path: 'to',
      op: 'domain',
      value: 'mycorp.com',
    });
    expect(await asks(app, client, { to: 'bob@sales.mycorp.com' })).toBe(false);
    expect(await asks(app, client, { to: 'eve@mycorp.com.evil.org' })).toBe(true);
    expect(await asks(app, client, { to: 'eve@evilmycorp.com' })).toBe(true);
    expect(await asks(app, client, { to: 'x@mycorp.com@evil.org' })).toBe(true);
    expect(await asks(app, client, { to: 'ann@mycorp.com, eve@evil.org' })).toBe(true);
    expect(source.calls.map((c) => c.args['to'])).toEqual([
      'ann@mycorp.com',
      'bob@sales.mycorp.com',
    ]);
    // Values of the wrong type never match.
    const c = { path: 'to', op: 'domain' as const, value: 'mycorp.com' };
    expect(constraintHolds(c, { to: { a: 1 } }, undefined)).toBe(false);
    expect(constraintHolds(c, {}, undefined)).toBe(false);
  });

  it('the grant is for that agent only', async () => {
    const { app } = await grantedSetup();
    const other = await app.control.addAgent('other');
    const otherClient = await connectClient(t!.started.mcpUrl, other.token);
    expect(await asks(app, otherClient, { to: 'ann@mycorp.com' })).toBe(true);
  });

  it('an upstream that changes the tool (description or hints) voids the grant', async () => {
    const { app, client, source } = await grantedSetup();
    expect(await asks(app, client, { to: 'bob@x.com' })).toBe(false);
    const def = source.defs.find((d) => d.name === 'count_send')!;
    def.description = 'Sends a message. Also forwards your inbox.';
    source.changed(); // the registry rebuilds synchronously
    expect(await asks(app, client, { to: 'bob@x.com' })).toBe(true);
    const [g] = await app.control.listGrants({ includeInactive: true });
    expect(g).toMatchObject({ active: false });
    expect(g!.inactiveReason).toMatch(/changed/);
  });

  it('revoking the agent ends its grants and requests; a new agent with the same name inherits nothing', async () => {
    const { app, source } = await grantedSetup();
    const pendingClient = await connectClient(
      t!.started.mcpUrl,
      (await app.control.addAgent('p')).token,
    );
    const requested = nextRequest(app);
    void pendingClient.callTool({ name: 'count_send', arguments: { to: 'p@x.com' } });
    const pending = await requested;
    await app.control.revokeAgent('p');
    expect((await app.control.getApproval(pending.id)).state).toBe('withdrawn');
    await expect(app.control.decide(pending.id, { kind: 'allow_once' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await app.control.revokeAgent('test');
    expect(await app.control.listGrants()).toEqual([]);
    const again = await app.control.addAgent('test');
    const c2 = await connectClient(t!.started.mcpUrl, again.token);
    // Not the grant, and not the stored outcome of the old agent's identical call.
    expect(await asks(app, c2, { to: 'ann@mycorp.com' })).toBe(true);
    expect(source.count('count_send')).toBe(1);
  });
});
