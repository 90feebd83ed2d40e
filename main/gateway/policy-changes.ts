import { randomUUID } from 'node:crypto';
import { ControlError, type PolicyChangeView } from '../../common/contract/index.js';
import type { CoreEvents } from '../platform/events.js';

interface Change {
  view: PolicyChangeView;
  apply: () => Promise<unknown>;
  waiters: Set<() => void>;
  /** The agent the change is for, by name (failFor): a new agent given the name inherits nothing. */
  agent?: string;
}

/** How long a pending change waits for the user; how long one wait call holds. */
const EXPIRE_MS = 10 * 60_000;
const WAIT_MS = 25_000;
/** Pending changes kept at once: a flood of requests cannot grow this without bound. */
const MAX_PENDING = 50;

/**
 * Loosening changes asked for from outside Airlock's window, waiting for the
 * user (issue 17, item 7: `airlock tools set X --approval auto` used to work
 * unattended, from any agent with a shell). The window confirms or rejects;
 * the caller waits (`waitPolicyChange`). Kept in memory: a restart drops
 * them, and the caller is told to ask again.
 */
export class PolicyChanges {
  private readonly changes = new Map<string, Change>();

  constructor(
    private readonly events: CoreEvents,
    private readonly now: () => number = Date.now,
  ) {}

  propose(summary: string, apply: () => Promise<unknown>, agent?: string): PolicyChangeView {
    this.expireDue();
    const pending = [...this.changes.values()].filter((c) => c.view.state === 'pending');
    if (pending.length >= MAX_PENDING)
      throw new ControlError(
        'CONFLICT',
        `${pending.length} policy changes already wait for confirmation in Airlock's window; decide those first.`,
      );
    const at = this.now();
    const view: PolicyChangeView = {
      id: randomUUID(),
      summary,
      state: 'pending',
      requestedAt: new Date(at).toISOString(),
      expiresAt: new Date(at + EXPIRE_MS).toISOString(),
    };
    this.changes.set(view.id, {
      view,
      apply,
      waiters: new Set(),
      ...(agent !== undefined ? { agent } : {}),
    });
    this.events.emit({ type: 'policy.change', change: view });
    return view;
  }

  list(): PolicyChangeView[] {
    this.expireDue();
    return [...this.changes.values()].map((c) => c.view).filter((v) => v.state === 'pending');
  }

  /**
   * The agent was revoked: its changes still waiting fail, saying why. They name it by name, and
   * an agent added later under that name must inherit nothing (revoke.security.test.ts), not a
   * grant, tool or policy the revoked one asked for (loosening-grant-agent.security.test.ts).
   */
  failFor(agent: string, error: string): void {
    for (const c of this.changes.values())
      if (c.agent === agent && c.view.state === 'pending')
        this.settle(c, { state: 'failed', error });
  }

  async decide(id: string, confirm: boolean): Promise<PolicyChangeView> {
    this.expireDue();
    const change = this.must(id);
    if (change.view.state !== 'pending')
      throw new ControlError('CONFLICT', `This change is already ${change.view.state}.`);
    if (!confirm) return this.settle(change, { state: 'rejected' });
    change.view = { ...change.view, state: 'confirmed' };
    try {
      await change.apply();
      return this.settle(change, { state: 'confirmed' });
    } catch (err) {
      return this.settle(change, {
        state: 'failed',
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }

  async wait(id: string): Promise<PolicyChangeView> {
    this.expireDue();
    const change = this.must(id);
    if (change.view.state !== 'pending') return change.view;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(
        done,
        Math.min(WAIT_MS, Date.parse(change.view.expiresAt) - this.now()),
      );
      function done() {
        clearTimeout(timer);
        change.waiters.delete(done);
        resolve();
      }
      change.waiters.add(done);
    });
    this.expireDue();
    return change.view;
  }

  private settle(change: Change, patch: Partial<PolicyChangeView>): PolicyChangeView {
    change.view = { ...change.view, ...patch };
    for (const w of [...change.waiters]) w();
    this.events.emit({ type: 'policy.change', change: change.view });
    return change.view;
  }

  private must(id: string): Change {
    const change = typeof id === 'string' ? this.changes.get(id) : undefined;
    if (!change)
      throw new ControlError(
        'NOT_FOUND',
        `No policy change ${String(id)} (Airlock may have restarted); ask for it again.`,
      );
    return change;
  }

  private expireDue(): void {
    const now = this.now();
    for (const [id, c] of this.changes) {
      const expires = Date.parse(c.view.expiresAt);
      if (c.view.state === 'pending' && expires <= now) this.settle(c, { state: 'expired' });
      // Decided changes are kept a while so a waiting caller can read the outcome.
      else if (c.view.state !== 'pending' && expires + EXPIRE_MS <= now) this.changes.delete(id);
    }
  }
}
