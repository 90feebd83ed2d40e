import { randomUUID } from 'node:crypto';
import type { GrantConstraint, GrantView } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import type { ActivityLog } from '../store/activity.js';
import type { GrantRow, GrantStore } from '../store/grant-store.js';
import type { GrantShape } from '../tools/types.js';
import { checkConstraint } from './constraint.js';
import type { FingerprintForm } from './policy.js';
import { approvedRecipients, describeScope, fitsScope, grantRecord } from './grant-scope.js';

export interface GrantServiceDeps {
  store: GrantStore;
  activity: ActivityLog;
  /**
   * The tool's definition and policy for this agent, as a hash; null when the
   * tool is gone. A grant applies only while it is what it was when made.
   * `form` 'legacy': as hashed before (policy.ts FingerprintForm), for a grant made then.
   */
  fingerprint: (agent: string, toolKey: string, form?: FingerprintForm) => string | null;
  /** How the tool reads its own arguments (issue 27 item 1); undefined for third-party tools. */
  shape?: (toolKey: string) => GrantShape | undefined;
  /** Told after any change, so views refresh. */
  changed?: () => void;
  now?: () => number;
}

export interface NewGrant {
  agent: string;
  toolKey: string;
  tool: string;
  args: Record<string, unknown>;
  hours?: number;
  until?: string;
  constraint?: unknown;
  approvalId?: string;
  includeTainted?: boolean;
}

/** The longest a grant may last, however it is asked for: `hours` or `until` (issue 27 item 5). */
export const MAX_HOURS = 24 * 365;
const MAX_MS = MAX_HOURS * 3_600_000;

/**
 * "Always allow" as a grant the user sees and shapes (issue 16 item 2): for
 * one agent, for a time or until revoked, optionally only for arguments that
 * fit a constraint; bound to the tool's definition and policy at the time.
 * Creation, each use and revocation are in Activity.
 */
export class GrantService {
  private readonly now: () => number;

