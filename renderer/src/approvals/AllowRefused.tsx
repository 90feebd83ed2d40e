import type { AllowKind, ApprovalView } from '../../../common/contract';

/**
 * The allows the core would refuse now and why (ApprovalView.refused: the tool changed since the
 * card was made, or it is not available), said above the buttons before anyone presses one. The
 * words are the core's own, the ones `decide` refuses with (main/approvals/shown-binding.ts).
 */
export function AllowRefusedNotice({
  approval,
  idPrefix,
}: {
  approval: ApprovalView;
  idPrefix: string;
}) {
  const messages = refusalMessages(approval);
  if (!messages.length) return null;
  return (
    <div className="error" role="status" data-testid="allow-refused">
      {messages.map((m, i) => (
        <p key={m} id={`${idPrefix}-refused-${i}`}>
          {m}
        </p>
      ))}
    </div>
  );
}

/** The distinct reasons, in the order the allows are listed; several kinds often share one. */
function refusalMessages(approval: ApprovalView): string[] {
  const r = approval.refused ?? {};
  return [
    ...new Set(
      [r.allow_once, r.allow_edited, r.always_allow].flatMap((x) => (x ? [x.message] : [])),
    ),
  ];
}

/** The id of the line saying why `kind` would be refused, for its button's aria-describedby. */
export function refusalId(
  approval: ApprovalView,
  idPrefix: string,
  kind: AllowKind,
): string | undefined {
  const m = approval.refused?.[kind]?.message;
  if (!m) return undefined;
  return `${idPrefix}-refused-${refusalMessages(approval).indexOf(m)}`;
}
