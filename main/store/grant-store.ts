import type { GrantConstraint } from '../../common/contract/index.js';
import type { Db } from './db.js';

export interface GrantRow {
  id: string;
  agent: string;
  toolKey: string;
  tool: string;
  createdAt: number;
  expiresAt: number | null;
  constraint: GrantConstraint | null;
  /** The tool definition and policy it was made under (main/approvals/grants.ts). */
  fingerprint: string;
  approvalId: string | null;
  uses: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  /** Also covers calls flagged by the taint check (issue 22); off unless the user opted in. */
  includeTainted: boolean;
  /**
   * For a scoped grant: the approved call's arguments without those the grant lets vary, as
   * canonical JSON; a later call's must be equal (main/approvals/grant-scope.ts, issue 27).
   */
  fixed: string | null;
}

interface Raw {
  id: string;
  agent: string;
  tool_key: string;
  tool: string;
  created_at: number;
  expires_at: number | null;
  constraint_json: string | null;
  policy_fingerprint: string;
  approval_id: string | null;
  uses_count?: number;
  last_used: string | null;
  revoked_at: number | null;
  include_tainted: number;
  fixed_json: string | null;
}

/**
 * A grant with its uses counted from Activity (rows run under it), so running a call under a
 * grant writes nothing on the answer path beyond the queued Activity row (issue 20).
 */
const SELECT = `SELECT g.*,
  (SELECT COUNT(*) FROM activity a WHERE a.grant_id = g.id AND a.decision = 'grant' AND a.event IS NULL) AS uses_count,
  (SELECT MAX(a.at) FROM activity a WHERE a.grant_id = g.id AND a.decision = 'grant' AND a.event IS NULL) AS last_used
  FROM grants g`;

/** "Always allow" grants (issue 16 item 2), durable beside the approvals they came from. */
export class GrantStore {
  constructor(private readonly db: Db) {}

  insert(g: Omit<GrantRow, 'uses' | 'lastUsedAt' | 'revokedAt'>): void {
    this.db
      .prepare(
        `INSERT INTO grants (id, agent, tool_key, tool, created_at, expires_at, constraint_json, policy_fingerprint, approval_id, include_tainted, fixed_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        g.id,
        g.agent,
        g.toolKey,
        g.tool,
        g.createdAt,
        g.expiresAt,
        g.constraint ? JSON.stringify(g.constraint) : null,
        g.fingerprint,
        g.approvalId,
        g.includeTainted ? 1 : 0,
        g.fixed,
      );
  }

  get(id: string): GrantRow | undefined {
    const raw = this.db.prepare(`${SELECT} WHERE g.id = ?`).get(id) as Raw | undefined;
    return raw && fromRaw(raw);
  }

  /** Unrevoked grants of one agent for one tool; expiry and fingerprint are checked by the caller. */
  live(agent: string, toolKey: string): GrantRow[] {
    return (
      this.db
        .prepare(
          'SELECT * FROM grants WHERE agent = ? AND tool_key = ? AND revoked_at IS NULL ORDER BY created_at',
        )
        .all(agent, toolKey) as Raw[]
    ).map(fromRaw);
  }

  list(agent?: string): GrantRow[] {
    const rows = agent
      ? this.db.prepare(`${SELECT} WHERE g.agent = ? ORDER BY g.created_at DESC`).all(agent)
      : this.db.prepare(`${SELECT} ORDER BY g.created_at DESC`).all();
    return (rows as Raw[]).map(fromRaw);
  }

  /**
   * Writes a grant's fingerprint in another form, only while it still holds `from` (grants.ts:
   * a grant stored before the fingerprint form changed, found to hold on the tool as granted).
   */
  refingerprint(id: string, from: string, to: string): void {
    this.db
      .prepare('UPDATE grants SET policy_fingerprint = ? WHERE id = ? AND policy_fingerprint = ?')
      .run(to, id, from);
  }

  /** False when it was already revoked. */
  revoke(id: string, at: number): boolean {
    return (
      this.db
        .prepare('UPDATE grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
        .run(at, id).changes === 1
    );
  }

  revokeFor(agent: string, toolKey: string | null, at: number): GrantRow[] {
    const rows = (toolKey ? this.live(agent, toolKey) : this.list(agent)).filter(
      (g) => g.revokedAt === null,
    );
    for (const g of rows) this.revoke(g.id, at);
    return rows;
  }
}

function fromRaw(r: Raw): GrantRow {
  return {
    id: r.id,
    agent: r.agent,
    toolKey: r.tool_key,
    tool: r.tool,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    constraint: r.constraint_json ? (JSON.parse(r.constraint_json) as GrantConstraint) : null,
    fingerprint: r.policy_fingerprint,
    approvalId: r.approval_id,
    uses: r.uses_count ?? 0,
    lastUsedAt: r.last_used ? Date.parse(r.last_used) : null,
    revokedAt: r.revoked_at,
    includeTainted: r.include_tainted === 1,
    fixed: r.fixed_json ?? null,
  };
}
