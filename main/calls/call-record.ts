import type { ActivityView } from '../../common/contract/index.js';
import type { Logger } from '../platform/log.js';
import type { ActivityLog } from '../store/activity.js';
import type { CallToolResult } from '../tools/types.js';

/** One tool call's Activity row, as the pipeline knows it when the call ends. */
export interface CallRecord {
  agent: string;
  tool: string;
  decision: ActivityView['decision'];
  argsDigest: string;
  started: number;
  result: CallToolResult | null;
  outcome?: ActivityView['outcome'];
  decisionKind?: string;
  grantId?: string;
}

/** Queued, not written on the answer path (issue 20); ActivityLog flushes it within its window. */
export function recordCall(
  d: { readonly activity: ActivityLog; readonly logger: Logger },
  e: CallRecord,
): void {
  try {
    const firstText = e.result?.content?.find((c) => c.type === 'text');
    d.activity.add({
      agent: e.agent,
      tool: e.tool,
      decision: e.decision,
      outcome: e.outcome ?? (e.result?.isError ? 'error' : 'ok'),
      durationMs: performance.now() - e.started,
      argsDigest: e.argsDigest,
      ...(e.decisionKind ? { decisionKind: e.decisionKind } : {}),
      ...(e.grantId ? { grantId: e.grantId } : {}),
      ...(e.result?.isError && firstText?.type === 'text'
        ? { detail: firstText.text.slice(0, 500) }
        : {}),
    });
  } catch (err) {
    d.logger.error('could not write the activity log', { error: String(err) });
  }
}
