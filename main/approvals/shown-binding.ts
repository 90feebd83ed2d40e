import type {
  AllowKind,
  AllowRefusal,
  AllowRefusals,
  ApprovalState,
} from '../../common/contract/index.js';
import { ALLOW_KINDS } from '../../common/contract/index.js';
import type { ApprovalRow, ShownBinding } from '../store/approval-store.js';
import type { ApprovalEngineDeps } from './engine-types.js';
import type { FingerprintForm } from './policy.js';

/** What an allow is held to now: the fingerprints of the tool registered under the request's key. */
export interface BindingNow {
  /** toolFingerprint now; null when the tool is gone, undefined when the card has none. */
  tool: string | null | undefined;
  /** runFingerprint of the call as the agent made it, now; as `tool`. */
  runs: string | null | undefined;
  /** An edited call (Edit & Allow, once its edit is accepted): its runFingerprint. */
  edited?: { runs: string | null | undefined };
}

/**
 * The one rule for whether an allow runs on the tool its card was made against (engine.ts decide
 * throws what this returns; the approval view shows it before the user presses anything, so the
 * two cannot disagree). Null: allowed.
 *
 * An allow runs the call on the tool registered under its key now, with what it fills in now.
 * Allow once and an edited allow run this call: they are refused when what runs changed since
 * the card was made (runFingerprint: the tool's input schema, its server, the account this call
 * goes out from — a call without `account` goes out from the first one that may write), as the
 * card no longer says what would run. Words about the tool (its description, title, hints) are
 * not what runs: a server that stamps the time into its description must not make its calls
 * impossible to allow. "Always allow" makes a grant bound to the whole definition as it is now
 * (grants.ts), so it also needs that to be the one the card was made against (toolFingerprint);
 * otherwise the user would grant a tool they were not shown. Refused, nothing changes; denying
 * stays possible. Kept with the request, so an allow after a restart is checked the same way.
 * An edited allow runs the edited call, so that call, too, must reach what the card showed: an
 * edit that leaves out `account` goes out from the default at the decision, which the card (made
 * for the account the agent named) did not show, and one naming another account runs where no
 * check looked (`edited`, checked once the edit is accepted).
 */
export function allowRefusal(
  tool: string,
  shown: ShownBinding | null,
  now: BindingNow,
  kind: AllowKind,
): AllowRefusal | null {
  // Requests stored before the binding was kept, or made without fingerprints (tests' engines).
  if (!shown) return null;
  // Gone is not changed: a server that is down (restarting, offline) lists no tools, and the
  // request can be allowed once it is back with the same tool; telling the user to deny it
  // would throw away a call that is fine.
  if (now.tool === null || now.runs === null)
    return {
      code: 'CONFLICT',
      message: `${tool} is not available right now (its server is down or it was removed); nothing was run. Allow it once the tool is back, or deny it.`,
    };
  const toolSame = now.tool === shown.tool;
  // Without runFingerprint, the whole tool stands for what runs.
  const runsSame = shown.runs === undefined ? toolSame : now.runs === shown.runs;
  if (!runsSame)
    return {
      code: 'CONFLICT',
      message: `${tool} changed since this request was shown (its input schema, its server or the account this call goes out from), so the card may not say what would run; nothing was run. Deny it, and let the agent call again so the call is checked and shown as it would run now.`,
    };
  if (now.edited && shown.runs !== undefined && now.edited.runs !== shown.runs)
    // INVALID, as edit-binding.ts refuses an edit: the form stays open for the user to fix it.
    return {
      code: 'INVALID',
      message: `The edited ${tool} would go out from another account than the card showed (its \`account\` left out runs from the default account, or it names another one); nothing was run. Keep \`account\` as the card showed it, or deny this request and let the agent call again from the account it should use.`,
    };
  if (kind === 'always_allow' && !toolSame)
    return {
      code: 'CONFLICT',
      message: `${tool} changed since this request was shown (its description, title or hints, or the connected Google accounts), so "Always allow" would make a grant for a tool you were not shown; no grant was made and nothing was run. "Allow once" still runs this call as shown. To always allow the tool as it is now, deny this request and let the agent call again.`,
    };
  return null;
}

/**
 * The allows a pending request's card would have refused now, by kind (ApprovalView.refused);
 * undefined when none is, or the request is no longer pending. Edit & Allow is told what holds
 * before any edit: what an edit changes is checked when it is sent.
 */
export function allowRefusals(
  tool: string,
  state: ApprovalState,
  shown: ShownBinding | null,
  now: () => BindingNow,
): AllowRefusals | undefined {
  if (state !== 'pending' || !shown) return undefined;
  const bound = now();
  const out: AllowRefusals = {};
  for (const kind of ALLOW_KINDS) {
    const r = allowRefusal(tool, shown, bound, kind);
    if (r) out[kind] = r;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The fingerprints an allow of this request is held to now (only those its card was made with). */
export function bindingNow(
  deps: Pick<ApprovalEngineDeps, 'toolFingerprint' | 'runFingerprint'>,
  row: ApprovalRow,
  edited?: Record<string, unknown> | null,
): BindingNow {
  const shown = row.shown;
  const { toolFingerprint: tool, runFingerprint: runs } = deps;
  return {
    tool:
      shown?.tool === undefined || !tool
        ? undefined
        : asStored(shown.tool, (form) => tool(row.toolKey, form)),
    runs:
      shown?.runs === undefined || !runs
        ? undefined
        : asStored(shown.runs, (form) => runs(row.toolKey, row.args, form)),
    ...(edited
      ? {
          edited: {
            runs: runs && asStored(shown?.runs, (form) => runs(row.toolKey, edited, form)),
          },
        }
      : {}),
  };
}

/**
 * The fingerprint now, in the form the card's was stored in: a request kept from before the
 * fingerprints' form changed (policy.ts FingerprintForm) holds the legacy hash, and the tool as
 * it was then still matches it, so an upgrade does not refuse its allows.
 */
function asStored(
  stored: string | null | undefined,
  now: (form: FingerprintForm) => string | null,
): string | null {
  const current = now('current');
  if (current === null || current === stored || stored === undefined) return current;
  return now('legacy') === stored ? stored : current;
}
