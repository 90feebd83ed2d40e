import {
  useId,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type Ref,
  type RefCallback,
} from 'react';
import type { AllowKind, ApprovalView, Decision, GrantSpec } from '../../../common/contract';
import { errorCode, errorMessage } from '../lib/errors';
import { AllowRefusedNotice } from './AllowRefused';
import { ArgumentsView } from './ArgumentsView';
import { quoted } from '../../../common/card-text';
import { plainEffectRest } from '../../../common/plain-effect';
import { ClippedText } from './Revealed';
import { ServerClaims, WaitingLine } from './CardFacts';
import { CardHeader } from './CardHeader';
import { DecisionButtons } from './DecisionButtons';
import { DenyForm } from './DenyForm';
import { TaintWarning } from './TaintWarning';
import { EditForm } from './EditForm';
import { GrantDialog } from './GrantDialog';
import { parseEffect } from './summary';
import { SummaryView } from './SummaryView';
import { isTyping, MOD_KEY } from './keys';
import { useArmed } from './useArmed';

interface Props {
  ref?: Ref<HTMLElement>;
  approval: ApprovalView;
  now: number;
  /** False while the core is unreachable: decisions are disabled and say so (issue 16 item 7). */
  connected: boolean;
  decide: (id: string, decision: Decision) => Promise<unknown>;
  /** A decision lost a race (someone decided first): the page says so and refetches. */
  onConflict: (message: string) => void;
  /** Moves keyboard focus to the next (+1) or previous (-1) request. */
  onMove: (delta: 1 | -1) => void;
  onFocus?: () => void;
}

type Mode = 'idle' | 'deny' | 'edit' | 'grant';

/**
 * One pending request: who asks, for what, from which server, how risky,
 * the exact arguments, the time left, and the decisions.
 *
 * Decisions come only from deliberate, visible acts (issue 16 item 3, issue
 * 17 item 1): no single unmodified key decides (allow is Ctrl/⌘+Enter), key
 * auto-repeat is ignored, and nothing is decided on a card that has not been
 * on screen for a moment (useArmed). "Always allow" opens a grant dialog that
 * must be confirmed. The server's guarded state change is the real protection
 * against a second execution.
 */
