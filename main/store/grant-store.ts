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
  uses: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** "Always allow" grants (issue 16 item 2), durable beside the approvals they came from. */
export class GrantStore {
  constructor(private readonly db: Db) {}

  insert(g: Omit<GrantRow, 'uses' | 'lastUsedAt' | 'revokedAt'>): void {
    this.db
      .prepare(
        `INSERT INTO grants (id, agent, tool_key, tool, created_at, expires_at, constraint_json, policy_fingerprint, approval_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      );
  }

  get(id: string): GrantRow | undefined {
    const raw = this.db.prepare('SELECT * FROM grants WHERE id = ?').get(id) as Raw | undefined;
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
      ? this.db.prepare('SELECT * FROM grants WHERE agent = ? ORDER BY created_at DESC').all(agent)
      : this.db.prepare('SELECT * FROM grants ORDER BY created_at DESC').all();
    return (rows as Raw[]).map(fromRaw);
  }

  used(id: string, at: number): void {
    this.db.prepare('UPDATE grants SET uses = uses + 1, last_used_at = ? WHERE id = ?').run(at, id);
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
    uses: r.uses,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  };
}
