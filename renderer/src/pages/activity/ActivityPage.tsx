import { Fragment, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ActivityView } from '../../../../common/contract';
import { useConnectionGeneration, useControl, useCoreEvents } from '../../lib/control';
import { downloadText } from '../../lib/download';
import { errorMessage } from '../../lib/errors';
import { formatDateTime, formatDuration } from '../../lib/format';
import { useLoad } from '../../lib/useLoad';
import { ActivityDetail } from './ActivityDetail';
import { ActivityFiltersBar } from './ActivityFiltersBar';
import {
  decisionText,
  exportName,
  matches,
  mergeActivity,
  NO_FILTERS,
  OUTCOME_TEXT,
  toCsv,
  toJson,
  type ActivityFilters,
} from './activity-model';

const PAGE = 100;

/** Every call: time, agent, tool, decision, outcome, duration; filters, details, export (issue 8 "Activity"). */
export function ActivityPage() {
  const { api } = useControl();
  const generation = useConnectionGeneration();
  const [filters, setFilters] = useState<ActivityFilters>(NO_FILTERS);
  const [items, setItems] = useState<ActivityView[] | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const ticket = useRef(0);
  const id = useId();

  const server = useMemo(
    () => ({
      ...(filters.agent ? { agent: filters.agent } : {}),
      ...(filters.tool ? { tool: filters.tool } : {}),
    }),
    [filters.agent, filters.tool],
  );

  const load = useCallback(
    (beforeId?: number) => {
      const t = ++ticket.current;
      api.listActivity({ ...server, limit: PAGE, ...(beforeId ? { beforeId } : {}) }).then(
        (rows) => {
          if (t !== ticket.current) return;
          setItems((old) => (beforeId ? mergeActivity(old ?? [], rows) : rows));
          setMore(rows.length === PAGE);
          setError(null);
        },
        (err: unknown) => t === ticket.current && setError(errorMessage(err)),
      );
    },
    [api, server],
  );

  useEffect(() => load(), [load, generation]);

  useCoreEvents((e) => {
    // A call's row is updated as it moves on (approved → ran/failed); `mergeActivity` replaces it by id.
    if (e.type !== 'activity.added' && e.type !== 'activity.updated') return;
    const a = e.activity;
    if ((server.agent && a.agent !== server.agent) || (server.tool && a.tool !== server.tool))
      return;
    setItems((old) => (old ? mergeActivity(old, [a]) : old));
  });

  // Filter choices: every agent and tool known, plus any seen in the log (a revoked agent, a removed tool).
  const agents = useLoad(
    () => api.listAgents(),
    (e) => e.type === 'state.changed',
  );
  const tools = useLoad(
    () => api.listTools(),
    (e) => e.type === 'tools.changed',
  );
  const agentNames = useMemo(
    () =>
      uniq([
        ...(agents.data ?? []).map((a) => a.name),
        ...(items ?? []).map((a) => a.agent),
        filters.agent,
      ]),
    [agents.data, items, filters.agent],
  );
  const toolNames = useMemo(
    () =>
      uniq([
        ...(tools.data ?? []).map((t) => t.name),
        ...(items ?? []).map((a) => a.tool),
        filters.tool,
      ]),
    [tools.data, items, filters.tool],
  );

  const shown = useMemo(() => (items ?? []).filter((a) => matches(a, filters)), [items, filters]);
  const exportAs = (ext: 'csv' | 'json') =>
    downloadText(
      exportName(ext),
      ext === 'csv' ? toCsv(shown) : toJson(shown),
      ext === 'csv' ? 'text/csv;charset=utf-8' : 'application/json',
    );

  return (
    <section className="page activity-page" aria-labelledby="activity-heading">
      <div className="page-head">
        <h1 id="activity-heading">Activity</h1>
        <div className="actions" role="group" aria-label="Export">
          <button
            type="button"
            onClick={() => exportAs('csv')}
            disabled={shown.length === 0}
            data-testid="export-csv"
          >
            Export CSV
          </button>
          <button
            type="button"
            onClick={() => exportAs('json')}
            disabled={shown.length === 0}
            data-testid="export-json"
          >
            Export JSON
          </button>
        </div>
      </div>
      <ActivityFiltersBar
        filters={filters}
        onChange={setFilters}
        agents={agentNames}
        tools={toolNames}
      />
      <p className="hint" aria-live="polite" data-testid="activity-count">
        {items === null
          ? ''
          : `${shown.length} ${shown.length === 1 ? 'call' : 'calls'} shown${more ? ' (older ones: Load more)' : ''}. Exports contain the calls shown.`}
      </p>
      {error && (
        <p className="error" role="alert">
          Could not load the activity: {error}{' '}
          <button type="button" onClick={() => load()}>
            Try again
          </button>
        </p>
      )}
      {items === null && !error && <p className="empty">Loading…</p>}
      {items !== null && shown.length === 0 && (
        <div className="empty" data-testid="activity-empty">
          {items.length === 0 &&
          !(filters.agent || filters.tool || filters.decision || filters.outcome) ? (
            <p>
              <strong>No calls yet.</strong> Connect an agent on the <a href="#/agents">Agents</a>{' '}
              page; every call it makes is listed here.
            </p>
          ) : (
            <p>No call matches these filters. Clear them to see everything.</p>
          )}
        </div>
      )}
      {shown.length > 0 && (
        <table
          className="list activity"
          data-testid="activity-table"
          aria-describedby={`${id}-cap`}
        >
          <caption id={`${id}-cap`} className="visually-hidden">
            Tool calls, newest first. Use Details for the full record.
          </caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Agent</th>
              <th scope="col">Tool</th>
              <th scope="col">Decision</th>
              <th scope="col">Outcome</th>
              <th scope="col" className="num">
                Duration
              </th>
              <th scope="col">
                <span className="visually-hidden">Details</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((a) => (
              <Fragment key={a.id}>
                <tr
                  data-testid="activity-row"
                  data-id={a.id}
                  data-decision={a.decision}
                  data-outcome={a.outcome}
                >
                  <td>
                    <time dateTime={a.at}>{formatDateTime(a.at)}</time>
                  </td>
                  <td>{a.agent}</td>
                  <td>
                    <code>{a.tool}</code>
                  </td>
                  <td>
                    <span
                      className={`badge decision-${a.decision}`}
                      data-testid="activity-decision"
                    >
                      {decisionText(a)}
                    </span>
                    {a.taint && (
                      <span
                        className="badge tag destructive"
                        title={a.taint}
                        data-testid="activity-flagged"
                      >
                        {' '}
                        Flagged
                      </span>
                    )}
                  </td>
                  <td>
                    <span className={`badge outcome-${a.outcome}`} data-testid="activity-outcome">
                      {OUTCOME_TEXT[a.outcome]}
                    </span>
                  </td>
                  <td className="num">
                    {formatDuration(a.durationMs)}
                    {a.waitMs !== undefined && (
                      <span className="hint" title="Time the call waited for your decision">
                        {' '}
                        (+ {formatDuration(a.waitMs)} waiting)
                      </span>
                    )}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="small"
                      aria-expanded={open === a.id}
                      aria-controls={`${id}-d${a.id}`}
                      aria-label={`Details of ${a.tool} at ${formatDateTime(a.at)}`}
                      onClick={() => setOpen(open === a.id ? null : a.id)}
                      data-testid="activity-details"
                    >
                      {open === a.id ? 'Hide' : 'Details'}
                    </button>
                  </td>
                </tr>
                {open === a.id && (
                  <tr className="detail-row" id={`${id}-d${a.id}`}>
                    <td colSpan={7}>
                      <ActivityDetail item={a} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
      {more && (
        <div className="actions">
          <button
            type="button"
            onClick={() => load(items?.[items.length - 1]?.id)}
            data-testid="activity-more"
          >
            Load more
          </button>
        </div>
      )}
    </section>
  );
}

const uniq = (xs: string[]) => [...new Set(xs.filter(Boolean))].sort((a, b) => a.localeCompare(b));
