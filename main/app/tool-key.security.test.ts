import { afterEach, describe, expect, it, vi } from 'vitest';
import { httpControlClient } from '../../common/http-control-client.js';
import { CountingSource, startTestApp, type TestApp } from '../../test-support/harness.js';

/**
 * The Tools page, the CLI and any control caller name a tool by its public name. A public name can
 * pass to another tool between the moment the user saw a row and the moment the change applies:
 * names go in key order (tools/naming.ts), and a server that lists a tool whose name cleans up to
 * the same one and sorts first ("count.send" before "count_send") takes it. A click on "Allow
 * without asking" on the row of count_send then loosened that other tool. A change now carries
 * the key of the tool the caller saw (ToolPolicyPatch.key, ToolRef) and is refused (CONFLICT,
 * nothing changed) when the name names another tool.
 */
let t: TestApp | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await t?.stop();
  t = undefined;
});

async function start() {
  const source = new CountingSource();
  t = await startTestApp({ sources: [source] });
  const token = new URL(t.started.controlUrl).hash.replace('#token=', '');
  return { t, source, cli: httpControlClient(t.started.url, token) };
}

/** The row of count_send as the page listed it. */
async function rowOfCountSend(tt: TestApp, agent?: string) {
  const row = (await tt.app.control.listTools(agent)).find((x) => x.name === 'count_send')!;
  expect(row.key).toBe('count/count_send');
  return row;
}

const sendTools = async (tt: TestApp, agent?: string) =>
  Object.fromEntries(
    (await tt.app.control.listTools(agent))
      .filter((x) => x.key.startsWith('count/count') && x.key.includes('send'))
      .map((x) => [x.key, [x.enabled, x.approval]]),
  );

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as { code?: string; message?: string },
  );

