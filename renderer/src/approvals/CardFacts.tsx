import type { ApprovalView } from '../../../common/contract';
import { formatClock } from '../lib/time';
import { ClippedText, Revealed } from './Revealed';

const RISK_TEXT = {
  'read-only': 'Read-only',
  changes: 'Makes changes',
  destructive: 'Destructive',
};

/** The risk badge, the same words and colours as the Tools page. */
export function RiskBadge({ approval }: { approval: ApprovalView }) {
  if (!approval.risk) return null;
  return (
    <span className={`badge tag ${approval.risk}`} data-testid={`badge-${approval.risk}`}>
      {RISK_TEXT[approval.risk]}
    </span>
  );
}

const HINT_TEXT: Record<string, string> = {
  readOnlyHint: 'only reads',
  destructiveHint: 'may delete or overwrite',
  idempotentHint: 'safe to repeat',
  openWorldHint: 'reaches outside services',
};

/**
 * Whose words are whose (issue 16 item 4): a third-party server's description
 * and hints are shown as that server's claims, never as Airlock's facts.
 */
export function ServerClaims({ approval }: { approval: ApprovalView }) {
  if (!approval.thirdParty) return null;
  const server = approval.server ?? 'the server';
  const hints = Object.entries(approval.hints ?? {});
  if (!approval.description && hints.length === 0) return null;
  return (
    <details className="server-claims" data-testid="server-claims">
      <summary>
        What <strong>{server}</strong> says about this tool{' '}
        <span className="hint">(its words, not checked by Airlock)</span>
      </summary>
      {approval.description && (
        <blockquote className="server-description" data-testid="server-description">
          <ClippedText text={approval.description} />
        </blockquote>
      )}
      {hints.length > 0 && (
        <p className="hint" data-testid="server-hints">
          {server} claims:{' '}
          {hints.map(([k, v]) => `${HINT_TEXT[k] ?? k}: ${v ? 'yes' : 'no'}`).join(' · ')}
        </p>
      )}
    </details>
  );
}

/** Whether the agent is still waiting, and what happens if it is not (issue 16 items 4 and 6). */
export function WaitingLine({ approval }: { approval: ApprovalView }) {
  if (approval.agentWaiting === undefined) return null;
  if (approval.agentWaiting)
    return (
      <p className="hint waiting" data-testid="agent-waiting">
        {approval.agent} is waiting for your answer.
      </p>
    );
  return (
    <p className="notice agent-left" data-testid="agent-left">
      {approval.agent} stopped waiting
      {approval.agentLeftAt ? ` at ${formatClock(approval.agentLeftAt)}` : ''}. If you allow it, it
      runs now, once; {approval.agent} gets the result when it calls again with the same arguments.
    </p>
  );
}

export function Headline({ text }: { text: string }) {
  return <Revealed text={text} />;
}
