import { href } from '../lib/router';
import { PAGES } from './routes';
import { useStatus } from './status';

export function Nav({ current }: { current: string }) {
  const { status } = useStatus();
  const pending = status?.pendingApprovals ?? 0;
  return (
    <nav aria-label="Main" className="nav">
      <span className="brand" aria-hidden="true">
        Airlock
      </span>
      <ul>
        {PAGES.map((p) => (
          <li key={p.path}>
            <a href={href(p.path)} aria-current={current === p.path ? 'page' : undefined}>
              {p.label}
              {p.path === '/approvals' && pending > 0 && (
                <span
                  className="badge count"
                  aria-label={`, ${pending} waiting`}
                  data-testid="nav-pending"
                >
                  {pending}
                </span>
              )}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
