import type { Decision, DecisionKind } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import type { ApprovalRow } from '../store/approval-store.js';
import type { BoundArgs } from '../tools/types.js';
import type { ToolInfo } from './approval-view.js';
import { keepBinding, withoutKeys } from './edit-binding.js';
import type { GrantService } from './grants.js';

export interface DecisionDeps {
  toolInfo: (toolKey: string) => ToolInfo | undefined;
  validate: (
    toolKey: string,
    args: Record<string, unknown>,
  ) => string | null | Promise<string | null>;
  grants: GrantService;
  /** What an edit may not change (ToolSource.boundArgs); undefined when nothing is bound. */
  bound?: (toolKey: string) => BoundArgs | undefined;
}

/**
 * Checks an "allow" decision and makes what it needs before the request is
 * approved: edited arguments that fit the schema, or the grant (issue 16 item 2).
 * Throws a ControlError that says what to do; nothing is changed then.
 */
export async function acceptDecision(
  deps: DecisionDeps,
  row: ApprovalRow,
  decision: Exclude<Decision, { kind: 'deny' }>,
): Promise<{ edited: Record<string, unknown> | null; kind: DecisionKind; grantId: string | null }> {
  if (decision.kind === 'allow_edited') {
    const given = decision.arguments;
    if (!given || typeof given !== 'object' || Array.isArray(given))
      throw new ControlError('INVALID', 'Edited arguments must be a JSON object.');
    // The version the card showed stays the one that runs (edit-binding.ts).
    const bound = deps.bound?.(row.toolKey);
    const args = keepBinding(row.tool, row.args, given, bound);
    // The bound arguments are Airlock's, equal to the request's (keepBinding), and need not be in
    // the tool's schema: Calendar's etags are not, so its definitions and their grants' fingerprints
    // stay as they were. The rest is the tool's input, checked as the agent's was.
    const problem = await deps.validate(row.toolKey, withoutKeys(args, bound?.bound ?? []));
    if (problem)
      throw new ControlError('INVALID', `The edited arguments do not fit ${row.tool}: ${problem}`);
    return { edited: args, kind: 'edited', grantId: null };
  }
  if (decision.kind !== 'always_allow') return { edited: null, kind: 'once', grantId: null };
  // Making a tool with side effects run freely is a loosening: it needs a deliberate yes.
  const risk = deps.toolInfo(row.toolKey)?.risk ?? 'destructive';
  if (risk !== 'read-only' && decision.confirm !== true)
    throw new ControlError(
      'CONFIRM_REQUIRED',
      `${row.tool} can ${risk === 'destructive' ? 'send, change or delete' : 'change'} things. ` +
        `Letting ${row.agent} run it without asking needs explicit confirmation ("confirm": true).`,
    );
  const grant = deps.grants.create({
    agent: row.agent,
    toolKey: row.toolKey,
    tool: row.tool,
    args: row.args,
    ...(decision.hours !== undefined ? { hours: decision.hours } : {}),
    ...(decision.until !== undefined ? { until: decision.until } : {}),
    ...(decision.constraint !== undefined ? { constraint: decision.constraint } : {}),
    ...(decision.includeTainted === true ? { includeTainted: true } : {}),
    approvalId: row.id,
  });
  return { edited: null, kind: 'grant', grantId: grant.id };
}
