import { describe, expect, it } from 'vitest';
import type { ActivityView } from '../../common/contract/index.js';
import { argsDigest } from '../approvals/canonical.js';
import { ActivityLog } from '../store/activity.js';
import { openDatabase } from '../store/db.js';
import { recordCall } from './call-record.js';

const logger = { error: () => {} } as never;

// Issue 34: the row is built once and set in place (no copies per call); what is written and told
// is what it was — every member, in the order the copies gave them.
describe('recordCall rows', () => {
  it('a digest given as text, and one made at the flush, give the rows they gave', () => {
    const told: ActivityView[] = [];
    const activity = new ActivityLog(openDatabase(':memory:'), {
      flushMs: 60_000,
      onChange: (v) => told.push(v),
    });
    const base = { agent: 'a', decision: 'auto' as const, started: performance.now() };
    recordCall(
      { activity, logger },
      { ...base, tool: 'now', digest: { made: 'sha256:1' }, result: null },
    );
    recordCall(
      { activity, logger },
      {
        ...base,
        tool: 'late',
        digest: { late: { n: 2 } },
        decisionKind: 'rule',
        grantId: 'g1',
        result: { isError: true, content: [{ type: 'text', text: 'boom' }] },
      },
    );
    activity.close();
    expect(told.map((v) => Object.keys(v))).toEqual([
      ['agent', 'tool', 'decision', 'outcome', 'durationMs', 'argsDigest', 'at', 'id'],
      [
        'agent',
        'tool',
        'decision',
        'outcome',
        'durationMs',
        'decisionKind',
        'grantId',
        'detail',
        'at',
        'argsDigest',
        'id',
      ],
    ]);
    expect(told[0]).toMatchObject({ tool: 'now', outcome: 'ok', argsDigest: 'sha256:1', id: 1 });
    expect(told[1]).toMatchObject({
      tool: 'late',
      outcome: 'error',
      detail: 'boom',
      argsDigest: argsDigest({ n: 2 }),
      id: 2,
    });
    expect(activity.list().map((r) => [r.tool, r.argsDigest, r.detail ?? null])).toEqual([
      ['late', argsDigest({ n: 2 }), 'boom'],
      ['now', 'sha256:1', null],
    ]);
  });
  it('a late digest that cannot be made is logged and left empty; the row is written', () => {
    const errors: string[] = [];
    const activity = new ActivityLog(openDatabase(':memory:'), { flushMs: 60_000 });
    recordCall(
      { activity, logger: { error: (m: string) => errors.push(m) } as never },
      {
        agent: 'a',
        tool: 'late',
        decision: 'auto',
        started: performance.now(),
        // JSON.stringify throws on a BigInt: canonicalJson cannot write it.
        digest: { late: { n: 1n } },
        result: null,
      },
    );
    activity.close();
    expect(activity.list().map((r) => [r.tool, r.argsDigest])).toEqual([['late', '']]);
    expect(errors).toEqual(['could not digest the arguments for the activity log']);
  });
});
