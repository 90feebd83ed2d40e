import { describe, expect, it } from 'vitest';
import type { ApprovalState, ApprovalView } from '../../../common/contract';
import {
  initialQueue,
  queueReducer,
  RECENT_LIMIT,
  type QueueAction,
  type QueueState,
} from './queue-state';

const view = (
  id: string,
  state: ApprovalState = 'pending',
  createdAt = `2026-01-01T00:00:0${id.length % 10}Z`,
): ApprovalView => ({
  id,
  agent: 'a',
  tool: 't',
  effect: 'e',
  arguments: {},
  inputSchema: {},
  state,
  createdAt,
  expiresAt: '2026-01-01T01:00:00Z',
});
const run = (actions: QueueAction[], from: QueueState = initialQueue) =>
  actions.reduce(queueReducer, from);

describe('approval queue state', () => {
  it('adds requested approvals in creation order and moves decided ones to recent', () => {
    const s = run([
      { type: 'upsert', approval: view('b', 'pending', '2026-01-01T00:00:02Z') },
      { type: 'upsert', approval: view('a', 'pending', '2026-01-01T00:00:01Z') },
      { type: 'upsert', approval: view('b', 'approved') },
    ]);
    expect(s.pending.map((a) => a.id)).toEqual(['a']);
    expect(s.recent.map((a) => [a.id, a.state])).toEqual([['b', 'approved']]);
  });

  it('never goes back: a late decide() answer does not undo a later event', () => {
    const s = run([
      { type: 'upsert', approval: view('x') },
      { type: 'upsert', approval: view('x', 'executing') },
      { type: 'upsert', approval: view('x', 'done') },
      { type: 'upsert', approval: view('x', 'approved') },
      { type: 'upsert', approval: view('x', 'pending') },
    ]);
    expect(s.pending).toEqual([]);
    expect(s.recent.map((a) => a.state)).toEqual(['done']);
  });

  it('a refetch replaces the queue but keeps requests that arrived while it was in flight and drops decided ones', () => {
    const before = run([{ type: 'upsert', approval: view('old') }]);
    const startedAt = before.seq;
    const s = run(
      [
        { type: 'upsert', approval: view('new', 'pending', '2026-01-01T00:00:09Z') },
        { type: 'upsert', approval: view('gone', 'denied') },
        // The fetch was answered before "new" existed and before "gone" was denied.
        {
          type: 'snapshot',
          pending: [
            view('gone', 'pending', '2026-01-01T00:00:05Z'),
            view('other', 'pending', '2026-01-01T00:00:06Z'),
          ],
          startedAt,
        },
      ],
      before,
    );
    expect(s.loaded).toBe(true);
    expect(s.pending.map((a) => a.id)).toEqual(['other', 'new']);
  });

  it('drops requests a refetch no longer lists (decided while disconnected)', () => {
    const before = run([{ type: 'upsert', approval: view('stale') }]);
    const s = run([{ type: 'snapshot', pending: [], startedAt: before.seq }], before);
    expect(s.pending).toEqual([]);
  });

  it(`keeps at most ${RECENT_LIMIT} recent decisions, newest first`, () => {
    const s = run(
      Array.from({ length: RECENT_LIMIT + 5 }, (_, i) => ({
        type: 'upsert' as const,
        approval: view(`r${i}`, 'denied'),
      })),
    );
    expect(s.recent).toHaveLength(RECENT_LIMIT);
    expect(s.recent[0]!.id).toBe(`r${RECENT_LIMIT + 4}`);
  });
});
