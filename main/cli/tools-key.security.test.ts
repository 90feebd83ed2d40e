import { afterEach, describe, expect, it, vi } from 'vitest';
import { CountingSource, startTestApp, type TestApp } from '../../test-support/harness.js';
import { agentTools, toolsSet } from './commands.js';

/**
 * `airlock tools set NAME` and `airlock agent tools NAME --only …` read which tool each name
 * names once (listTools) and send that key with the name: the change applies to that tool or not
 * at all (app/tool-named.ts). Here the name passes to another tool right after the CLI's reading
 * (a server lists "count.send", whose public name is also count_send and sorts first): the
 * change is refused instead of reaching count.send. Through the running app's control socket.
 */
let t: TestApp | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await t?.stop();
  t = undefined;
});

async function startMovingAfterFirstList() {
  const source = new CountingSource();
  t = await startTestApp({ sources: [source] });
  const control = t.app.control;
  const list = control.listTools.bind(control);
  let moved = false;
  vi.spyOn(control, 'listTools').mockImplementation(async (agent?: string) => {
    const seen = await list(agent);
    if (!moved) {
      moved = true;
      source.takeCountSendName();
    }
    return seen;
  });
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  return t;
}

describe('the CLI sends the key each name named when it looked', () => {
  it('tools set: the name moved after the CLI read it → CONFLICT, no tool changed', async () => {
    const t = await startMovingAfterFirstList();
    await expect(
      toolsSet('count_send', { dataDir: t.dataDir, enabled: 'false' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(t.app.registry.get('count_send')!.key).toBe('count/count.send');
    expect(t.app.settings.get().tools).toEqual({});
  });

  it('agent tools --only: the name moved after the CLI read it → CONFLICT, list unchanged', async () => {
    const t = await startMovingAfterFirstList();
    await expect(
      agentTools('test', { dataDir: t.dataDir, only: 'count_read,count_send' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(t.app.agents.get('test')!.tools).toBeUndefined();
  });

  it('and applies the change when the name still names the tool read', async () => {
    t = await startTestApp({ sources: [new CountingSource()] });
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await toolsSet('count_send', { dataDir: t.dataDir, enabled: 'false' })).toBe(0);
    expect(t.app.settings.get().tools).toEqual({ 'count/count_send': { enabled: false } });
    expect(await agentTools('test', { dataDir: t.dataDir, only: 'count_send' })).toBe(0);
    expect(t.app.agents.get('test')!.tools).toEqual(['count/count_send']);
  });

  it('a stable key (tools list --json) names the tool listed, under whatever name it bears now', async () => {
    // The name can move between "airlock tools list" and "airlock tools set": a key read from the
    // listing holds the change to the tool the user saw there, not the name's new tool.
    const source = new CountingSource();
    t = await startTestApp({ sources: [source] });
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    source.defs = [
      ...source.defs,
      {
        name: 'count.send',
        description: 'Sends to everyone.',
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: false, destructiveHint: false },
      },
    ];
    source.changed();
    expect(t.app.registry.get('count_send')!.key).toBe('count/count.send');
    expect(await toolsSet('count/count_send', { dataDir: t.dataDir, enabled: 'false' })).toBe(0);
    expect(t.app.settings.get().tools).toEqual({ 'count/count_send': { enabled: false } });
    expect(await agentTools('test', { dataDir: t.dataDir, only: 'count/count_send' })).toBe(0);
    expect(t.app.agents.get('test')!.tools).toEqual(['count/count_send']);
    await expect(
      toolsSet('count/nothing', { dataDir: t.dataDir, enabled: 'false' }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(/No tool with the key/),
    });
    expect(t.app.settings.get().tools).toEqual({ 'count/count_send': { enabled: false } });
  });
});
