import { useId, useState, type FormEvent } from 'react';
import type { AgentView, NewAgent } from '../../../../common/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useControl } from '../../lib/control';
import { errorMessage } from '../../lib/errors';
import { formatDateTime, relativeTime } from '../../lib/format';
import { useNow } from '../../lib/time';
import { useLoad } from '../../lib/useLoad';
import { NewAgentPanel } from './NewAgentPanel';
import { ClientsPanel } from './ClientsPanel';

/** Agents: who may connect, when each was last seen; add (token once + setup) and revoke. */
export function AgentsPage() {
  const { api } = useControl();
  const id = useId();
  const agents = useLoad(
    () => api.listAgents(),
    (e) => e.type === 'state.changed' || e.type === 'activity.added',
  );
  const now = useNow(30_000);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<NewAgent | null>(null);
  const [revoking, setRevoking] = useState<AgentView | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError('Name the agent, e.g. "claude-code" or "cursor-laptop".');
    setBusy(true);
    setError(null);
    try {
      const made = await api.addAgent(name.trim());
      setCreated(made);
      setName('');
      agents.setData((old) => [
        ...(old ?? []).filter((a) => a.name !== made.agent.name),
        made.agent,
      ]);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const revoke = async () => {
    if (!revoking) return;
    setBusy(true);
    setRevokeError(null);
    try {
      await api.revokeAgent(revoking.name);
      agents.setData((old) => old?.filter((a) => a.name !== revoking.name) ?? null);
      if (created?.agent.name === revoking.name) setCreated(null);
      setRevoking(null);
    } catch (err) {
      setRevokeError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const list = agents.data ?? [];
  return (
    <section className="page" aria-labelledby="agents-heading">
      <div className="page-head">
        <h1 id="agents-heading">Agents</h1>
      </div>
      <p className="lead">
        Each agent gets its own token, so you can see who asked for what and cut one off without
        touching the others.
      </p>

      {created ? (
        <NewAgentPanel created={created} onDone={() => setCreated(null)} />
      ) : (
        <form
          className="card add-agent"
          onSubmit={(e) => void add(e)}
          aria-labelledby={`${id}-h`}
          noValidate
        >
          <h2 id={`${id}-h`}>Connect an agent</h2>
          <div className="inline-form">
            <div className="field grow">
              <label htmlFor={`${id}-name`}>Agent name</label>
              <input
                id={`${id}-name`}
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder="claude-code"
                autoComplete="off"
                spellCheck={false}
                data-testid="agent-name"
              />
            </div>
            <button type="submit" className="primary" disabled={busy} data-testid="agent-add">
              {busy ? 'Adding…' : 'Add agent'}
            </button>
          </div>
          {error && (
            <p className="error" role="alert" data-testid="agent-error">
              {error}
            </p>
          )}
        </form>
      )}

      <ClientsPanel />

      <h2>Your agents</h2>
      {agents.error && (
        <p className="error" role="alert">
          Could not load the agents: {agents.error}{' '}
          <button type="button" onClick={agents.reload}>
            Try again
          </button>
        </p>
      )}
      {agents.data === null && !agents.error && <p className="empty">Loading…</p>}
      {agents.data !== null && list.length === 0 && (
        <div className="empty" data-testid="agents-empty">
          <p>
            <strong>No agents yet.</strong> Add one above, then paste its setup into your agent.
          </p>
        </div>
      )}
      {list.length > 0 && (
        <table className="list agents" data-testid="agents-table">
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">Status</th>
              <th scope="col">Last seen</th>
              <th scope="col">Added</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((a) => (
              <tr key={a.name} data-testid="agent-row" data-name={a.name}>
                <th scope="row">{a.name}</th>
                <td>
                  <span className={`badge state ${a.connected ? 'ready' : 'idle'}`}>
                    {a.connected ? 'Connected' : 'Not connected'}
                  </span>
                  {!a.hasToken && (
                    <>
                      {' '}
                      <span
                        className="badge state error"
                        data-testid="agent-token-missing"
                        title="The vault no longer holds this agent's token, so it cannot connect. Revoke it and add it again, then give the client the new token."
                      >
                        Token missing: revoke and add again
                      </span>
                    </>
                  )}
                </td>
                <td>
                  {a.lastSeen ? (
                    <time dateTime={a.lastSeen} title={formatDateTime(a.lastSeen)}>
                      {relativeTime(a.lastSeen, now)}
                    </time>
                  ) : (
                    <span className="hint">Never</span>
                  )}
                </td>
                <td>
                  <time dateTime={a.createdAt} title={formatDateTime(a.createdAt)}>
                    {relativeTime(a.createdAt, now)}
                  </time>
                </td>
                <td className="row-actions">
                  <button
                    type="button"
                    className="small danger-outline"
                    onClick={() => {
                      setRevokeError(null);
                      setRevoking(a);
                    }}
                    aria-label={`Revoke ${a.name}`}
                    data-testid="agent-revoke"
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.name ?? ''}?`}
        confirmLabel="Revoke agent"
        danger
        busy={busy}
        error={revokeError}
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(null)}
      >
        <p>
          Its token stops working at once, and its per-tool settings and “always allow” choices are
          removed. To connect it again, add it anew and paste the new setup.
        </p>
      </ConfirmDialog>
    </section>
  );
}
