import type { CallToolResult } from '../tools/types.js';
import { errorResult } from '../tools/types.js';
import type { ApprovalRow } from '../store/approval-store.js';

/**
 * Texts the agent reads. Denials are `isError: true` and say plainly not to
 * retry, so agents stop instead of looping (docs/architecture.md "Approvals").
 */
const time = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

/** The meta key a waiting answer names its request with (read back by waitingApprovalId). */
const APPROVAL_META = 'dev.airlock/approval';

export function waitingResult(row: ApprovalRow): CallToolResult {
  return errorResult(
    `Waiting for the user's approval in Airlock (request ${row.id}, expires ${time(row.expiresAt)}). ` +
      'Nothing has been sent or changed yet. Call this tool again with exactly the same arguments to keep ' +
      'waiting: the call runs once, as soon as the user approves.',
    { _meta: { [APPROVAL_META]: { id: row.id, state: 'pending' } } },
  );
}

/** The request id of a "waiting for approval" answer, if that is what `result` is. */
export function waitingApprovalId(result: CallToolResult): string | null {
  const meta = result._meta?.[APPROVAL_META] as { id?: unknown; state?: unknown } | undefined;
  return meta && meta.state === 'pending' && typeof meta.id === 'string' ? meta.id : null;
}

export function deniedResult(row: ApprovalRow): CallToolResult {
  const reason = row.reason ? ` Reason given: "${row.reason}".` : '';
  return errorResult(
    `The user denied this call in Airlock; it was not run.${reason} Do not retry it. ` +
      'Tell the user, or ask them how they would like to proceed.',
  );
}

export function expiredResult(row: ApprovalRow, minutes: number): CallToolResult {
  return errorResult(
    `No decision was made in Airlock within ${minutes} minutes, so request ${row.id} expired and nothing was run. ` +
      'Call again only if the user still wants this done.',
  );
}

export function pausedResult(): CallToolResult {
  return errorResult(
    'Side effects are paused in Airlock: the user has stopped every call that needs approval. ' +
      'Nothing was run. Do not retry until the user resumes Airlock.',
  );
}

export function withdrawnResult(): CallToolResult {
  return errorResult('The request was withdrawn because the call was cancelled. Nothing was run.');
}

export function unknownResult(row: ApprovalRow): CallToolResult {
  return errorResult(
    `An identical call (request ${row.id}) was approved, but Airlock stopped while it was running, so it may or may ` +
      'not have been applied. Airlock will not send it again on its own. Check whether it took effect before ' +
      'asking the user to approve it again.',
  );
}

/** A repeat of a call that already ran gets the stored outcome, marked as such. */
export function alreadyDoneResult(row: ApprovalRow): CallToolResult {
  const stored = row.result ?? errorResult('The call ran, but its result was not kept.');
  const note = {
    type: 'text' as const,
    text: `This call already ran once at ${time(row.finishedAt ?? row.decidedAt ?? row.createdAt)} after the user approved it; this is its stored result. It was not run again.`,
  };
  return { ...stored, content: [note, ...(stored.content ?? [])] };
}

/** Tells the agent exactly which arguments the user changed before approving. */
export function editNote(before: Record<string, unknown>, after: Record<string, unknown>): string {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const changes = keys
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .map(
      (k) =>
        `${k}: ${JSON.stringify(before[k]) ?? '(absent)'} → ${JSON.stringify(after[k]) ?? '(removed)'}`,
    );
  return `The user edited the arguments before approving. Changed: ${changes.join('; ') || 'nothing'}. The call ran with the edited arguments.`;
}
