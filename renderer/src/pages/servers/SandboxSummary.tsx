import type { SandboxView } from '../../../../common/contract';
import { sandboxBadge, sandboxFacts } from './sandbox-model';

/** A local server's sandbox on its card (issue 35): status, what it may reach, what was refused. */
export function SandboxSummary({ sandbox }: { sandbox: SandboxView }) {
  return (
    <div className="sandbox-summary" data-testid="server-sandbox" data-status={sandbox.status}>
      <p className={sandbox.status === 'sandboxed' ? 'hint' : 'warning-text'}>
        <strong>{sandboxBadge(sandbox)}</strong> — {sandbox.note}
      </p>
      <dl className="facts">
        {sandboxFacts(sandbox).map((f) => (
          <div key={f.label}>
            <dt>{f.label}</dt>
            <dd className="mono">{f.value}</dd>
          </div>
        ))}
      </dl>
      {sandbox.runtime.length > 0 && (
        <details>
          <summary>Also read-only, so it can run</summary>
          <ul className="mono">
            {sandbox.runtime.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
