import type { ApprovalState, DecisionKind, TaintView } from '../../common/contract/index.js';
import type { CallToolResult } from '../tools/types.js';
import type { Db } from './db.js';

export interface ApprovalRow {
  id: string;
  callKey: string;
  agent: string;
  toolKey: string;
  tool: string;
  args: Record<string, unknown>;
  effect: string;
  state: ApprovalState;
  createdAt: number;
  expiresAt: number;
  decidedAt: number | null;
  finishedAt: number | null;
  reason: string | null;
  editedArgs: Record<string, unknown> | null;
  result: CallToolResult | null;
  decisionKind: DecisionKind | null;
  grantId: string | null;
  /** When the last waiting call of the agent went away (null while one waits). */
  agentLeftAt: number | null;
  /** When the approved call started running (run time is measured from here). */
  startedAt: number | null;
  /** Why Airlock flagged the call (issue 22); null when it did not. */
  taint: TaintView | null;
  /**
   * What the card was made against (approvals/engine.ts): the tool's whole definition and what
   * this call runs, as hashes; null for a tool gone at the time; absent where no hash was taken
   * (and for requests stored before this was kept).
   */
  shown?: ShownBinding | null;
}

export interface ShownBinding {
  tool?: string | null;
  runs?: string | null;
}

type Mutable =
  | 'decidedAt'
  | 'finishedAt'
  | 'reason'
  | 'editedArgs'
  | 'result'
  | 'decisionKind'
  | 'grantId'
  | 'startedAt';

interface RawRow {
  id: string;
  call_key: string;
  agent: string;
  tool_key: string;
  tool: string;
  args_json: string;
  effect: string;
  state: ApprovalState;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
  finished_at: number | null;
  reason: string | null;
  edited_args_json: string | null;
  result_json: string | null;
  decision_kind: DecisionKind | null;
  grant_id: string | null;
  taint_json: string | null;
  agent_left_at: number | null;
  started_at: number | null;
  shown_json: string | null;
}

const LIVE: ApprovalState[] = ['pending', 'approved', 'executing'];
const FINISHED: ApprovalState[] = ['done', 'failed', 'unknown', 'denied'];

/**
 * Durable approval requests. Every state change is a guarded UPDATE
 * (`WHERE state IN (...)`), so two racing decisions cannot both win and a
 * request can move to `executing` exactly once.
 */
export class ApprovalStore {
  constructor(private readonly db: Db) {}

  insert(row: Omit<ApprovalRow, Mutable | 'agentLeftAt'>): void {
    this.db
      .prepare(
        `INSERT INTO approvals (id, call_key, agent, tool_key, tool, args_json, effect, state, created_at, expires_at, taint_json, shown_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.id,
        row.callKey,
        row.agent,
        row.toolKey,
        row.tool,
        JSON.stringify(row.args),
        row.effect,
        row.state,
        row.createdAt,
        row.expiresAt,
        row.taint ? JSON.stringify(row.taint) : null,
        row.shown ? JSON.stringify(row.shown) : null,
      );
  }

  get(id: string): ApprovalRow | undefined {
    const raw = this.db.prepare('SELECT * FROM approvals WHERE id = ?').get(id) as
      RawRow | undefined;
    return raw && fromRaw(raw);
  }

  /** The request a repeat of this call attaches to: live, or finished within the window. */
  findForRepeat(callKey: string, finishedSince: number): ApprovalRow | undefined {
    const raw = this.db
      .prepare(
        `SELECT * FROM approvals WHERE call_key = ?
           AND (state IN (${LIVE.map(() => '?').join(',')})
                OR (state IN (${FINISHED.map(() => '?').join(',')}) AND COALESCE(finished_at, decided_at) >= ?))
         ORDER BY created_at DESC LIMIT 1`,
      )
      .get(callKey, ...LIVE, ...FINISHED, finishedSince) as RawRow | undefined;
    return raw && fromRaw(raw);
  }

  /** How many requests `agent` has waiting, and the bytes of their arguments (per-agent budgets, issue 17.4). */
  pendingUsage(agent: string): { count: number; bytes: number } {
    const row = this.db
      .prepare(
        `SELECT COUNT(*) AS count, COALESCE(SUM(LENGTH(CAST(args_json AS BLOB))), 0) AS bytes
         FROM approvals WHERE state = 'pending' AND agent = ?`,
      )
      .get(agent) as { count: number; bytes: number };
    return { count: row.count, bytes: row.bytes };
  }

  listByState(states: ApprovalState[]): ApprovalRow[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM approvals WHERE state IN (${states.map(() => '?').join(',')}) ORDER BY created_at`,
      )
      .all(...states) as RawRow[];
    return rows.map(fromRaw);
  }

