import type { ActivityFilter, ActivityView } from '../../common/contract/index.js';
import type { Db } from './db.js';

export type NewActivity = Omit<ActivityView, 'id' | 'at'> & { at?: string };
/**
 * A queued row made when it is written (issue 34): what the row needs is captured at once, what
 * costs (the arguments' digest, the row object) is left to the flush, off the answer path. Must
 * not throw, and must give the same row whenever it runs.
 */
export type LateActivity = () => NewActivity & { at: string };
export type ActivityPatch = Partial<
  Pick<
    ActivityView,
    'decision' | 'outcome' | 'durationMs' | 'waitMs' | 'decisionKind' | 'grantId' | 'detail'
  >
>;

interface Row {
  id: number;
  at: string;
  agent: string;
  tool: string;
  decision: ActivityView['decision'];
  outcome: ActivityView['outcome'];
  duration_ms: number;
  wait_ms: number | null;
  args_digest: string;
  approval_id: string | null;
  decision_kind: string | null;
  grant_id: string | null;
  event: ActivityView['event'] | null;
  detail: string | null;
  taint: string | null;
}

export interface ActivityLogOptions {
  /** Told of every row written or changed (the core turns it into an event). */
  onChange?: (activity: ActivityView, kind: 'added' | 'updated') => void;
  /** Upper bound on how long a queued row waits before it is written (issue 20). */
  flushMs?: number;
}

const COLUMNS = {
  decision: 'decision',
  outcome: 'outcome',
  durationMs: 'duration_ms',
  waitMs: 'wait_ms',
  decisionKind: 'decision_kind',
  grantId: 'grant_id',
  detail: 'detail',
} as const;

/**
 * The activity log: one row per tool call, updated as the call moves through
 * its states (issue 16 item 5). Holds a digest of the arguments, never the
 * arguments.
 *
 * Two write paths (issue 20): rows that follow an approval's state are
 * written at once, in step with the approval itself (`addNow`, `updateByApproval`);
 * everything else (calls that ran freely, refusals) is queued (`add`) and
 * written in one transaction at most `flushMs` later, and on `close()`, so
 * the agent's answer never waits for the disk.
 */
export class ActivityLog {
  private readonly insertStmt;
  /**
   * One transaction over a batch, made once: better-sqlite3's `db.transaction(fn)` builds four
   * wrapped functions and defines their properties on every call (issue 34: ≈ 7 % of a flush's
   * time when it was made per flush). Calling it is what opens the transaction, as before.
   */
  private readonly insertBatch: (batch: NewActivity[]) => ActivityView[];
  private queue: (NewActivity | LateActivity)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly flushMs: number;

  constructor(
    private readonly db: Db,
    private readonly options: ActivityLogOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 50;
    // Positional parameters: better-sqlite3 binds named ones by looking each name up (issue 34:
    // ≈ 2 of the ≈ 12 µs a row costs in a batch).
    this.insertStmt = db.prepare(
      `INSERT INTO activity (at, agent, tool, decision, outcome, duration_ms, wait_ms, args_digest, approval_id, decision_kind, grant_id, event, detail, taint)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertBatch = db.transaction((batch: NewActivity[]) => {
      const written: ActivityView[] = [];
      for (const e of batch) written.push(this.insert(e, true));
      return written;
    });
  }

  /** Queues a row; it is written within `flushMs`. */
  add(entry: NewActivity): void {
    this.queue.push({ ...entry, at: entry.at ?? new Date().toISOString() });
    this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  /** Queues a row made when it is written (LateActivity): same place in the order, same window. */
  addLate(make: LateActivity): void {
    this.queue.push(make);
    this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  /** Writes a row now and returns it. */
  addNow(entry: NewActivity): ActivityView {
    // Queued rows go first, so ids keep the order in which things happened.
    this.flush();
    const view = this.insert(entry);
    this.options.onChange?.(view, 'added');
    return view;
  }

  /** Writes every queued row in one transaction. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length === 0) return;
    const queued = this.queue;
    this.queue = [];
    // A late row that breaks its promise not to throw costs that row only: thrown here, before
    // the queue was taken, it would stay queued and fail every flush after it, and with them
    // every approval's row (addNow) and the Activity page (list).
    // Indexed loops, not `for…of`: an iterator result per row (issue 34, wave 3 session 32).
    const batch: NewActivity[] = [];
    for (let i = 0; i < queued.length; i++) {
      const e = queued[i]!;
      if (typeof e !== 'function') batch.push(e);
      else
        try {
          batch.push(e());
        } catch {
          // that row only (above)
        }
    }
    const written = this.insertBatch(batch);
    for (let i = 0; i < written.length; i++) this.options.onChange?.(written[i]!, 'added');
  }

  close(): void {
    this.flush();
  }

  /** Moves the row(s) of an approval request along (the call's one row). */
  updateByApproval(approvalId: string, patch: ActivityPatch): ActivityView[] {
    const sets: string[] = [];
    const params: Record<string, unknown> = { approvalId };
    for (const [field, column] of Object.entries(COLUMNS) as [keyof ActivityPatch, string][]) {
      const value = patch[field];
      if (value === undefined) continue;
      sets.push(`${column} = @${field}`);
      params[field] =
        field === 'detail'
          ? String(value).slice(0, 500)
          : typeof value === 'number'
            ? Math.round(value)
            : value;
    }
    if (sets.length === 0) return [];
    this.db
      .prepare(`UPDATE activity SET ${sets.join(', ')} WHERE approval_id = @approvalId`)
      .run(params);
    const rows = (
      this.db.prepare('SELECT * FROM activity WHERE approval_id = ?').all(approvalId) as Row[]
    ).map(toView);
    for (const v of rows) this.options.onChange?.(v, 'updated');
    return rows;
  }

  list(filter: ActivityFilter = {}): ActivityView[] {
    this.flush();
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

  /**
   * `owned`: the entry is the log's own (a queued copy, or a late row made for it), so it becomes
   * the row's view itself rather than a copy of it (issue 34: one object less per call). Set in
   * the order the copy set them, its members come out in the same order.
   */
  private insert(entry: NewActivity, owned = false): ActivityView {
    const at = entry.at ?? new Date().toISOString();
    const durationMs = Math.round(entry.durationMs);
    const info = this.insertStmt.run(
      at,
      entry.agent,
      entry.tool,
      entry.decision,
      entry.outcome,
      durationMs,
      entry.waitMs === undefined ? null : Math.round(entry.waitMs),
      entry.argsDigest,
      entry.approvalId ?? null,
      entry.decisionKind ?? null,
      entry.grantId ?? null,
      entry.event ?? null,
      entry.detail?.slice(0, 500) ?? null,
      entry.taint?.slice(0, 1000) ?? null,
    );
    const id = Number(info.lastInsertRowid);
    if (!owned) return { ...entry, at, id, durationMs };
    const view = entry as ActivityView;
    view.at = at;
    view.id = id;
    view.durationMs = durationMs;
    return view;
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
    ...(r.wait_ms !== null ? { waitMs: r.wait_ms } : {}),
    argsDigest: r.args_digest,
    ...(r.approval_id ? { approvalId: r.approval_id } : {}),
    ...(r.decision_kind ? { decisionKind: r.decision_kind } : {}),
    ...(r.grant_id ? { grantId: r.grant_id } : {}),
    ...(r.event ? { event: r.event } : {}),
    ...(r.detail ? { detail: r.detail } : {}),
    ...(r.taint ? { taint: r.taint } : {}),
  };
}
