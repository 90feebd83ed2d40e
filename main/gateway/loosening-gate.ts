import type { ApprovalView, ControlApi, Decision } from '../../common/contract/index.js';
import type { RpcBody } from './control-dispatch.js';
import { looseningSummary, type ServerLoosening } from './loosening.js';
import type { PolicyChanges } from './policy-changes.js';

/**
 * Issue 17.7, for every transport of the control API (HTTP and the local
 * socket): loosening asked for by anything but Airlock's own window waits
 * for the user to confirm it there. Returns the answer when the call was
 * held (or refused), null when it may run as asked.
 */
export interface LooseningGateOptions {
  api: ControlApi;
  policyChanges: PolicyChanges;
  /** Judges server changes (remote/remote-loosening.ts, passed in by the app). */
  servers?: ServerLoosening;
  /** Makes the grant an "always allow" decision asked for (a confirmed policy change). */
  grant?: (approval: ApprovalView, decision: Extract<Decision, { kind: 'always_allow' }>) => void;
}

export class LooseningGate {
  constructor(private readonly o: LooseningGateOptions) {}

  /**
   * `fromWindow`: the caller is Airlock's own window (the headless page, as
   * judged by the transport). Any process with the control token could forge
   * what the HTTP transport judges by: docs/security.md says so.
   */
  async hold(
    method: string,
    params: unknown[],
    run: () => Promise<unknown>,
    fromWindow: boolean,
  ): Promise<{ status: number; body: RpcBody & Record<string, unknown> } | null> {
    if (fromWindow) return null;
    const changes = this.o.policyChanges;
    if (method === 'decidePolicyChange') {
      return {
        status: 403,
        body: {
          error: 'FORBIDDEN',
          message:
            "Policy changes are confirmed or rejected in Airlock's own window (the Tools page).",
        },
      };
    }
    if (method === 'decide' && isAlwaysAllow(params[1]) && this.o.grant) {
      // "Always allow" from outside the window: this call is allowed once now; the standing
      // grant waits for the user like any other loosening.
      const grant = this.o.grant;
      const decision = params[1] as Extract<Decision, { kind: 'always_allow' }>;
      const view = await this.o.api.decide(String(params[0]), { kind: 'allow_once' });
      const how = decision.hours
        ? ` for ${decision.hours} h`
        : decision.until
          ? ` until ${decision.until}`
          : ' until revoked';
      changes.propose(
        `always allow ${view.tool} for agent "${view.agent}"${how}${decision.constraint ? ' (for matching arguments)' : ''}${
          // Issue 22: a grant that also runs flagged calls is wider; the user confirms knowing it.
          decision.includeTainted === true ? ', calls Airlock flags included' : ''
        }`,
        async () => grant(view, decision),
      );
      return { status: 200, body: { result: view } };
    }
    const summary = await looseningSummary(this.o.api, method, params, this.o.servers);
    if (!summary) return null;
    const change = changes.propose(summary, run);
    return {
      status: 409,
      body: {
        error: 'CONFIRM_IN_WINDOW',
        message:
          `Waiting for you to confirm in Airlock's window (Tools page): ${summary}. ` +
          `Loosening a policy from outside the window needs your confirmation there. Change id: ${change.id}`,
        change,
      },
    };
  }
}

function isAlwaysAllow(d: unknown): d is { kind: 'always_allow'; until?: unknown } {
  return !!d && typeof d === 'object' && (d as { kind?: unknown }).kind === 'always_allow';
}
