import { afterEach, describe, expect, it } from 'vitest';
import type { ControlApi, ToolView } from '../../common/contract/index.js';
import { CountingSource, startTestApp, type TestApp } from '../../test-support/harness.js';
import { LooseningGate } from './loosening-gate.js';
import { PolicyChanges } from './policy-changes.js';

/**
 * Issue 17.7, review of the audit: the gate judged `setToolPolicy` by the tools listed when it
 * looked, and let a call it thought would fail anyway run unconfirmed — a tool whose server is
 * down (refused as unknown) or a destructive one without --confirm-destructive. The change runs a
 * moment later against the registry as it is then: a server that reconnected in between (or came
 * back announcing the tool without destructiveHint) had its tool made `auto` with no one
 * confirming. The gate now refuses such a loosening itself, with the error the change would give.
 *
 * The race is set up without a clock: the gate's API sees the tool as last seen (server down /
 * destructive); the change runs on the real core, where the tool is offered and harmless.
 */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function race(seenAs: (tool: ToolView) => ToolView) {
  t = await startTestApp({ sources: [new CountingSource()] });
  const control = t.app.control;
  const api: ControlApi = Object.create(control, {
    listTools: {
      value: async () =>
        (await control.listTools()).map((x) => (x.name === 'count_send' ? seenAs(x) : x)),
    },
  });
  const gate = new LooseningGate({
    api,
    policyChanges: new PolicyChanges(t.app.events),
    toolIdentity: (name) => t!.app.registry.get(name)?.key,
  });
  const params = ['count_send', { approval: 'auto' }];
  const run = () => control.setToolPolicy('count_send', { approval: 'auto' });
  // What control-dispatch.ts does with the gate's answer: null means "run it as asked".
  const answer = await gate
    .hold('setToolPolicy', params, run, false)
    .then(async (held) => held ?? { ran: await run() })
    .catch((e: unknown) => ({ error: (e as { code?: string }).code }));
  const now = (await control.listTools()).find((x) => x.name === 'count_send')!.approval;
  return { answer, now };
}

describe('a loosening setToolPolicy never runs unconfirmed on what the gate saw', () => {
  it('its server was down when looked at and is back when the change runs: refused, still "ask"', async () => {
    const { answer, now } = await race((x) => ({
      ...x,
      notOffered: { reason: 'server-down', text: 'Its server is not connected.' },
    }));
    expect(answer).toEqual({ error: 'NOT_FOUND' });
    expect(now).toBe('ask');
  });

  it('destructive when looked at, without --confirm-destructive: refused, still "ask"', async () => {
    const { answer, now } = await race((x) => ({ ...x, destructive: true }));
    expect(answer).toEqual({ error: 'CONFIRM_REQUIRED' });
    expect(now).toBe('ask');
  });
});
