import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalView, CoreEvent } from '../../common/contract/index.js';
import { nextEvent, nextRequest } from '../../test-support/core-events.js';
import { connectClient, CountingSource, startTestApp } from '../../test-support/harness.js';

/**
 * A card open while its tool changes must say so without being pressed first: the registry's
 * change sends the pending request again (approval.updated) with what an allow would be refused
 * with now (ApprovalView.refused). Waits on the events, never on a clock.
 */

type Updated = Extract<CoreEvent, { type: 'approval.updated' }>;
const updatedWith =
  (id: string, pick: (a: ApprovalView) => boolean) =>
  (e: CoreEvent): e is Updated =>
    e.type === 'approval.updated' && e.approval.id === id && pick(e.approval);

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

describe('a tool change while a request is pending updates its view', () => {
  it('the schema changes, then changes back: the view gains, then loses, its refusals', async () => {
    const source = new CountingSource();
    const t = await startTestApp({ sources: [source] });
    stop = () => t.stop();
    const client = await connectClient(t.started.mcpUrl, t.token);
    const requested = nextRequest(t.app);
    const call = client.callTool({ name: 'count_send', arguments: { to: 'bob@example.com' } });
    const approval = await requested;
    expect(approval.refused).toBeUndefined();

    const before = source.defs;
    const refused = nextEvent(
      t.app,
      updatedWith(approval.id, (a) => !!a.refused?.allow_once),
    );
    source.defs = before.map((d) =>
      d.name === 'count_send'
        ? { ...d, inputSchema: { type: 'object', properties: { to: { type: 'array' } } } }
        : d,
    );
    source.changed();
    const changed = (await refused).approval;
    expect(Object.keys(changed.refused ?? {}).sort()).toEqual([
      'allow_edited',
      'allow_once',
      'always_allow',
    ]);
    expect(changed.refused?.allow_once?.message).toMatch(
      /count_send changed since this request was shown/,
    );
    expect((await t.app.control.listPending()).find((a) => a.id === approval.id)?.refused).toEqual(
      changed.refused,
    );

    const cleared = nextEvent(
      t.app,
      updatedWith(approval.id, (a) => a.refused === undefined),
    );
    source.defs = before;
    source.changed();
    await cleared;

    await t.app.control.decide(approval.id, { kind: 'deny' });
    await call;
    await client.close();
  });
  it('a registry change that leaves the request as it was sends nothing, the first time too', async () => {
    const source = new CountingSource();
    const t = await startTestApp({ sources: [source] });
    stop = () => t.stop();
    const client = await connectClient(t.started.mcpUrl, t.token);
    const requested = nextRequest(t.app);
    const call = client.callTool({ name: 'count_send', arguments: { to: 'bob@example.com' } });
    const approval = await requested;
    // The registry tells its listeners synchronously: whatever this change sends is sent by now.
    const sent: ApprovalView[] = [];
    const off = t.app.events.subscribe(
      (e) =>
        e.type === 'approval.updated' && e.approval.id === approval.id && sent.push(e.approval),
    );
    // A status-only change, then another tool's words: nothing about this request changed.
    source.changed();
    source.defs = source.defs.map((d) =>
      d.name === 'count_delete' ? { ...d, description: 'Deletes, now with a new description.' } : d,
    );
    source.changed();
    off();
    expect(sent).toEqual([]);

    await t.app.control.decide(approval.id, { kind: 'deny' });
    await call;
    await client.close();
  });
});
