import { useState } from 'react';
import type { RemoteView } from '../../../../common/contract';
import { useControl } from '../../lib/control';
import { useLoad } from '../../lib/useLoad';
import { AddServerForm } from './AddServerForm';
import { ServerCard } from './ServerCard';

/** The user's MCP servers, remote and local (issue 8 "Remote servers", issue 15; the core side is issue 4). */
export function ServersPage() {
  const { api } = useControl();
  const remotes = useLoad(
    () => api.listRemotes(),
    (e) => e.type === 'state.changed' || e.type === 'tools.changed',
  );
  const [adding, setAdding] = useState(false);
  const list = remotes.data ?? [];

  const upsert = (r: RemoteView) =>
    remotes.setData((old) =>
      old?.some((x) => x.name === r.name)
        ? old.map((x) => (x.name === r.name ? r : x))
        : [...(old ?? []), r],
    );

  const showForm = adding || (remotes.data !== null && list.length === 0);
  return (
    <section className="page" aria-labelledby="servers-heading">
      <div className="page-head">
        <h1 id="servers-heading">Servers</h1>
        {!showForm && (
          <button
            type="button"
            className="primary"
            onClick={() => setAdding(true)}
            data-testid="add-server"
          >
            Add a server
          </button>
        )}
      </div>
      <p className="lead">
        MCP servers on the web, offered to your agents through Airlock. Their tools ask before
        running unless the server marks them read-only — and you decide on the Tools page.
      </p>
      {remotes.error && (
        <p className="error" role="alert">
          Could not load the servers: {remotes.error}{' '}
          <button type="button" onClick={remotes.reload}>
            Try again
          </button>
        </p>
      )}
      {remotes.data === null && !remotes.error && <p className="empty">Loading…</p>}
      {remotes.data !== null && list.length === 0 && (
        <div className="empty" data-testid="servers-empty">
          <p>
            <strong>No servers yet.</strong> Add one by its URL, or a local command that Airlock
            starts for you — or bring over the ones your other apps use from the Agents page.
          </p>
        </div>
      )}
      {showForm && (
        <AddServerForm
          onAdded={(r) => {
            upsert(r);
            setAdding(false);
          }}
          {...(list.length > 0 ? { onCancel: () => setAdding(false) } : {})}
        />
      )}
      {list.length > 0 && <h2>Your servers</h2>}
      {list.length > 0 && (
        <div className="stack" role="list" aria-label="Servers">
          {list.map((r) => (
            <div role="listitem" key={r.name}>
              <ServerCard
                server={r}
                onChanged={upsert}
                onRemoved={(name) =>
                  remotes.setData((old) => old?.filter((x) => x.name !== name) ?? null)
                }
              />
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
