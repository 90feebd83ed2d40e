import { useCallback, useEffect, useRef, useState } from 'react';
import { useConnected } from '../lib/control';
import { useNow } from '../lib/time';
import { ApprovalCard } from './ApprovalCard';
import { GrantsList } from './GrantsList';
import { RecentList } from './RecentList';
import { ShortcutsHelp } from './ShortcutsHelp';
import { useApprovalQueue } from './useApprovalQueue';
import { REARM_EVENT } from './useArmed';

/**
 * The approval queue (issue 3 item 9, issue 8 "Approvals"). Also the body of
 * the 360-px popup (`compact`), where the help and history fold away.
 * `focusId`: the request the user opened (popup, notification, deep link);
 * it gets the keyboard, never simply the first card (issue 16 item 3).
 */
export function ApprovalsPage({
  compact = false,
  focusId = null,
}: {
  compact?: boolean;
  focusId?: string | null;
}) {
  const queue = useApprovalQueue();
  const connected = useConnected();
  const now = useNow(1000);
  const [notice, setNotice] = useState<string | null>(null);
  const cards = useRef(new Map<string, HTMLElement>());

  const ids = queue.pending.map((a) => a.id);
  const move = useCallback(
    (from: string, delta: 1 | -1) => {
      const i = ids.indexOf(from);
      const target = ids[Math.min(ids.length - 1, Math.max(0, i + delta))];
      if (target) cards.current.get(target)?.focus();
    },
    [ids],
  );

  // The request the user opened gets the keyboard once it is there (and again if the link changes).
  const focusedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!focusId || focusedFor.current === focusId) return;
    const el = cards.current.get(focusId);
    if (!el) return;
    focusedFor.current = focusId;
    el.scrollIntoView({ block: 'nearest' });
    el.focus({ preventScroll: true });
  });

  // After the user decided the focused request (its card is gone and focus fell back to <body>),
  // the one that took its place gets the keyboard. Nothing is focused on its own when the page
  // opens: a card that just appeared must never be under a key meant for something else.
  const lastIndex = useRef<number | null>(null);
  const key = ids.join(',');
  useEffect(() => {
    const active = document.activeElement;
    if (lastIndex.current === null || ids.length === 0 || (active && active !== document.body))
      return;
    const target = ids[Math.min(lastIndex.current, ids.length - 1)];
    const el = target ? cards.current.get(target) : undefined;
    // Not read yet just because it is under the keyboard now: its count starts again (useArmed).
    el?.dispatchEvent(new Event(REARM_EVENT));
    el?.focus({ preventScroll: true });
  }, [key]); // `key` stands for `ids`, whose array identity changes every render

  const onConflict = (message: string) => {
    setNotice(message);
    queue.refresh();
  };

  return (
    <section className="page approvals-page" aria-labelledby="approvals-heading">
      <div className="page-head">
        <h1 id="approvals-heading">
          Approvals{' '}
          <span
            className="count"
            data-testid="pending-count"
            aria-label={`${queue.pending.length} waiting`}
          >
            {queue.pending.length}
          </span>
        </h1>
        {!compact && <ShortcutsHelp />}
      </div>
      <div role="status" aria-live="polite" className="notice-area">
        {notice && (
          <p className="notice" data-testid="queue-notice">
            {notice}{' '}
            <button type="button" className="link" onClick={() => setNotice(null)}>
              Dismiss
            </button>
          </p>
        )}
      </div>
      {queue.loadError && (
        <p className="error" role="alert">
          Could not load the pending requests: {queue.loadError}{' '}
          <button type="button" onClick={queue.refresh}>
            Try again
          </button>
        </p>
      )}
      {!queue.loaded && !queue.loadError ? (
        <p className="empty">Loading…</p>
      ) : queue.pending.length === 0 ? (
        <div className="empty" data-testid="approvals-empty">
          <p>
            <strong>Nothing is waiting for you.</strong>
          </p>
          <p>
            When an agent calls a tool that needs your approval, the request appears here at once;
            this page updates by itself.
          </p>
        </div>
      ) : (
        <>
          <h2 className="visually-hidden">Waiting for your decision</h2>
          <div className="queue" aria-label="Pending requests" role="list">
            {queue.pending.map((a) => (
              <div role="listitem" key={a.id}>
                <ApprovalCard
                  ref={(el) => {
                    if (el) cards.current.set(a.id, el);
                    else cards.current.delete(a.id);
                  }}
                  approval={a}
                  now={now}
                  connected={connected}
                  decide={queue.decide}
                  onConflict={onConflict}
                  onMove={(d) => move(a.id, d)}
                  onFocus={() => (lastIndex.current = ids.indexOf(a.id))}
                />
              </div>
            ))}
          </div>
        </>
      )}
      {!compact && <GrantsList />}
      {!compact && <RecentList items={queue.recent} />}
      {compact && queue.recent[0] && <RecentList items={queue.recent.slice(0, 3)} />}
    </section>
  );
}
