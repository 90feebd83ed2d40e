import type { ApprovalView } from '../../../common/contract';
import { formatClock } from '../lib/time';
import { Revealed } from './Revealed';

/**
 * Why Airlock flagged this call (issue 22, docs/provenance.md): a stranger's
 * destination, or the user's private data going somewhere new. Shown first,
 * plainly, with where each value came from; values are rendered with hidden
 * characters made visible, like the arguments.
 */
export function TaintWarning({ approval }: { approval: ApprovalView }) {
  const taint = approval.taint;
  if (!taint) return null;
  return (
    <section className="taint-warning" role="alert" data-testid="taint-warning">
      <h4>Check where this goes</h4>
      {taint.findings.map((f, i) => (
        <div key={i} className="taint-finding" data-testid="taint-finding">
          <p>
            <Revealed text={f.text} />
          </p>
          {f.evidence.length > 0 && (
            <ul className="taint-evidence">
              {f.evidence.map((e, j) => (
                <li key={j} data-testid="taint-evidence">
                  <Revealed text={e.label} /> — read with <code>{e.tool}</code> at{' '}
                  {formatClock(e.at)}
                  {e.ref && (
                    <>
                      {' '}
                      (<span className="hint">
                        {e.kind === 'mail' ? 'message id' : 'from'}
                      </span>{' '}
                      <code>{e.ref}</code>)
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
      <p className="hint">
        Airlock asks for every flagged call, even when the tool runs freely or you gave a grant.
      </p>
    </section>
  );
}
