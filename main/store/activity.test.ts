import { describe, expect, it, vi } from 'vitest';
import { ActivityLog } from './activity.js';
import { openDatabase } from './db.js';

const row = (tool: string) => ({
  agent: 'a',
  tool,
  decision: 'auto' as const,
  outcome: 'ok' as const,
  durationMs: 3,
  argsDigest: 'sha256:x',
});

// Issue 20: activity that is not an approval state change is written off the answer path,
// in one transaction per window, and never lost on stop.
describe('ActivityLog batching', () => {
  it('queued rows are written together within the window, in order, and told once each', () => {
    // The window on a fake clock: at its end, not before, however slow the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const db = openDatabase(':memory:');
      const onChange = vi.fn();
      const log = new ActivityLog(db, { flushMs: 50, onChange });
      const count = () =>
        (db.prepare('SELECT COUNT(*) AS n FROM activity').get() as { n: number }).n;
      log.add(row('one'));
      vi.advanceTimersByTime(30);
      log.add(row('two')); // joins the window the first row opened
      expect(count()).toBe(0); // nothing on the caller's path
      vi.advanceTimersByTime(19);
      expect(count()).toBe(0);
      vi.advanceTimersByTime(1);
      expect(count()).toBe(2);
      expect(onChange).toHaveBeenCalledTimes(2);
      expect(log.list().map((r) => r.tool)).toEqual(['two', 'one']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a late row is made at the flush, not when queued, in its place in the order (issue 34)', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const log = new ActivityLog(openDatabase(':memory:'), { flushMs: 50 });
      let made = 0;
      log.add(row('before'));
      log.addLate(() => {
        made++;
        return { ...row('late'), at: '2026-01-01T00:00:00.000Z' };
      });
      log.add(row('after'));
      expect(made).toBe(0); // nothing of it on the caller's path
      vi.advanceTimersByTime(50);
      expect(made).toBe(1);
      const written = log.list().reverse();
      expect(written.map((r) => r.tool)).toEqual(['before', 'late', 'after']);
      expect(written[1]!.at).toBe('2026-01-01T00:00:00.000Z');
      log.close();
      expect(made).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an immediate row never overtakes queued ones; close() writes what is queued', () => {
    const db = openDatabase(':memory:');
    const log = new ActivityLog(db, { flushMs: 60_000 });
    log.add(row('queued'));
    log.addNow({ ...row('now'), decision: 'waiting', outcome: 'pending', approvalId: 'r1' });
    log.add(row('last'));
    log.close();
    expect(
      log
        .list()
        .map((r) => r.tool)
        .reverse(),
    ).toEqual(['queued', 'now', 'last']);
    const [updated] = log.updateByApproval('r1', {
      decision: 'approved',
      outcome: 'ok',
      waitMs: 1200,
    });
    expect(updated).toMatchObject({ tool: 'now', decision: 'approved', waitMs: 1200 });
  });

  it('a late row that throws costs only itself: the rows queued with it are written, the log goes on', () => {
    const log = new ActivityLog(openDatabase(':memory:'), { flushMs: 60_000 });
    log.add(row('before'));
    log.addLate(() => {
      throw new Error('a broken late row');
    });
    log.add(row('after'));
    log.close();
    // An approval's row (addNow) and the Activity page (list) flush first: neither may fail.
    log.addNow({ ...row('now'), decision: 'waiting', outcome: 'pending', approvalId: 'r2' });
    expect(
      log
        .list()
        .map((r) => r.tool)
        .reverse(),
    ).toEqual(['before', 'after', 'now']);
  });
});

describe('ActivityLog views (issue 34: a queued row is its own view)', () => {
  it("tells each row with the members it had, in the same order, and leaves a caller's object alone", () => {
    const told: string[] = [];
    const log = new ActivityLog(openDatabase(':memory:'), {
      flushMs: 60_000,
      onChange: (v) => told.push(JSON.stringify(v)),
    });
    const given = { ...row('given'), durationMs: 2.6, at: '2026-01-01T00:00:00.000Z' };
    log.add(given);
    log.addLate(() => ({ ...row('late'), detail: 'd', at: '2026-01-02T00:00:00.000Z' }));
    const nowEntry = { ...row('now'), durationMs: 1.2, approvalId: 'r1' };
    const now = log.addNow(nowEntry);
    expect(told.slice(0, 2)).toEqual([
      '{"agent":"a","tool":"given","decision":"auto","outcome":"ok","durationMs":3,"argsDigest":"sha256:x","at":"2026-01-01T00:00:00.000Z","id":1}',
      '{"agent":"a","tool":"late","decision":"auto","outcome":"ok","durationMs":3,"argsDigest":"sha256:x","detail":"d","at":"2026-01-02T00:00:00.000Z","id":2}',
    ]);
    expect(Object.keys(now)).toEqual([
      'agent',
      'tool',
      'decision',
      'outcome',
      'durationMs',
      'argsDigest',
      'approvalId',
      'at',
      'id',
    ]);
    expect(now).toMatchObject({ id: 3, durationMs: 1 });
    // What the callers gave is theirs: neither is the view nor changed by the write.
    expect(now).not.toBe(nowEntry);
    expect(nowEntry).toEqual({ ...row('now'), durationMs: 1.2, approvalId: 'r1' });
    expect(given).toEqual({ ...row('given'), durationMs: 2.6, at: '2026-01-01T00:00:00.000Z' });
  });
});

describe('ActivityLog rows', () => {
  it('keeps every column of a row as given (positional binding, issue 34)', () => {
    const db = openDatabase(':memory:');
    const log = new ActivityLog(db);
    const full = {
      at: '2026-01-02T03:04:05.000Z',
      agent: 'agent-1',
      tool: 'tool-2',
      decision: 'approved' as const,
      outcome: 'error' as const,
      durationMs: 12.4,
      waitMs: 7.6,
      argsDigest: 'sha256:digest',
      approvalId: 'approval-3',
      decisionKind: 'kind-4',
      grantId: 'grant-5',
      event: 'grant.created' as const,
      detail: 'd'.repeat(600),
      taint: 't'.repeat(1200),
    };
    const written = log.addNow(full);
    const [read] = log.list();
    const expected = {
      ...full,
      id: written.id,
      durationMs: 12,
      waitMs: 8,
      detail: 'd'.repeat(500),
      taint: 't'.repeat(1000),
    };
    expect(read).toEqual(expected);
    expect(written).toMatchObject({ id: read!.id, at: full.at, durationMs: 12 });
  });
});