  constructor(private readonly deps: GrantServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  create(g: NewGrant): GrantRow {
    const fingerprint = this.deps.fingerprint(g.agent, g.toolKey);
    if (!fingerprint) throw new ControlError('NOT_FOUND', `${g.tool} is no longer available.`);
    const now = this.now();
    let expiresAt: number | null = null;
    if (g.hours !== undefined) {
      if (typeof g.hours !== 'number' || !(g.hours > 0) || g.hours > MAX_HOURS)
        throw new ControlError('INVALID', `"hours" must be a number between 0 and ${MAX_HOURS}.`);
      expiresAt = now + Math.round(g.hours * 3_600_000);
    } else if (g.until !== undefined) {
      const t =
        typeof g.until === 'string' && /^\d{4}-\d{2}-\d{2}/.test(g.until)
          ? Date.parse(g.until)
          : NaN;
      if (Number.isNaN(t)) throw new ControlError('INVALID', '"until" must be an ISO date-time.');
      if (t <= now || t > now + MAX_MS)
        throw new ControlError(
          'INVALID',
          `"until" must be in the future and at most a year (${MAX_HOURS} hours) from now.`,
        );
      expiresAt = t;
    }
    const shape = this.deps.shape?.(g.toolKey);
    const constraint: GrantConstraint | null =
      g.constraint === undefined || g.constraint === null
        ? null
        : checkConstraint(g.constraint, g.args, shape);
    const row: GrantRow = {
      id: randomUUID(),
      agent: g.agent,
      toolKey: g.toolKey,
      tool: g.tool,
      createdAt: now,
      expiresAt,
      constraint,
      fingerprint,
      approvalId: g.approvalId ?? null,
      uses: 0,
      lastUsedAt: null,
      revokedAt: null,
      includeTainted: g.includeTainted === true,
      fixed: constraint ? recordOf(g, constraint, shape) : null,
    };
    this.deps.store.insert(row);
    this.logGrant('grant.created', row, this.describe(row));
    this.deps.changed?.();
    return row;
  }

  /** The grant that lets this call run without asking, if any. */
  match(agent: string, toolKey: string, args: Record<string, unknown>): GrantRow | null {
    const live = this.deps.store.live(agent, toolKey);
    if (live.length === 0) return null;
    const holds = this.holds(agent, toolKey);
    const now = this.now();
    const shape = this.deps.shape?.(toolKey);
    return (
      live.find(
        (g) =>
          holds(g) &&
          (g.expiresAt === null || g.expiresAt > now) &&
          (!g.constraint || fitsScope({ constraint: g.constraint, fixed: g.fixed }, args, shape)),
      ) ?? null
    );
  }

  /**
   * Whether a grant's stored fingerprint is the tool's now: in the current form, or in the legacy
   * one for a grant made before the form changed (policy.ts FingerprintForm) on a tool listed as
   * it was then — an upgrade keeps existing grants. The legacy hash is taken only when needed.
   * A grant found to hold in the legacy form is stored in the current one from then on: the tool
   * is the very definition the user granted, and its current form is what a grant made on it now
   * would hold — so the grant, too, keeps through a later relisting with its sets in another
   * order, which in the legacy form would have ended it (review of the fingerprint form).
   */
  private holds(agent: string, toolKey: string): (g: GrantRow) => boolean {
    const current = this.deps.fingerprint(agent, toolKey);
    let legacy: string | null | undefined;
    return (g) => {
      if (current === null) return false;
      if (g.fingerprint === current) return true;
      if (legacy === undefined) legacy = this.deps.fingerprint(agent, toolKey, 'legacy');
      if (g.fingerprint !== legacy) return false;
      this.deps.store.refingerprint(g.id, g.fingerprint, current);
      return true;
    };
  }

  list(filter: { agent?: string; includeInactive?: boolean } = {}): GrantView[] {
    this.deps.activity.flush(); // uses are counted from Activity
    const views = this.deps.store.list(filter.agent).map((g) => this.view(g));
    return filter.includeInactive ? views : views.filter((v) => v.active);
  }

  revoke(id: string): GrantView {
    this.deps.activity.flush();
    const g = typeof id === 'string' ? this.deps.store.get(id) : undefined;
    if (!g) throw new ControlError('NOT_FOUND', `No grant ${String(id)}.`);
    if (this.deps.store.revoke(id, this.now())) {
      this.logGrant('grant.revoked', g, `Revoked: ${this.describe(g)}`);
      this.deps.changed?.();
    }
    return this.view(this.deps.store.get(id)!);
  }

  /** A grant made or revoked, as a row of Activity written at once. */
  private logGrant(event: 'grant.created' | 'grant.revoked', g: GrantRow, detail: string): void {
    this.deps.activity.addNow({
      event,
      agent: g.agent,
      tool: g.tool,
      decision: 'grant',
      outcome: 'ok',
      durationMs: 0,
      argsDigest: '',
      grantId: g.id,
      detail,
    });
  }

  /** Revokes every grant of an agent (for one tool, or all), e.g. when the tool goes back to asking. */
  revokeFor(agent: string, toolKey: string | null): void {
    for (const g of this.deps.store.list(agent))
      if (g.revokedAt === null && (!toolKey || g.toolKey === toolKey)) this.revoke(g.id);
  }

  /** Active, unconstrained grant of a tool for an agent (the Tools page's "always allowed"). */
  openGrant(agent: string, toolKey: string): GrantRow | null {
    const g = this.match(agent, toolKey, {});
    return g && !g.constraint ? g : null;
  }

  view(g: GrantRow): GrantView {
    const now = this.now();
    const shape = this.deps.shape?.(g.toolKey);
    let inactiveReason: string | undefined;
    if (g.revokedAt !== null) inactiveReason = 'revoked';
    else if (g.expiresAt !== null && g.expiresAt <= now) inactiveReason = 'expired';
    else if (!this.holds(g.agent, g.toolKey)(g))
      inactiveReason = 'the tool, its server or its policy changed since it was made';
    else if (g.constraint && g.fixed === null)
      inactiveReason = 'it was made before Airlock checked every argument of a scoped grant';
    else if (g.constraint && shape?.recipientsFromState && !approvedRecipients(g.fixed, shape))
      inactiveReason = 'it was made before Airlock kept the recipients you approved';
    return {
      id: g.id,
      agent: g.agent,
      tool: g.tool,
      toolKey: g.toolKey,
      createdAt: iso(g.createdAt),
      ...(g.expiresAt !== null ? { expiresAt: iso(g.expiresAt) } : {}),
      ...(g.constraint
        ? {
            constraint: g.constraint,
            scope: describeScope(
              g.constraint,
              shape,
              approvedRecipients(g.fixed, shape)?.recipients,
            ),
          }
        : {}),
      ...(g.approvalId ? { approvalId: g.approvalId } : {}),
      uses: g.uses,
      ...(g.lastUsedAt !== null ? { lastUsedAt: iso(g.lastUsedAt) } : {}),
      ...(g.revokedAt !== null ? { revokedAt: iso(g.revokedAt) } : {}),
      active: inactiveReason === undefined,
      ...(inactiveReason ? { inactiveReason } : {}),
      ...(g.includeTainted ? { includeTainted: true } : {}),
    };
  }

  private describe(g: GrantRow): string {
    let scope = '';
    if (g.constraint) {
      const shape = this.deps.shape?.(g.toolKey);
      const approved = approvedRecipients(g.fixed, shape)?.recipients;
      const { lead, tail } = describeScope(g.constraint, shape, approved);
      const value = g.constraint.op === 'equals' ? ` ${JSON.stringify(g.constraint.value)}` : '';
      scope = `, ${lead}${value}${tail}`;
    }
    const until = g.expiresAt !== null ? ` until ${iso(g.expiresAt)}` : ' until revoked';
    return `${g.tool} runs without asking for ${g.agent}${until}${scope}.`;
  }
}

/** What the grant stores; a tool whose recipients the approved call's state names must name some. */
function recordOf(g: NewGrant, c: GrantConstraint, shape: GrantShape | undefined): string {
  try {
    return grantRecord(g.args, c, shape);
  } catch {
    throw new ControlError(
      'INVALID',
      `Airlock could not read whom this ${g.tool} call sends to, so a grant could not be held to them; allow it once instead.`,
    );
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
