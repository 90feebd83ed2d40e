import { useEffect } from 'react';
import { ApprovalsPage } from '../approvals/ApprovalsPage';
import { useRoute } from '../lib/router';
import { Nav } from './Nav';
import { APPROVE_PREFIX, DEFAULT_PATH, focusedRequest, PAGES, POPUP_PATH } from './routes';
import { StatusBar } from './StatusBar';
import { useStatus } from './status';

/** The window: navigation, the current page, and the status bar. `#/popup` is the queue alone. */
export function App() {
  const route = useRoute();
  const popup = route.path === POPUP_PATH || route.path.startsWith(APPROVE_PREFIX);
  const page = PAGES.find((p) => p.path === route.path);

  useEffect(() => {
    if (!popup && !page) location.replace(`#${DEFAULT_PATH}`);
  }, [popup, page]);

  useEffect(() => {
    document.title = popup ? 'Airlock — approval' : `Airlock — ${page?.label ?? 'Approvals'}`;
  }, [popup, page]);

  if (popup) {
    return (
      <div className="app popup">
        <PausedBanner />
        <main id="main">
          <ApprovalsPage compact focusId={focusedRequest(route.path, route.params)} />
        </main>
        <StatusBar compact />
      </div>
    );
  }
  return (
    <div className="app">
      <a
        href="#main"
        className="skip-link"
        onClick={(e) => {
          e.preventDefault(); // "#main" would be read as a route
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <Nav current={route.path} />
      <PausedBanner />
      <main id="main" tabIndex={-1}>
        {(page ?? PAGES[0]!).render()}
      </main>
      <StatusBar />
    </div>
  );
}

function PausedBanner() {
  const { status } = useStatus();
  if (!status?.paused) return null;
  return (
    <p className="banner paused" role="status" data-testid="paused-banner">
      Side effects are paused: every call that needs approval is denied at once until you resume.
    </p>
  );
}
