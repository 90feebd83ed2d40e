import type { ApprovalState, ApprovalView } from '../../../common/contract';

/**
 * The approval queue as the page sees it: what waits, and what was decided
 * while the page was open. Pure reducer, so the ordering rules below are
 * easy to reason about (events, decide() answers and refetches can arrive
 * in any order).
 */
export interface QueueState {
  pending: ApprovalView[];
  recent: ApprovalView[];
  loaded: boolean;
  /** Monotonic counter stamped on every change, to tell what a refetch may have missed. */
  seq: number;
  /** id → seq at which the page last learned something about it. */
  seen: Record<string, number>;
}

export type QueueAction =
  | { type: 'upsert'; approval: ApprovalView }
  | { type: 'snapshot'; pending: ApprovalView[]; startedAt: number };

export const RECENT_LIMIT = 20;

export const initialQueue: QueueState = {
  pending: [],
  recent: [],
  loaded: false,
  seq: 0,
  seen: {},
};

/** How far along a request is; a view never replaces a later one (decide() may answer after the events). */
const RANK: Record<ApprovalState, number> = {
  pending: 0,
  approved: 1,
  denied: 1,
  expired: 1,
  withdrawn: 1,
  executing: 2,
  done: 3,
  failed: 3,
  unknown: 3,
};

const byCreated = (a: ApprovalView, b: ApprovalView) => a.createdAt.localeCompare(b.createdAt);

export function queueReducer(state: QueueState, action: QueueAction): QueueState {
  const seq = state.seq + 1;
  if (action.type === 'snapshot') {
    const fetched = new Set(action.pending.map((a) => a.id));
    const settled = new Set(state.recent.map((a) => a.id));
    // Requests that arrived by event after the fetch started may be missing from it: keep them.
    const newer = state.pending.filter(
      (a) => !fetched.has(a.id) && (state.seen[a.id] ?? 0) > action.startedAt,
    );
    const pending = [...action.pending.filter((a) => !settled.has(a.id)), ...newer].sort(byCreated);
    return { ...state, pending, loaded: true, seq };
  }
  const next = action.approval;
  const seen = { ...state.seen, [next.id]: seq };
  const known =
    state.recent.find((a) => a.id === next.id) ?? state.pending.find((a) => a.id === next.id);
  if (known && RANK[known.state] > RANK[next.state]) return state;
  if (next.state === 'pending') {
    const pending = known
      ? state.pending.map((a) => (a.id === next.id ? next : a))
      : [...state.pending, next].sort(byCreated);
    return { ...state, pending, seq, seen };
  }
  const recent = [next, ...state.recent.filter((a) => a.id !== next.id)].slice(0, RECENT_LIMIT);
  return { ...state, pending: state.pending.filter((a) => a.id !== next.id), recent, seq, seen };
}
