import type { ActivityFilter, ActivityView } from '../../common/contract/index.js';
import type { Db } from './db.js';

export type NewActivity = Omit<ActivityView, 'id' | 'at'> & { at?: string };

interface Row {
  id: number;
  at: string;
  agent: string;
  tool: string;
  decision: ActivityView['decision'];
  outcome: ActivityView['outcome'];
  duration_ms: number;
  args_digest: string;
  approval_id: string | null;
  detail: string | null;
}

/** The activity log: one row per tool call. Holds a digest of the arguments, never the arguments. */
export class ActivityLog {
  private readonly insertStmt;

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO activity (at, agent, tool, decision, outcome, duration_ms, args_digest, approval_id, detail)
       VALUES (@at, @agent, @tool, @decision, @outcome, @durationMs, @argsDigest, @approvalId, @detail)`,
    );
  }

  add(entry: NewActivity): ActivityView {
    const at = entry.at ?? new Date().toISOString();
    const row = {
      at,
      agent: entry.agent,
      tool: entry.tool,
      decision: entry.decision,
      outcome: entry.outcome,
      durationMs: Math.round(entry.durationMs),
      argsDigest: entry.argsDigest,
      approvalId: entry.approvalId ?? null,
      detail: entry.detail?.slice(0, 500) ?? null,
    };
    const info = this.insertStmt.run(row);
    return { ...entry, at, id: Number(info.lastInsertRowid), durationMs: row.durationMs };
  }

  list(filter: ActivityFilter = {}): ActivityView[] {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    for (const [field, clause] of [
      ['agent', 'agent = @agent'],
      ['tool', 'tool = @tool'],
      ['beforeId', 'id < @beforeId'],
    ] as const) {
      if (filter[field] === undefined || filter[field] === '') continue;
      where.push(clause);
      params[field] = filter[field];
    }
    const limit = Math.min(Math.max(filter.limit ?? 100, 1), 1000);
    const sql = `SELECT * FROM activity ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY id DESC LIMIT ${limit}`;
    return (this.db.prepare(sql).all(params) as Row[]).map(toView);
  }
}

function toView(r: Row): ActivityView {
  return {
    id: r.id,
    at: r.at,
    agent: r.agent,
    tool: r.tool,
    decision: r.decision,
    outcome: r.outcome,
    durationMs: r.duration_ms,
    argsDigest: r.args_digest,
    ...(r.approval_id ? { approvalId: r.approval_id } : {}),
    ...(r.detail ? { detail: r.detail } : {}),
  };
}
