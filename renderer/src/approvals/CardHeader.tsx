import type { ApprovalView } from '../../../common/contract';
import { quoted } from '../../../common/card-text';
import { formatClock, formatLeft } from '../lib/time';
import { Headline, RiskBadge } from './CardFacts';

/** Who asks to run which tool from which server, how risky, and the time left. */
export function CardHeader({
  approval,
  headingId,
  left,
}: {
  approval: ApprovalView;
  headingId: string;
  /** Milliseconds until the request expires. */
  left: number;
}) {
  return (
    <header className="card-head">
      <h3 id={headingId}>
        <span className="agent">{approval.agent}</span> wants to run{' '}
        <code className="tool">{approval.tool}</code>
        {approval.toolTitle && (
          <span className="hint">
            {' '}
            {/* The server's words, quoted as a card quotes any value (common/card-text.ts): one
                line, cut with its length said, so a long title cannot push "from <server>" and
                the risk below the fold, nor a quote in it close this one. */}
            (<Headline text={quoted(approval.toolTitle.replace(/\s+/g, ' ').trim())} />)
          </span>
        )}
        {approval.server && (
          <span className="hint server" data-testid="approval-server">
            {' '}
            from {approval.server}
          </span>
        )}{' '}
        <RiskBadge approval={approval} />
      </h3>
      <span
        className={left < 60_000 ? 'time-left urgent' : 'time-left'}
        data-testid="time-left"
        title={`Expires at ${formatClock(approval.expiresAt)}`}
      >
        {left > 0 ? `Expires in ${formatLeft(left)}` : 'Expiring…'}
      </span>
    </header>
  );
}
