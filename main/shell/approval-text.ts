import type { ApprovalView } from '../../common/contract/index.js';

/**
 * The words of a native approval prompt: "Claude Code wants to send an
 * e-mail to bob@example.com" (issue 9, item 3). A source's own
 * describeEffect gives a verb phrase; the generic fallback
 * ("<tool>: <description>", main/app/call-pipeline.ts effectOf) does not,
 * so it reads "… wants to use <tool>" with the description below.
 */
function isGenericEffect(a: ApprovalView): boolean {
  return a.effect.startsWith(`${a.toolTitle ?? a.tool}:`) || a.effect.startsWith(`${a.tool}:`);
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

export function approvalHeadline(a: ApprovalView): string {
  if (isGenericEffect(a) || !a.effect.trim())
    return `${a.agent} wants to use ${a.toolTitle ?? a.tool}`;
  return `${a.agent} wants to ${lowerFirst(a.effect.trim().replace(/\.$/, ''))}`;
}

/** A second line: the tool's description (generic case) or the tool's name. */
export function approvalSubline(a: ApprovalView): string {
  if (isGenericEffect(a)) {
    const rest = a.effect.slice(a.effect.indexOf(':') + 1).trim();
    return rest || a.tool;
  }
  return `via ${a.tool}`;
}

/** The exact arguments the call will run with, for a dialog's details. */
export function approvalArguments(a: ApprovalView): string {
  return JSON.stringify(a.editedArguments ?? a.arguments, null, 2);
}

export function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}