  /** Moves `id` from one of `from` to `to`; false when another writer got there first. */
  transition(
    id: string,
    from: ApprovalState[],
    to: ApprovalState,
    fields: Partial<Pick<ApprovalRow, Mutable>> = {},
  ): boolean {
    const sets = ['state = @to'];
    const params: Record<string, unknown> = { id, to };
    const columns = {
      decidedAt: 'decided_at',
      finishedAt: 'finished_at',
      reason: 'reason',
      editedArgs: 'edited_args_json',
      result: 'result_json',
      decisionKind: 'decision_kind',
      grantId: 'grant_id',
      startedAt: 'started_at',
    } as const;
    for (const [field, column] of Object.entries(columns) as [keyof typeof columns, string][]) {
      const value = fields[field];
      if (value === undefined) continue;
      sets.push(`${column} = @${field}`);
      params[field] = value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
    }
    from.forEach((s, i) => (params[`from${i}`] = s));
    const info = this.db
      .prepare(
        `UPDATE approvals SET ${sets.join(', ')} WHERE id = @id AND state IN (${from.map((_, i) => `@from${i}`).join(',')})`,
      )
      .run(params);
    return info.changes === 1;
  }

  /** Records whether an agent's call is waiting on the request (null: one is). */
  setAgentLeft(id: string, at: number | null): void {
    this.db.prepare('UPDATE approvals SET agent_left_at = ? WHERE id = ?').run(at, id);
  }

  /**
   * Detaches an agent's requests from future repeats (its name may be given to a new agent
   * later, which must not inherit stored outcomes); returns the ids still pending.
   */
  detachAgent(agent: string): string[] {
    this.db
      .prepare(
        `UPDATE approvals SET call_key = call_key || ':revoked' WHERE agent = ? AND call_key NOT LIKE '%:revoked'`,
      )
      .run(agent);
    return (
      this.db
        .prepare(`SELECT id FROM approvals WHERE agent = ? AND state = 'pending'`)
        .all(agent) as { id: string }[]
    ).map((r) => r.id);
  }

  /** Pending requests past their expiry; the caller transitions each one. */
  dueForExpiry(now: number): ApprovalRow[] {
    const rows = this.db
      .prepare(`SELECT * FROM approvals WHERE state = 'pending' AND expires_at <= ?`)
      .all(now) as RawRow[];
    return rows.map(fromRaw);
  }
}

function fromRaw(r: RawRow): ApprovalRow {
  return {
    id: r.id,
    callKey: r.call_key,
    agent: r.agent,
    toolKey: r.tool_key,
    tool: r.tool,
    args: JSON.parse(r.args_json) as Record<string, unknown>,
    effect: r.effect,
    state: r.state,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    decidedAt: r.decided_at,
    finishedAt: r.finished_at,
    reason: r.reason,
    editedArgs: r.edited_args_json
      ? (JSON.parse(r.edited_args_json) as Record<string, unknown>)
      : null,
    result: r.result_json ? (JSON.parse(r.result_json) as CallToolResult) : null,
    decisionKind: r.decision_kind,
    grantId: r.grant_id,
    agentLeftAt: r.agent_left_at,
    startedAt: r.started_at,
    taint: r.taint_json ? (JSON.parse(r.taint_json) as TaintView) : null,
    shown: r.shown_json ? (JSON.parse(r.shown_json) as ShownBinding) : null,
  };
}
