import { useId } from 'react';
import {
  DECISION_TEXT,
  NO_FILTERS,
  OUTCOME_TEXT,
  type ActivityFilters,
  type DecisionFilter,
  type OutcomeFilter,
} from './activity-model';

interface Props {
  filters: ActivityFilters;
  onChange: (f: ActivityFilters) => void;
  agents: string[];
  tools: string[];
}

export function ActivityFiltersBar({ filters, onChange, agents, tools }: Props) {
  const id = useId();
  const set = (patch: Partial<ActivityFilters>) => onChange({ ...filters, ...patch });
  const any = filters.agent || filters.tool || filters.decision || filters.outcome;
  return (
    <div className="toolbar" role="group" aria-label="Filters">
      <div className="field">
        <label htmlFor={`${id}-agent`}>Agent</label>
        <select
          id={`${id}-agent`}
          value={filters.agent}
          onChange={(e) => set({ agent: e.target.value })}
          data-testid="filter-agent"
        >
          <option value="">All agents</option>
          {agents.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-tool`}>Tool</label>
        <select
          id={`${id}-tool`}
          value={filters.tool}
          onChange={(e) => set({ tool: e.target.value })}
          data-testid="filter-tool"
        >
          <option value="">All tools</option>
          {tools.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-decision`}>Decision</label>
        <select
          id={`${id}-decision`}
          value={filters.decision}
          onChange={(e) => set({ decision: e.target.value as DecisionFilter })}
          data-testid="filter-decision"
        >
          <option value="">Any decision</option>
          {Object.entries(DECISION_TEXT).map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-outcome`}>Outcome</label>
        <select
          id={`${id}-outcome`}
          value={filters.outcome}
          onChange={(e) => set({ outcome: e.target.value as OutcomeFilter })}
          data-testid="filter-outcome"
        >
          <option value="">Any outcome</option>
          {Object.entries(OUTCOME_TEXT).map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="field end">
        <button
          type="button"
          onClick={() => onChange(NO_FILTERS)}
          disabled={!any}
          data-testid="filter-clear"
        >
          Clear filters
        </button>
      </div>
    </div>
  );
}