export function ApprovalCard(props: Props) {
  const { ref, approval, now, connected, decide, onConflict, onMove, onFocus } = props;
  const [mode, setMode] = useState<Mode>('idle');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [tip, setTip] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const inFlight = useRef(false);
  const headingId = useId();
  const { armed, isArmed, observe } = useArmed();
  const left = Date.parse(approval.expiresAt) - now;
  const ready = armed && connected && !busy;

  const setRefs: RefCallback<HTMLElement> = (el) => {
    observe(el);
    if (typeof ref === 'function') ref(el);
    else if (ref) (ref as { current: HTMLElement | null }).current = el;
  };

  /** Refuses (and says why) a decision the card is not ready for. */
  const guard = (): boolean => {
    if (!connected) {
      setTip('Airlock is not reachable right now; decide once it is back.');
      return false;
    }
    if (!isArmed()) {
      setTip('This request just appeared: read it first, then decide.');
      return false;
    }
    return !busy;
  };

  const send = async (decision: Decision) => {
    if (inFlight.current || !guard()) return;
    inFlight.current = true;
    setBusy(true);
    setError(null);
    setTip(null);
    try {
      await decide(approval.id, decision);
      if (mode === 'grant') setMode('idle');
    } catch (err) {
      if (errorCode(err) === 'CONFLICT' || errorCode(err) === 'NOT_FOUND')
        onConflict(errorMessage(err));
      else setError(errorMessage(err));
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  /** An allow the core would refuse now (its tool changed): the reason instead, nothing sent. */
  const refusedNow = (kind: AllowKind): boolean => {
    const r = approval.refused?.[kind];
    if (r) setTip(r.message);
    return !!r;
  };

  const allowOnce = () => {
    if (!refusedNow('allow_once')) void send({ kind: 'allow_once' });
  };

  const openEdit = () => {
    if (!refusedNow('allow_edited')) setMode('edit');
  };

  const openGrant = () => {
    if (refusedNow('always_allow') || !guard()) return;
    setError(null);
    setMode('grant');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    // A held key repeats: never let repeats decide, open forms, or walk the queue (issue 17 item 1).
    if (e.repeat) {
      if (!isTyping(e.target)) e.preventDefault();
      return;
    }
    if (e.key === 'Escape' && (mode === 'deny' || mode === 'edit')) {
      e.preventDefault();
      setMode('idle');
      (e.currentTarget as HTMLElement).focus();
      return;
    }
    if (mode !== 'idle' || isTyping(e.target)) return;
    const act = (fn: () => void) => {
      e.preventDefault();
      fn();
    };
    const mod = e.ctrlKey || e.metaKey;
    if (e.key === 'Enter' && mod && !e.altKey) {
      act(() => (e.shiftKey ? openGrant() : allowOnce()));
      return;
    }
    if (mod || e.altKey) return;
    const key = e.key;
    if (key === 'ArrowDown' || key === 'j') act(() => onMove(1));
    else if (key === 'ArrowUp' || key === 'k') act(() => onMove(-1));
    else if (key === 'a')
      act(() => setTip(`To allow once, press ${MOD_KEY}+Enter or use the Allow once button.`));
    else if (key === 'A') act(openGrant);
    else if (key === 'e' || key === 'E') act(openEdit);
    else if (key === 'd' || key === 'D') act(() => setMode('deny'));
  };

  const submitDeny = (e: FormEvent) => {
    e.preventDefault();
    void send({ kind: 'deny', ...(reason.trim() ? { reason: reason.trim() } : {}) });
  };

  const effect = parseEffect(approval.effect);
  // A third party's generic effect ("<title>: <its description>") is its words, not Airlock's:
  // the headline names the tool and server; the description is shown, labelled, below. Told
  // apart by the function that wrote it (common/plain-effect.ts, red-team finding R2), and the
  // title shown on one line, quoted (common/card-text.ts: cut at 200 with the rest of the whole
  // title counted, as the heading and native prompts count it — cut at 300 first, a title of 5,000
  // said "(101 more characters)") — and last: quoted before
  // "from <server>", a title closing its quote ('Archive” from Google Drive') named another
  // server, and a long one pushed the real one below the headline's clip.
  const title = approval.toolTitle ?? approval.tool;
  const generic =
    approval.thirdParty === true && plainEffectRest(approval.effect, title) !== undefined;
  const headline = generic
    ? `From ${approval.server ?? 'its server'}: run ${quoted(title.replace(/\s+/g, ' ').trim())}`
    : effect.headline;
  const disabledWhy = !connected
    ? 'Airlock is not reachable: decisions are disabled until it is back.'
    : !armed
      ? 'Read the request first: decisions open in a moment.'
      : undefined;

  return (
    <article
      ref={setRefs}
      className="card approval"
      tabIndex={0}
      aria-labelledby={headingId}
      aria-busy={busy}
      data-testid="approval-card"
      data-approval-id={approval.id}
      data-armed={armed ? 'true' : 'false'}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
    >
      <CardHeader approval={approval} headingId={headingId} left={left} />
      <div className="effect" data-testid="approval-effect">
        {/* A source may quote the arguments in its sentence: clipped like them. */}
        <ClippedText text={headline} />
      </div>
      <TaintWarning approval={approval} />
      <WaitingLine approval={approval} />
      <ServerClaims approval={approval} />
      <SummaryView approval={approval} />
      <ArgumentsView args={approval.arguments} />

      {mode === 'edit' ? (
        <EditForm
          approval={approval}
          busy={busy || !connected}
          serverError={error}
          refused={approval.refused?.allow_edited?.message}
          onSubmit={(args) => {
            if (!refusedNow('allow_edited')) void send({ kind: 'allow_edited', arguments: args });
          }}
          onCancel={() => {
            setError(null);
            setMode('idle');
          }}
        />
      ) : mode === 'deny' ? (
        <DenyForm
          tool={approval.tool}
          idPrefix={headingId}
          reason={reason}
          onReason={setReason}
          ready={ready}
          busy={busy}
          onSubmit={submitDeny}
          onCancel={() => setMode('idle')}
        />
      ) : (
        <>
          <AllowRefusedNotice approval={approval} idPrefix={headingId} />
          <DecisionButtons
            approval={approval}
            idPrefix={headingId}
            ready={ready}
            disabledWhy={disabledWhy}
            onAllowOnce={allowOnce}
            onAlwaysAllow={openGrant}
            onEdit={openEdit}
            onDeny={() => setMode('deny')}
          />
        </>
      )}
      {!connected && (
        <p className="error" data-testid="decisions-disabled">
          Airlock is not reachable: decisions are disabled until it is back.
        </p>
      )}
      {tip && connected && (
        <p className="hint" role="status" data-testid="decision-tip">
          {tip}
        </p>
      )}
      {error && mode !== 'edit' && mode !== 'grant' && (
        <p className="error" role="alert" data-testid="decision-error">
          {error}
        </p>
      )}
      <GrantDialog
        approval={approval}
        open={mode === 'grant'}
        busy={busy}
        error={mode === 'grant' ? error : null}
        refused={approval.refused?.always_allow?.message}
        onCancel={() => {
          setError(null);
          setMode('idle');
          const card = document.querySelector<HTMLElement>(
            `[data-approval-id="${CSS.escape(approval.id)}"]`,
          );
          card?.focus();
        }}
        onConfirm={(spec: GrantSpec) => {
          if (!refusedNow('always_allow')) void send({ kind: 'always_allow', ...spec });
        }}
      />
    </article>
  );
}
