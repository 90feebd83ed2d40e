import { describe, expect, it, vi } from 'vitest';
import { ALLOW_KINDS, ControlError, type Decision } from '../../common/contract/index.js';
import { CoreEvents } from '../platform/events.js';
import { ActivityLog } from '../store/activity.js';
import { ApprovalStore } from '../store/approval-store.js';
import { openDatabase } from '../store/db.js';
import { GrantStore } from '../store/grant-store.js';
import { ApprovalEngine } from './engine.js';
import { GrantService } from './grants.js';
import { allowRefusal, allowRefusals } from './shown-binding.js';

/**
 * The approval window said why an allow would be refused only once the user pressed it: a normal
 * card, a click, an error. ApprovalView.refused now says it first, computed by the rule decide
 * refuses with (shown-binding.ts): these hold the rule's cases, and that the view and decide
 * agree on every one of them.
 */

const shown = { tool: 'T', runs: 'R' };

describe('allowRefusal: which allows the tool of the moment refuses', () => {
  it('nothing changed: every allow is taken', () => {
    for (const kind of ALLOW_KINDS)
      expect(allowRefusal('t', shown, { tool: 'T', runs: 'R' }, kind)).toBeNull();
  });

  it('a request stored without a binding is allowed as before', () => {
    for (const kind of ALLOW_KINDS)
      expect(allowRefusal('t', null, { tool: null, runs: null }, kind)).toBeNull();
  });

  it('the tool gone: every allow is refused as unavailable, not as changed', () => {
    for (const now of [
      { tool: null, runs: 'R' },
      { tool: 'T', runs: null },
    ])
      for (const kind of ALLOW_KINDS)
        expect(allowRefusal('t', shown, now, kind)).toEqual({
          code: 'CONFLICT',
          message: expect.stringContaining('t is not available right now') as string,
        });
  });

  it('what runs changed: every allow is refused', () => {
    for (const kind of ALLOW_KINDS)
      expect(allowRefusal('t', shown, { tool: 'T2', runs: 'R2' }, kind)?.message).toMatch(
        /changed since this request was shown \(its input schema/,
      );
  });

  it('only words about the tool changed: only "Always allow" is refused, saying Allow once works', () => {
    const now = { tool: 'T2', runs: 'R' };
    expect(allowRefusal('t', shown, now, 'allow_once')).toBeNull();
    expect(allowRefusal('t', shown, now, 'allow_edited')).toBeNull();
    expect(allowRefusal('t', shown, now, 'always_allow')?.message).toMatch(
      /"Allow once" still runs/,
    );
  });

  it('without a run fingerprint the whole tool stands for what runs', () => {
    const r = allowRefusal('t', { tool: 'T' }, { tool: 'T2', runs: undefined }, 'allow_once');
    expect(r?.message).toMatch(/its input schema/);
  });

  it('an edit going out from another account is INVALID (the form stays open)', () => {
    const now = { tool: 'T', runs: 'R', edited: { runs: 'R-other' } };
    expect(allowRefusal('t', shown, now, 'allow_edited')?.code).toBe('INVALID');
    expect(allowRefusal('t', shown, { ...now, edited: { runs: 'R' } }, 'allow_edited')).toBeNull();
  });

  it('allowRefusals lists each refused kind, and nothing once the request is not pending', () => {
    const now = () => ({ tool: 'T2', runs: 'R' });
    expect(Object.keys(allowRefusals('t', 'pending', shown, now) ?? {})).toEqual(['always_allow']);
    expect(allowRefusals('t', 'pending', shown, () => ({ tool: 'T', runs: 'R' }))).toBeUndefined();
    expect(allowRefusals('t', 'denied', shown, now)).toBeUndefined();
    expect(
      Object.keys(allowRefusals('t', 'pending', shown, () => ({ tool: null, runs: null })) ?? {}),
    ).toEqual([...ALLOW_KINDS]);
  });
});

function harness() {
  const db = openDatabase(':memory:');
  const activity = new ActivityLog(db);
  const fp: { tool: string | null; runs: string | null } = { tool: 'T', runs: 'R' };
  const engine = new ApprovalEngine({
    store: new ApprovalStore(db),
    events: new CoreEvents(),
    activity,
    grants: new GrantService({ store: new GrantStore(db), activity, fingerprint: () => 'p' }),
    timings: () => ({
      waitMs: 60_000,
      expireMs: 10 * 60_000,
      outcomeWindowMs: 10 * 60_000,
      progressIntervalMs: 1000,
      cancelGraceMs: 60_000,
    }),
    execute: vi.fn(async () => ({ content: [{ type: 'text' as const, text: 'sent' }] })),
    toolInfo: () => ({
      name: 'send',
      inputSchema: { type: 'object' },
      server: 'S',
      thirdParty: true,
      risk: 'read-only',
    }),
    validate: () => null,
    isPaused: () => false,
    toolFingerprint: () => fp.tool,
    runFingerprint: () => fp.runs,
  });
  return { engine, fp };
}

describe('the view says what decide would refuse, in its words', () => {
  const states = [
    { tool: 'T', runs: 'R' },
    { tool: 'T2', runs: 'R' },
    { tool: 'T2', runs: 'R2' },
    { tool: 'T', runs: 'R2' },
    { tool: null, runs: null },
  ];
  it.each(states)(
    'tool %o: view.refused[kind] is exactly the error decide throws',
    async (state) => {
      const h = harness();
      let n = 0;
      for (const kind of ALLOW_KINDS) {
        const args = { n: n++ };
        h.fp.tool = 'T';
        h.fp.runs = 'R';
        const { approvalId } = await h.engine.ask({
          agent: 'a',
          toolKey: 's/send',
          tool: 'send',
          args,
          effect: async () => 'Sends',
          signal: new AbortController().signal,
          noWait: true,
        });
        Object.assign(h.fp, state);
        const view = h.engine.get(approvalId!);
        const decision: Decision =
          kind === 'allow_edited'
            ? { kind, arguments: args }
            : kind === 'always_allow'
              ? { kind, confirm: true }
              : { kind };
        const thrown = await h.engine.decide(approvalId!, decision).then(
          () => null,
          (e: unknown) => e,
        );
        const expected = view.refused?.[kind];
        if (expected) {
          expect(thrown).toBeInstanceOf(ControlError);
          expect({
            code: (thrown as ControlError).code,
            message: (thrown as ControlError).message,
          }).toEqual(expected);
        } else expect(thrown).toBeNull();
      }
    },
  );

  it('a decided request carries no refusals', async () => {
    const h = harness();
    const { approvalId } = await h.engine.ask({
      agent: 'a',
      toolKey: 's/send',
      tool: 'send',
      args: {},
      effect: async () => 'Sends',
      signal: new AbortController().signal,
      noWait: true,
    });
    h.fp.tool = null;
    expect(h.engine.get(approvalId!).refused).toBeDefined();
    await h.engine.decide(approvalId!, { kind: 'deny' });
    expect(h.engine.get(approvalId!).refused).toBeUndefined();
  });
});
