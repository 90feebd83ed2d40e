import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { ApprovalView, Decision } from '../../../common/contract';
import { useConnectionGeneration, useControl, useCoreEvents } from '../lib/control';
import { errorMessage } from '../lib/errors';
import { initialQueue, queueReducer, type QueueState } from './queue-state';

export interface ApprovalQueue extends QueueState {
  loadError: string | null;
  /** Sends a decision; resolves with the new view or rejects with the server's error. */
  decide: (id: string, decision: Decision) => Promise<ApprovalView>;
  refresh: () => void;
}

/**
 * Pending approvals kept live: `approval.requested` / `approval.updated`
 * events, and a refetch of listPending whenever the event stream
 * (re)connects, since events sent while disconnected are lost.
 */
export function useApprovalQueue(): ApprovalQueue {
  const { api } = useControl();
  const [state, dispatch] = useReducer(queueReducer, initialQueue);
  const [loadError, setLoadError] = useState<string | null>(null);
  const seqRef = useRef(0);
  seqRef.current = state.seq;
  const generation = useConnectionGeneration();

  const recentRef = useRef(state.recent);
  recentRef.current = state.recent;

  const refresh = useCallback(() => {
    const startedAt = seqRef.current;
    api.listPending().then(
      (pending) => {
        setLoadError(null);
        dispatch({ type: 'snapshot', pending, startedAt });
      },
      (err: unknown) => setLoadError(errorMessage(err)),
    );
    // Calls that were still running may have finished (or become `unknown` after a restart) while we were away.
    for (const a of recentRef.current) {
      if (a.state !== 'approved' && a.state !== 'executing') continue;
      api.getApproval(a.id).then(
        (fresh) => dispatch({ type: 'upsert', approval: fresh }),
        () => {},
      );
    }
  }, [api]);

  useEffect(() => refresh(), [refresh, generation]);

  useCoreEvents((event) => {
    if (event.type === 'approval.requested' || event.type === 'approval.updated')
      dispatch({ type: 'upsert', approval: event.approval });
    else if (event.type === 'state.changed') refresh();
  });

  const decide = useCallback(
    async (id: string, decision: Decision) => {
      const view = await api.decide(id, decision);
      dispatch({ type: 'upsert', approval: view });
      return view;
    },
    [api],
  );

  return { ...state, loadError, decide, refresh };
}
