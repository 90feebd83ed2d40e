/**
 * Shown when the page was opened without the control token (or with a wrong one), or with a
 * one-time code of `airlock open` that is spent (common/open-code.ts), could not be traded
 * (`codeFailure`, saying why), or was taken by this tab but never traded (`codeLost`: a reload
 * while it was being traded; the code is spent by being sent, so it is not tried again).
 */
export function NoToken({
  rejected = false,
  spentCode = false,
  codeFailure,
  codeLost = false,
}: {
  rejected?: boolean;
  spentCode?: boolean;
  codeFailure?: string;
  codeLost?: boolean;
}) {
  if (spentCode || codeFailure !== undefined)
    return (
      <main className="app no-token" id="main">
        <section className="page" aria-labelledby="no-token-heading" data-testid="no-token">
          <h1 id="no-token-heading">
            {spentCode ? 'This link no longer works' : 'This link could not be opened'}
          </h1>
          {spentCode ? (
            <p data-testid="open-code-spent">
              This link was already used or has expired — run <code>airlock open</code> again.
            </p>
          ) : (
            <p data-testid="open-code-failed">{codeFailure}</p>
          )}
        </section>
      </main>
    );
  return (
    <main className="app no-token" id="main">
      <section className="page" aria-labelledby="no-token-heading" data-testid="no-token">
        <h1 id="no-token-heading">
          {rejected ? 'This approval link no longer works' : 'Open Airlock from its control link'}
        </h1>
        {rejected ? (
          <p>
            Airlock refused the control token this page was opened with. It may belong to another
            Airlock profile.
          </p>
        ) : (
          <p>
            This page needs the control token that only the person running Airlock has. It is not in
            this address.
          </p>
        )}
        {codeLost && (
          <p data-testid="open-code-lost">
            This tab was opened with a one-time link from <code>airlock open</code> that may already
            have been used (the page was reloaded while opening it). Run <code>airlock open</code>{' '}
            again.
          </p>
        )}
        <p>
          Open the <strong>control URL</strong> that <code>airlock serve</code> printed when it
          started (the <code>controlUrl</code> in its first line, ending in <code>#token=…</code>).
          The token stays in this browser tab only.
        </p>
        {location.hash.startsWith('#/approve/') && (
          <p data-testid="no-token-approval">
            An agent sent you this link to approve one of its calls. Decide it in Airlock: the
            desktop app&apos;s approval window, or the page you opened from the control URL (it
            lists every waiting request). This link carries no key, so it cannot approve anything by
            itself.
          </p>
        )}
        <p className="hint">
          Agent tokens do not work here: an agent can never approve its own call.
        </p>
      </section>
    </main>
  );
}
