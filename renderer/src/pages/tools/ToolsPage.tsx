import { useId, useMemo, useState } from 'react';
import type { ApprovalMode, ToolPolicyPatch, ToolView } from '../../../../common/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useControl } from '../../lib/control';
import { errorCode, errorMessage } from '../../lib/errors';
import { plural } from '../../lib/format';
import { useLoad } from '../../lib/useLoad';
import { useStatus } from '../../shell/status';
import { groupTools, policyCall, rowIsStale } from './tools-model';
import { PolicyChanges } from './PolicyChanges';
import { ToolRow } from './ToolRow';

type Only = 'all' | 'ask' | 'auto' | 'disabled';

/**
 * Every tool agents can be offered, grouped by source: on/off and "runs
 * freely" / "asks first", for everyone or one agent (an override). Making a
 * destructive tool run freely takes an explicit confirmation (the core
 * refuses with CONFIRM_REQUIRED otherwise).
 */
export function ToolsPage() {
  const { api } = useControl();
  const { status } = useStatus();
  const id = useId();
  const [agent, setAgent] = useState('');
  const [query, setQuery] = useState('');
  const [only, setOnly] = useState<Only>('all');
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<ToolView | null>(null);

  const agents = useLoad(
    () => api.listAgents(),
    (e) => e.type === 'state.changed',
  );
  const tools = useLoad(
    () => api.listTools(agent || undefined),
    (e) => e.type === 'tools.changed' || e.type === 'state.changed',
    agent, // re-read for another agent; the old rows stay meanwhile (no jump)
  );

  const groups = useMemo(
    () => groupTools(tools.data ?? [], status?.sources ?? [], query, only),
    [tools.data, status?.sources, query, only],
  );

  const patch = async (t: ToolView, p: ToolPolicyPatch) => {
    setBusy(t.key);
    setError(null);
    // Show the choice at once; the core's answer (or a reload on failure) settles it.
    const optimistic = {
      ...(p.enabled !== undefined ? { enabled: p.enabled } : {}),
      ...(p.approval ? { approval: p.approval } : {}),
    };
    tools.setData(
      (old) => old?.map((x) => (x.key === t.key ? { ...x, ...optimistic } : x)) ?? null,
    );
    try {
      // Held to the row's key: a name that moved to another tool meanwhile is refused (CONFLICT)
      // and the reload below shows the tools as they are now.
      const view = await api.setToolPolicy(...policyCall(t, p));
      tools.setData((old) => old?.map((x) => (x.key === view.key ? view : x)) ?? null);
      setConfirm(null);
    } catch (err) {
      tools.reload();
      if (errorCode(err) === 'CONFIRM_REQUIRED' && !p.confirmDestructive) setConfirm(t);
      else setError(`${t.name}: ${errorMessage(err)}`);
    } finally {
      setBusy(null);
    }
  };

  const setApproval = (t: ToolView, mode: ApprovalMode) => {
    if (mode === 'auto' && t.destructive) return setConfirm(t);
    void patch(t, { approval: mode });
  };

  const total = tools.data?.length ?? 0;
  const shown = groups.reduce((n, g) => n + g.tools.length, 0);

  return (
    <section className="page tools-page" aria-labelledby="tools-heading">
      <div className="page-head">
        <h1 id="tools-heading">Tools</h1>
        {status && (
          <span className="hint" data-testid="tools-summary">
            {plural(status.tools.total, 'tool')} offered, {status.tools.needApproval} ask first
          </span>
        )}
      </div>
      <PolicyChanges />
      <div className="toolbar" role="search">
        <div className="field grow">
          <label htmlFor={`${id}-q`}>Search</label>
          <input
            id={`${id}-q`}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Name or what it does"
            data-testid="tools-search"
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-only`}>Show</label>
          <select id={`${id}-only`} value={only} onChange={(e) => setOnly(e.target.value as Only)}>
            <option value="all">All tools</option>
            <option value="ask">Asks first</option>
            <option value="auto">Runs freely</option>
            <option value="disabled">Turned off</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-agent`}>Settings for</label>
          <select
            id={`${id}-agent`}
            value={agent}
            onChange={(e) => setAgent(e.target.value)}
            data-testid="tools-agent"
          >
            <option value="">Every agent (default)</option>
            {(agents.data ?? []).map((a) => (
              <option key={a.name} value={a.name}>
                {a.name} only
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="hint" aria-live="polite" data-testid="tools-count">
        {agent ? `Changes here apply to ${agent} only and win over the defaults. ` : ''}
        {tools.data
          ? shown === total
            ? plural(total, 'tool')
            : `${shown} of ${plural(total, 'tool')}`
          : ''}
      </p>
      {(error || tools.error) && (
        <p className="error" role="alert" data-testid="tools-error">
          {error ?? `Could not load the tools: ${tools.error}`}
        </p>
      )}
      {tools.data === null && !tools.error && <p className="empty">Loading…</p>}
      {tools.data !== null && total === 0 && (
        <div className="empty">
          <p>
            <strong>No tools yet.</strong> Connect a Google account on the{' '}
            <a href="#/accounts">Accounts</a> page or add a server on the{' '}
            <a href="#/servers">Servers</a> page; their tools appear here.
          </p>
        </div>
      )}
      {tools.data !== null && total > 0 && shown === 0 && (
        <p className="empty">No tool matches. Clear the search or choose “All tools”.</p>
      )}
      {groups.map((g) => (
        <section
          key={g.source}
          className="tool-group"
          aria-labelledby={`${id}-${g.source}`}
          data-testid="tool-group"
          data-source={g.source}
        >
          <h2 id={`${id}-${g.source}`}>
            {g.label} <span className="count">{g.tools.length}</span>
            {g.state && g.state !== 'ready' && (
              <span className={`badge state ${g.state}`}>
                {g.state === 'loading' ? 'Connecting…' : 'Not working'}
              </span>
            )}
          </h2>
          {g.detail && <p className="error">{g.detail}</p>}
          <table className="tools">
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">On</th>
                <th scope="col">When called</th>
              </tr>
            </thead>
            <tbody>
              {g.tools.map((t) => (
                <ToolRow
                  key={t.key}
                  tool={t}
                  // Until the re-read for the chosen agent arrives, the old agent's rows are
                  // shown but cannot be changed: the label above already names the new agent.
                  busy={busy === t.key || rowIsStale(t, agent)}
                  onEnabled={(enabled) => void patch(t, { enabled })}
                  onApproval={(m) => setApproval(t, m)}
                />
              ))}
            </tbody>
          </table>
        </section>
      ))}
      <ConfirmDialog
        open={confirm !== null}
        title={`Let ${confirm?.name ?? ''} run without asking?`}
        confirmLabel="Run without asking"
        danger
        busy={busy !== null}
        onConfirm={() =>
          confirm && void patch(confirm, { approval: 'auto', confirmDestructive: true })
        }
        onCancel={() => setConfirm(null)}
        testId="destructive-confirm"
      >
        <p className="warning-text">
          <strong>{confirm?.title ?? confirm?.name}</strong> can send, change or delete things, and
          some of it cannot be undone.
        </p>
        <p>
          {confirm?.agent ? `${confirm.agent} will` : 'Every agent will'} be able to run it without
          you seeing the call first. Agents can be tricked by what they read (a web page, an e-mail)
          into calling tools you did not intend.
        </p>
      </ConfirmDialog>
    </section>
  );
}
