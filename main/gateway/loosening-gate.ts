import {
  ControlError,
  type ApprovalView,
  type ControlApi,
  type Decision,
} from '../../common/contract/index.js';
import type { RpcBody } from './control-dispatch.js';
import { looseningSummary, refName, type ServerLoosening } from './loosening.js';
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
  /**
   * The tool a public name names now, read as setToolPolicy and setAgentTools read it (the
   * registry's own lookup), synchronously: no wait can fall between this check and the change's
   * reading (listTools would not do: it takes the registry, then waits up to 3 s for connecting
   * servers, during which a name can move). Its stable key and the server it reaches
   * (ToolSource.identity: a URL or command, the Google accounts): a key names a server by the
   * name the user gave it, and a server removed and another added under that name has the same
   * keys (loosening-server-swap.security.test.ts).
   */
  toolIdentity: (name: string) => string | undefined;
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
      // Refused as the window refuses it (shown-binding.ts): once the tool differs from its card,
      // nothing is run and no grant is held (the grant is checked again when confirmed).
      const refused = (await this.o.api.getApproval(String(params[0]))).refused?.always_allow;
      if (refused) throw new ControlError(refused.code, refused.message);
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
        view.agent,
      );
      return { status: 200, body: { result: view } };
    }
    const toolOf = this.o.toolIdentity;
    const named = new Map(toolNames(method, params).map((n) => [n, toolOf(n)]));
    const summary = await looseningSummary(this.o.api, method, params, this.o.servers);
    // The summary judged the tools as listTools gave them, which then waits up to 3 s for servers
    // still connecting: a name that moved meanwhile was judged as another tool ("already this
    // agent's", so no loosening) than the one the change reaches. Refused: the caller asks again.
    sameTools(toolOf, named);
    if (!summary) return null;
    // The change names tools by public name and runs when the user confirms it, up to ten minutes
    // on. A name can move to another tool meanwhile: names go in key order (tools/naming.ts), and
    // a server that lists a tool whose name cleans up to the same one and sorts first
    // ("count.send" before "count_send") takes it. So the change is held to the tools its names
    // named when it was asked for (their stable keys, and the servers they reached) and refused if
    // a name has moved or its server was swapped for another under the same name.
    const change = changes.propose(
      summary,
      async () => {
        // Checked and run in one synchronous stretch: run() reaches the change's own registry
        // lookup (tools-control.ts setToolPolicy, agents-control.ts setAgentTools) before any await.
        sameTools(toolOf, named);
        return run();
      },
      agentOf(method, params),
    );
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

/** The agent a loosening control call is for, if it is for one (PolicyChanges.failFor). */
function agentOf(method: string, params: unknown[]): string | undefined {
  if (method === 'setAgentTools') return String(params[0]);
  if (method === 'setToolPolicy') {
    const agent = (params[1] as { agent?: unknown } | undefined)?.agent;
    return typeof agent === 'string' ? agent : undefined;
  }
  return undefined;
}

/** The tools a loosening control call names, by public name. */
function toolNames(method: string, params: unknown[]): string[] {
  if (method === 'setToolPolicy') return [String(params[0])];
  if (method === 'setAgentTools' && Array.isArray(params[1])) return params[1].map(refName);
  return [];
}

/** Refuses (CONFLICT) when a name no longer bears the tool it bore when the change was asked for. */
function sameTools(
  toolOf: (name: string) => string | undefined,
  named: Map<string, string | undefined>,
): void {
  for (const [name, key] of named) {
    const now = toolOf(name);
    // A name no tool bears now is left to the change itself, whose own lookup refuses it in the
    // same registry ("No tool named …"): saying it names another tool would mislead.
    if (now !== undefined && now !== key)
      throw new ControlError(
        'CONFLICT',
        `${name} now names another tool than when this change was asked for (its server's tools changed, or its server is another one); nothing was changed. Ask again, so that you confirm what the name names now.`,
      );
  }
}

function isAlwaysAllow(d: unknown): d is { kind: 'always_allow'; until?: unknown } {
  return !!d && typeof d === 'object' && (d as { kind?: unknown }).kind === 'always_allow';
}
