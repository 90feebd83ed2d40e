import type { ActivityView } from '../../../../common/contract';

export type DecisionFilter = ActivityView['decision'] | '';
export type OutcomeFilter = ActivityView['outcome'] | '';

export interface ActivityFilters {
  agent: string;
  tool: string;
  decision: DecisionFilter;
  outcome: OutcomeFilter;
}

export const NO_FILTERS: ActivityFilters = { agent: '', tool: '', decision: '', outcome: '' };

export const DECISION_TEXT: Record<ActivityView['decision'], string> = {
  auto: 'Ran freely',
  approved: 'Approved',
  grant: 'Allowed by a grant',
  denied: 'Denied',
  expired: 'Expired',
  withdrawn: 'Withdrawn',
  waiting: 'Waiting',
  rejected: 'Rejected',
  paused: 'Paused',
};

export const OUTCOME_TEXT: Record<ActivityView['outcome'], string> = {
  ok: 'OK',
  error: 'Error',
  pending: 'Pending',
  unknown: 'Unknown',
  not_run: 'Not run',
};

/** How a human decision was made (issue 16 item 5: once / grant / edited / paused look different). */
export const KIND_TEXT: Record<string, string> = {
  once: 'allowed once',
  edited: 'allowed with edits',
  grant: 'under a grant',
  denied: 'denied',
  expired: 'nobody decided',
  withdrawn: 'the agent withdrew',
  paused: 'paused',
};

/** The decision column's words, including the kind and grant events. */
export function decisionText(a: ActivityView): string {
  if (a.event === 'grant.created') return 'Grant made';
  if (a.event === 'grant.revoked') return 'Grant revoked';
  const base = DECISION_TEXT[a.decision];
  const kind = a.decisionKind && a.decision === 'approved' ? KIND_TEXT[a.decisionKind] : undefined;
  return kind ? `${base} (${kind})` : base;
}

/** The server filters by agent and tool; decision and outcome are narrowed here. */
export function matches(a: ActivityView, f: ActivityFilters): boolean {
  return (
    (!f.agent || a.agent === f.agent) &&
    (!f.tool || a.tool === f.tool) &&
    (!f.decision || a.decision === f.decision) &&
    (!f.outcome || a.outcome === f.outcome)
  );
}

/** Newest first, one row per id (an event and a fetch may both bring the same row). */
export function mergeActivity(current: ActivityView[], incoming: ActivityView[]): ActivityView[] {
  const byId = new Map<number, ActivityView>();
  for (const a of current) byId.set(a.id, a);
  for (const a of incoming) byId.set(a.id, a);
  return [...byId.values()].sort((x, y) => y.id - x.id);
}

const COLUMNS = [
  'id',
  'at',
  'agent',
  'tool',
  'decision',
  'outcome',
  'durationMs',
  'waitMs',
  'decisionKind',
  'grantId',
  'event',
  'approvalId',
  'argsDigest',
  'detail',
] as const;

/**
 * RFC 4180 CSV (CRLF, quoted when needed). A text cell that a spreadsheet
 * would run as a formula (=, +, -, @, tab, CR first; OWASP "CSV injection")
 * gets a leading apostrophe: tool names and error details come from agents
 * and remote servers.
 */
export function toCsv(rows: ActivityView[]): string {
  const cell = (v: unknown): string => {
    if (v === undefined || v === null) return '';
    let s = String(v);
    if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [COLUMNS.join(',')];
  for (const r of rows) lines.push(COLUMNS.map((c) => cell(r[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}

export function toJson(rows: ActivityView[]): string {
  return JSON.stringify(rows, null, 2) + '\n';
}

/** airlock-activity-2026-05-01T10-02-03.csv */
export function exportName(ext: 'csv' | 'json', now = new Date()): string {
  return `airlock-activity-${now.toISOString().slice(0, 19).replace(/:/g, '-')}.${ext}`;
}
