import type { Upstream } from '../upstream/upstream.js';
import { RenewingMap } from '../../platform/renewing-map.js';

/** Why a call was cut off by Airlock (server down, session forgotten, stream broken). */
export class UpstreamLost extends Error {}

/**
 * The tool calls running on one remote server, each with the connection it runs on: a connection
 * that is lost cuts off its own calls, and one swapped out (retiring) closes only when its last
 * call has ended.
 */
export class InflightCalls {
  /**
   * Renewed (renewing-map.ts): the map lives as long as the server connection and takes a key a
   * call, so a plain Map's table, once in old space, pinned the calls in flight at each rehash
   * (issue 34, docs/performance.md "The rest of a call's promotion (wave 3 session 32)").
   */
  private readonly calls = new RenewingMap<AbortController, Upstream>();
  private readonly retiring = new Set<Upstream>();

  /** A call started on `up`; aborting `ac` cuts it off. */
  add(ac: AbortController, up: Upstream): void {
    this.calls.set(ac, up);
  }

  /** A call on `up` ended; a retiring `up` closes after its last one. */
  end(ac: AbortController, up: Upstream): void {
    this.calls.delete(ac);
    // Most calls end on a connection nobody retired: asked here, without a call (issue 34).
    if (this.retiring.has(up)) this.closeIfRetired(up);
  }

  /** Cuts off the calls running on `up`. */
  abortOn(up: Upstream, why: string): void {
    for (const [ac, u] of this.calls.entries()) if (u === up) ac.abort(new UpstreamLost(why));
  }

  /** Cuts off every call, except those running on `spared`. */
  abortAll(why: string, spared?: Upstream | null): void {
    for (const [ac, u] of this.calls.entries()) if (u !== spared) ac.abort(new UpstreamLost(why));
  }

  /** A swapped-out connection: it closes once no call runs on it. */
  retire(old: Upstream): void {
    this.retiring.add(old);
    this.closeIfRetired(old);
  }

  /** The retiring connections, forgotten here: the caller closes them. */
  takeRetiring(): Upstream[] {
    const all = [...this.retiring];
    this.retiring.clear();
    return all;
  }

  private closeIfRetired(up: Upstream): void {
    if (!this.retiring.has(up) || [...this.calls.values()].includes(up)) return;
    this.retiring.delete(up);
    void up.close();
  }
}
