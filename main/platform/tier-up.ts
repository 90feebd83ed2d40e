import v8 from 'node:v8';
import { FREEZES_FLAGS, startedWith, startFlags } from './v8-flags.js';

/**
 * When V8 compiles `airlock serve`'s call path with its optimizing compiler (issue 34: added
 * latency against a JSON relay, CPU per call).
 *
 * V8 gives a function a budget of `--invocation-count-for-turbofan` (3,000 by default) times its
 * bytecode's length; each run spends what it executed, and at zero V8 decides whether to optimize
 * it (src/execution/tiering-manager.cc, `InterruptBudgetFor`). One whose inline caches changed
 * gets `--minimum-invocations-after-ic-update` (500) runs' budget more (`NotifyICChanged`), left
 * as it is: with the count at 200 a function first run after the change is marked after ≈ 510
 * runs instead of ≈ 3,010, on feedback as settled as V8 asks for (tier-up.test.ts reads both from
 * V8 itself). One already given its budget before keeps it until it is spent. Most of a call's
 * path in Airlock's own code runs once or twice a call, against several times a call for Node's
 * HTTP and stream internals that a relay is made of: so after a thousand calls Airlock's path was
 * still in baseline code while the relay's had long been optimized (docs/performance.md, "V8's
 * tier-up after start").
 *
 * Set after start-up, not as a launch flag: V8 reads the count each time it resets a function's
 * budget, so a change at run time applies from the next reset on. As a launch flag
 * the start-up's own loops were optimized too: CPU to ready 120 → 170 ms, cold start 130 → 149
 * ms, idle RSS 76 → 81 MiB (over the 80 MiB target).
 */
export const TURBOFAN_INVOCATIONS = 200;

/** V8's default (`node --v8-options`), put back by stop(). */
const V8_DEFAULT = 3000;

const FLAG = '--invocation-count-for-turbofan';

/**
 * Started with any of these, start() does nothing: the user's own count; no optimizing compiler
 * at all (where the lower count would only make V8 check its budget more often; `--lite-mode`
 * implies `--jitless`, V8's flag-definitions.h); flags frozen.
 */
const LEAVE_ALONE = [FLAG, '--jitless', '--lite-mode', '--no-opt', '--no-turbofan', FREEZES_FLAGS];

export interface TierUpOptions {
  /** Test hooks: V8's flag setter, and the flags the process was started with (v8-flags.ts). */
  setFlags?: (flags: string) => void;
  startFlags?: readonly string[];
}

/**
 * Lowers V8's optimization threshold once the gateway is ready to serve, and puts V8's default
 * back at stop. Leaves it alone when whoever started the process set the flag itself
 * (`node --invocation-count-for-turbofan=… bin/airlock.js serve`: theirs is the choice), turned
 * optimization off, or froze V8's flags (LEAVE_ALONE).
 */
export class EarlyTierUp {
  private readonly setFlags: (flags: string) => void;
  private readonly startFlags: readonly string[];
  private on = false;

  constructor(o: TierUpOptions = {}) {
    this.setFlags = o.setFlags ?? ((flags) => v8.setFlagsFromString(flags));
    this.startFlags = o.startFlags ?? startFlags();
  }

  /** True when the process was started with a flag that leaves V8 alone (LEAVE_ALONE). */
  get leftAlone(): boolean {
    return startedWith(LEAVE_ALONE, this.startFlags);
  }

  start(): void {
    if (this.on || this.leftAlone) return;
    this.on = true;
    this.setFlags(`${FLAG}=${TURBOFAN_INVOCATIONS}`);
  }

  stop(): void {
    if (!this.on) return;
    this.on = false;
    this.setFlags(`${FLAG}=${V8_DEFAULT}`);
  }
}
