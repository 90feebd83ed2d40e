import type { Upstream } from '../upstream/upstream.js';

/**
 * One upstream session per agent for stateful servers (issue 14, item 4):
 * a 2025 server keeps per-session state (logging level, subscriptions,
 * roots, simulated streams), so two agents sharing one session would see
 * each other's. Sessions open on an agent's first call or read, are bounded
 * (the least recently used idle one closes first), and close when the
 * agent's last Airlock session ends or the server goes down. A session that
 * holds nothing for its agent (no log level, no subscription — e.g. a
 * 2026-07-28 agent's, which has no Airlock session to end) also closes after
 * `idleMs` unused; the next request opens a new one.
 */
export class AgentSessions {
  /** `order` ranks recency (a counter: many uses share a millisecond); `at` is the last use's time. */
  private readonly byAgent = new Map<
    string,
    { up: Promise<Upstream>; order: number; at: number; open?: Upstream }
  >();
  private tick = 0;
  private readonly busy = new Map<Upstream, number>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly connect: (agent: string) => Promise<Upstream>,
    private readonly max: number,
    private readonly idle: { ms: number; keep: (agent: string) => boolean } = {
      ms: 15 * 60_000,
      keep: () => false,
    },
  ) {}

  /** The agent's session, opened if needed. */
  get(agent: string): Promise<Upstream> {
    const found = this.byAgent.get(agent);
    if (found) {
      found.order = ++this.tick;
      found.at = Date.now();
      return found.up;
    }
    const up = this.connect(agent);
    const entry: { up: Promise<Upstream>; order: number; at: number; open?: Upstream } = {
      up,
      order: ++this.tick,
      at: Date.now(),
    };
    this.byAgent.set(agent, entry);
    void up.then((u) => (entry.open = u)).catch(() => {});
    // A failed connect is forgotten, so the next request tries again.
    up.catch(() => this.byAgent.get(agent) === entry && this.byAgent.delete(agent));
    void this.trim();
    this.sweeper ??= setInterval(() => void this.sweep(), Math.min(this.idle.ms, 60_000));
    this.sweeper.unref();
    return up;
  }

  /**
   * `get`'s session without a promise where it is open now: the same session, counted as a use
   * as `get` counts it; undefined (then `get`) while none is open (issue 34: an everyday call's
   * lookup awaited an async function and a catch for a session already in hand).
   */
  openUse(agent: string): Upstream | undefined {
    const found = this.byAgent.get(agent);
    if (found?.open === undefined) return undefined;
    found.order = ++this.tick;
    found.at = Date.now();
    return found.open;
  }

  /** The agent's session if it is open now (connected and not closed since), without opening one. */
  openNow(agent: string): Upstream | undefined {
    return this.byAgent.get(agent)?.open;
  }

  /** The agent's session, open or opening, without opening one or counting as a use. */
  current(agent: string): Promise<Upstream> | undefined {
    return this.byAgent.get(agent)?.up;
  }

  agents(): string[] {
    return [...this.byAgent.keys()];
  }

  /** Runs a request on the session, keeping it open meanwhile. */
  async use<T>(up: Upstream, run: () => Promise<T>): Promise<T> {
    this.busy.set(up, (this.busy.get(up) ?? 0) + 1);
    try {
      return await run();
    } finally {
      const n = (this.busy.get(up) ?? 1) - 1;
      if (n === 0) this.busy.delete(up);
      else this.busy.set(up, n);
    }
  }

  /** Forgets a session that failed (the next request opens a new one) and closes it. */
  async drop(up: Upstream): Promise<void> {
    for (const [agent, e] of this.byAgent)
      if ((await e.up.catch(() => null)) === up) this.byAgent.delete(agent);
    await up.close();
  }

  async release(agent: string): Promise<void> {
    const e = this.byAgent.get(agent);
    if (!e) return;
    this.byAgent.delete(agent);
    const up = await e.up.catch(() => null);
    await up?.close();
  }

  async closeAll(): Promise<void> {
    const all = [...this.byAgent.values()];
    this.byAgent.clear();
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    await Promise.all(all.map(async (e) => (await e.up.catch(() => null))?.close()));
  }

  /** Closes sessions unused for idle.ms whose agent keeps nothing there (public for tests). */
  async sweep(now = Date.now()): Promise<void> {
    const cutoff = now - this.idle.ms;
    for (const [agent, e] of [...this.byAgent]) {
      if (e.at > cutoff || this.idle.keep(agent)) continue;
      const up = await e.up.catch(() => null);
      if (up && !this.busy.has(up) && this.byAgent.get(agent) === e) await this.release(agent);
    }
  }

  private async trim(): Promise<void> {
    if (this.byAgent.size <= this.max) return;
    const idle: { agent: string; order: number; up: Upstream }[] = [];
    for (const [agent, e] of this.byAgent) {
      const up = await e.up.catch(() => null);
      if (up && !this.busy.has(up)) idle.push({ agent, order: e.order, up });
    }
    idle.sort((a, b) => a.order - b.order);
    for (const victim of idle.slice(0, this.byAgent.size - this.max))
      await this.release(victim.agent);
  }
}
