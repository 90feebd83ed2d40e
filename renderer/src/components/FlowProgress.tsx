import type { ReactNode } from 'react';
import { formatLeft, useNow } from '../lib/time';
import { flowEnded, flowSucceeded, type FlowStart, type FlowState } from '../lib/useBrowserFlow';

interface FlowView {
  state: string;
  error?: { code: string; message: string };
}

/** What a page says about its flow; the box's layout and behaviour are shared. */
export interface FlowWording<V extends FlowView> {
  /** The instruction under "Waiting for you in the browser…". */
  waiting: (browserOpened: boolean) => string;
  /** The sign-in link's content (its accessible name). */
  link: (browserOpened: boolean) => ReactNode;
  success: (view: V) => ReactNode;
  cancelled: (view: V) => ReactNode;
  /** What to do about a failure, by the core's error code. */
  fixes: Record<string, string>;
}

export interface FlowTestIds {
  box: string;
  link: string;
  cancel: string;
  error?: string;
}

/**
 * Progress of a browser sign-in while the browser is open, with a countdown,
 * the sign-in link and Cancel, and how it ended. The link is always there:
 * headless `airlock serve` cannot open a browser, and a browser the shell
 * opened may be behind this window.
 */
export function FlowProgress<V extends FlowView>({
  flow,
  wording,
  testIds,
  onCancel,
  onDismiss,
}: {
  flow: FlowState<FlowStart, V>;
  wording: FlowWording<V>;
  testIds: FlowTestIds;
  onCancel: () => void;
  onDismiss: () => void;
}) {
  const now = useNow(1000);
  const { start, view } = flow;
  if (!start || !view) return null;
  const left = Date.parse(start.expiresAt) - now;
  const open = !flowEnded(view.state);
  return (
    <div
      className={`card connect-progress state-${view.state}`}
      data-testid={testIds.box}
      data-state={view.state}
    >
      <div role="status" aria-live="polite">
        {view.state === 'waiting' && (
          <>
            <p>
              <span className="spinner" aria-hidden="true" />{' '}
              <strong>Waiting for you in the browser…</strong>{' '}
              <span className="hint">({formatLeft(left)} left)</span>
            </p>
            <p>{wording.waiting(start.browserOpened)}</p>
          </>
        )}
        {view.state === 'exchanging' && (
          <p>
            <span className="spinner" aria-hidden="true" /> <strong>Finishing the sign-in…</strong>
          </p>
        )}
        {flowSucceeded(view.state) && <p>{wording.success(view)}</p>}
        {view.state === 'cancelled' && <p>{wording.cancelled(view)}</p>}
        {view.state === 'failed' && (
          <div role="alert">
            <p className="error" data-testid={testIds.error}>
              {view.error?.message ?? 'The sign-in failed.'}
            </p>
            {view.error && wording.fixes[view.error.code] && (
              <p>{wording.fixes[view.error.code]}</p>
            )}
          </div>
        )}
      </div>
      <div className="actions">
        {view.state === 'waiting' && (
          <a
            className="button primary"
            href={start.authUrl}
            target="_blank"
            rel="noreferrer"
            data-testid={testIds.link}
          >
            {wording.link(start.browserOpened)}
          </a>
        )}
        {open && (
          <button type="button" onClick={onCancel} data-testid={testIds.cancel}>
            Cancel
          </button>
        )}
        {!open && (
          <button type="button" onClick={onDismiss}>
            Close
          </button>
        )}
      </div>
    </div>
  );
}
