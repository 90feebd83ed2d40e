import { codeUnits, textPrefix } from '../../common/text-cut.js';
import { argsDigest } from '../approvals/canonical.js';
import type { ActivityView } from '../../common/contract/index.js';
import type { Logger } from '../platform/log.js';
import type { ActivityLog } from '../store/activity.js';
import type { CallToolResult } from '../tools/types.js';
import { UNTRUSTED_META_KEY, untrustedNote } from '../tools/untrusted.js';

/** One tool call's Activity row, as the pipeline knows it when the call ends. */
export interface CallRecord {
  agent: string;
  tool: string;
  decision: ActivityView['decision'];
  /**
   * The arguments' digest made now, or the arguments to digest when the row is written
   * (recordCall): a value, not a closure per call (issue 34).
   */
  digest: { made: string } | { late: unknown };
  started: number;
  result: CallToolResult | null;
  outcome?: ActivityView['outcome'];
  decisionKind?: string;
  grantId?: string;
}

/**
 * Queued, not written on the answer path (issue 20); ActivityLog flushes it within its window.
 * What can change after the call (the time, the answer's outcome and error text) is read now;
 * a digest given as a function is made with the row at the flush (issue 34: hashing the
 * arguments was on every call's answer path, for a row nobody reads before it is written).
 */
export function recordCall(
  d: { readonly activity: ActivityLog; readonly logger: Logger },
  e: CallRecord,
): void {
  try {
    const durationMs = performance.now() - e.started;
    const detail = e.result?.isError ? errorDetail(e.result) : '';
    // The optional members set only when present, in the order spreads of conditional objects
    // set them, without an empty object made for each absent one (issue 34: every call's row).
    const row: {
      agent: string;
      tool: string;
      decision: ActivityView['decision'];
      outcome: NonNullable<ActivityView['outcome']>;
      durationMs: number;
      decisionKind?: string;
      grantId?: string;
      detail?: string;
    } = {
      agent: e.agent,
      tool: e.tool,
      decision: e.decision,
      outcome: e.outcome ?? (e.result?.isError ? 'error' : 'ok'),
      durationMs,
    };
    if (e.decisionKind) row.decisionKind = e.decisionKind;
    if (e.grantId) row.grantId = e.grantId;
    if (detail) row.detail = detail;
    const digest = e.digest;
    if ('made' in digest) {
      // Set on the row itself, last as in a copy: `add` copies it once more for its queue.
      const now = row as Mutable<typeof row> & { argsDigest: string };
      now.argsDigest = digest.made;
      d.activity.add(now);
      return;
    }
    const at = Date.now();
    // The row itself, its last two members set in the order a copy gave them: no second object
    // per call (issue 34). Nothing else holds `row`; run again, the late row sets the same values.
    d.activity.addLate(() => {
      const late = row as Mutable<typeof row> & { at: string; argsDigest: string };
      late.at = new Date(at).toISOString();
      // A late row must not throw (LateActivity): a digest that cannot be made is logged and left
      // empty.
      try {
        late.argsDigest = argsDigest(digest.late);
      } catch (err) {
        d.logger.error('could not digest the arguments for the activity log', {
          error: String(err),
        });
        late.argsDigest = '';
      }
      return late;
    });
  } catch (err) {
    d.logger.error('could not write the activity log', { error: String(err) });
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A failed call's error text for its Activity row: the first text, or for a server's error marked
 * as its words (remote-calls.ts) Airlock's sentence and the words after the note, which would
 * otherwise be all the row says.
 */
function errorDetail(result: CallToolResult): string {
  const texts = (result.content ?? []).flatMap((c) => (c.type === 'text' ? [c.text] : []));
  const mark = result._meta?.[UNTRUSTED_META_KEY] as { server?: unknown } | undefined;
  const note = typeof mark?.server === 'string' ? untrustedNote(mark.server) : undefined;
  const shown = note && texts[1] === note ? [texts[0]!, ...texts.slice(2, 3)] : texts.slice(0, 1);
  return textPrefix(shown.join(' '), 500, codeUnits);
}