describe("a change made on a tool's row applies to that tool or not at all", () => {
  it('setToolPolicy from the window: the name moved after listTools → CONFLICT, nothing changed', async () => {
    const { t, source } = await start();
    const row = await rowOfCountSend(t);
    source.takeCountSendName();
    expect(t.app.registry.get('count_send')!.key).toBe('count/count.send');
    const before = await sendTools(t);
    for (const patch of [
      { approval: 'auto' as const },
      { enabled: true },
      { enabled: false }, // a tightening meant for the row's tool is not applied to another either
      { approval: 'auto' as const, agent: 'test' },
    ]) {
      const err = await errorOf(t.app.control.setToolPolicy(row.name, { ...patch, key: row.key }));
      expect(err, JSON.stringify(patch)).toMatchObject({ code: 'CONFLICT' });
      expect(err?.message).toMatch(/count_send now names another tool than the one you chose/);
    }
    expect(await sendTools(t)).toEqual(before);
    expect(await sendTools(t, 'test')).toEqual(await sendTools(t));
    expect(t.app.settings.get().tools).toEqual({});
    expect(t.app.agents.get('test')!.overrides).toEqual({});
  });

  it('from outside the window: refused at once, not held for a confirmation bound to fail', async () => {
    const { t, source, cli } = await start();
    const row = await rowOfCountSend(t);
    source.takeCountSendName();
    const err = await errorOf(cli.setToolPolicy(row.name, { approval: 'auto', key: row.key }));
    expect(err).toMatchObject({ code: 'CONFLICT' });
    expect(await t.app.control.listPolicyChanges()).toEqual([]);
    expect(t.app.settings.get().tools).toEqual({});
  });

  it('the name moves while the gate lists the tools: refused, whatever the gate read', async () => {
    // listTools, which the gate's judgement reads, waits for connecting servers after taking the
    // registry; the name moves in that wait. The gate's own check and the change's both refuse.
    const { t, source, cli } = await start();
    const row = await rowOfCountSend(t);
    const control = t.app.control;
    const list = control.listTools.bind(control);
    let moved = false;
    vi.spyOn(control, 'listTools').mockImplementation(async (agent?: string) => {
      const seen = await list(agent);
      if (!moved) source.takeCountSendName();
      moved = true;
      return seen;
    });
    const err = await errorOf(cli.setToolPolicy(row.name, { approval: 'auto', key: row.key }));
    vi.restoreAllMocks();
    expect(moved).toBe(true);
    expect(err).toMatchObject({ code: 'CONFLICT' });
    expect(t.app.settings.get().tools).toEqual({});
    expect(await control.listPolicyChanges()).toEqual([]);
  });

  it('setAgentTools with the keys listed: the name moved → CONFLICT, the list unchanged', async () => {
    const { t, source, cli } = await start();
    await t.app.control.setAgentTools('test', ['count_read']);
    const row = await rowOfCountSend(t);
    source.takeCountSendName();
    const refs = [
      { name: 'count_read', key: 'count/count_read' },
      { name: row.name, key: row.key },
    ];
    for (const call of [
      () => t.app.control.setAgentTools('test', refs),
      () => cli.setAgentTools('test', refs),
    ]) {
      const err = await errorOf(call());
      expect(err).toMatchObject({ code: 'CONFLICT' });
      expect(err?.message).toMatch(/count_send now names another tool/);
    }
    expect(t.app.agents.get('test')!.tools).toEqual(['count/count_read']);
    expect(await t.app.control.listPolicyChanges()).toEqual([]);
  });

  it('a name no tool bears now: NOT_FOUND; a key listed under another name: CONFLICT', async () => {
    const { t, source } = await start();
    const row = await rowOfCountSend(t);
    // The server renames its tool: neither the name nor the key is listed any more.
    source.defs = source.defs.map((d) => (d.name === 'count_send' ? { ...d, name: 'send' } : d));
    source.changed();
    const gone = await errorOf(
      t.app.control.setToolPolicy(row.name, { key: row.key, enabled: false }),
    );
    expect(gone).toMatchObject({ code: 'NOT_FOUND' });
    // The key is listed, under another name than the one the caller saw.
    const elsewhere = await errorOf(
      t.app.control.setAgentTools('test', [{ name: 'count_old', key: 'count/count_read' }]),
    );
    expect(elsewhere).toMatchObject({ code: 'CONFLICT' });
    expect(elsewhere?.message).toMatch(/no longer named count_old/);
    expect(t.app.agents.get('test')!.tools).toBeUndefined();
    expect(t.app.settings.get().tools).toEqual({});
  });

  it('with the key still named: applied; and callers that send the name only work as before', async () => {
    const { t, cli } = await start();
    const row = await rowOfCountSend(t);
    const view = await t.app.control.setToolPolicy(row.name, { approval: 'auto', key: row.key });
    expect([view.key, view.approval]).toEqual(['count/count_send', 'auto']);
    await t.app.control.setToolPolicy('count_read', { enabled: false });
    const agent = await cli.setAgentTools('test', ['count_read', { name: row.name, key: row.key }]);
    expect(agent.tools).toEqual(['count/count_read', 'count/count_send']);
    await cli.setAgentTools('test', ['count_read']);
    expect(t.app.agents.get('test')!.tools).toEqual(['count/count_read']);
    expect(t.app.settings.get().tools['count/count_read']).toEqual({ enabled: false });
  });

  it('from outside the window, a key that is not text: INVALID at once, nothing held', async () => {
    // The key is the part of setToolPolicy's patch the loosening gate judges before the method;
    // one that was not text skipped that judgement and was held as "let count_send run without
    // asking" for the user to confirm a change bound to fail (the method's INVALID).
    const { t, cli } = await start();
    for (const key of [5, null, ['count/count_send'], { k: 1 }]) {
      const err = await errorOf(
        cli.setToolPolicy('count_send', { approval: 'auto', key } as unknown as { key: string }),
      );
      expect(err, JSON.stringify(key)).toMatchObject({ code: 'INVALID' });
      expect(err?.message).toMatch(/^setToolPolicy: argument 2 key: expected a string/);
    }
    expect(await t.app.control.listPolicyChanges()).toEqual([]);
    expect(t.app.settings.get().tools).toEqual({});
  });

  it('from outside the window, a tool name no tool bears: NOT_FOUND at once, nothing held', async () => {
    // Widening a limited agent is held for the user's confirmation; a name no tool bears made the
    // change bound to fail (tool-named.ts's NOT_FOUND), so it was held all the same and failed
    // only at Confirm. The gate now refuses it at once, in the change's own words.
    const { t, cli } = await start();
    await t.app.control.setAgentTools('test', ['count_send']);
    for (const tools of [
      ['count_send', 'no_such_tool'],
      [{ name: 'no_such_tool', key: 'count/no_such_tool' }],
    ]) {
      const err = await errorOf(cli.setAgentTools('test', tools));
      expect(err, JSON.stringify(tools)).toMatchObject({ code: 'NOT_FOUND' });
      expect(err?.message).toMatch(/No tool named "no_such_tool"/);
    }
    expect(await t.app.control.listPolicyChanges()).toEqual([]);
    expect(t.app.agents.get('test')!.tools).toEqual(['count/count_send']);
  });

  it('a key that is not text, or a tool item of another shape: INVALID, nothing changed', async () => {
    const { t, cli } = await start();
    const bad = { approval: 'auto', key: 7 } as unknown as { key: string };
    expect(await errorOf(t.app.control.setToolPolicy('count_send', bad))).toMatchObject({
      code: 'INVALID',
    });
    for (const tools of [[{ name: 'count_send' }], [{ name: 'count_send', key: 1 }], [5]])
      expect(
        await errorOf(cli.setAgentTools('test', tools as unknown as string[])),
        JSON.stringify(tools),
      ).toMatchObject({ code: 'INVALID' });
    expect(t.app.settings.get().tools).toEqual({});
    expect(t.app.agents.get('test')!.tools).toBeUndefined();
  });
});
