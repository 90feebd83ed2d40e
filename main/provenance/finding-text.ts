import type { ContentItem } from './content-index.js';
import type { CallDestination } from './destinations.js';

/**
 * The words of a finding (issue 22, issue 30): one sentence for the approval
 * card and Activity that names the value, the author, the place (the
 * attachment, message n of a thread, an event's description) and when the
 * agent read it — the label carries author and place (content-describer.ts,
 * the sources' descriptions), this adds the time.
 */

export interface TaintEvidence {
  label: string;
  kind: ContentItem['kind'];
  tool: string;
  ref?: string;
  from?: string[];
  /** ISO time the agent received it. */
  at: string;
}

export interface TaintFinding {
  rule: 'untrusted-destination' | 'private-data-out' | 'instructed-effect';
  /** The value in the arguments that matched (an address, a URL, …) or the destination. */
  value: string;
  evidence: TaintEvidence[];
  /** One plain sentence for the approval card and Activity. */
  text: string;
}

export interface TaintReport {
  findings: TaintFinding[];
  /** One sentence: the first finding's, and how many more there are. */
  summary: string;
}

export function noun(d: CallDestination): string {
  return { address: 'The address', url: 'The link', host: 'The domain', phone: 'The number' }[
    d.kind
  ];
}

function ago(at: number, now: number): string {
  const m = Math.round((now - at) / 60_000);
  if (m < 1) return 'just now';
  if (m < 60) return `${m} minute${m === 1 ? '' : 's'} ago`;
  const h = Math.round(m / 60);
  return `${h} hour${h === 1 ? '' : 's'} ago`;
}

/** "a message from x@y ("Invoices") that this agent read 2 minutes ago". */
export function describeItem(i: ContentItem, now: number): string {
  return `${i.label} that this agent read ${ago(i.at, now)}`;
}

export function evidence(i: ContentItem): TaintEvidence {
  return {
    label: i.label,
    kind: i.kind,
    tool: i.tool,
    ...(i.ref ? { ref: i.ref } : {}),
    ...(i.from ? { from: i.from } : {}),
    at: new Date(i.at).toISOString(),
  };
}

/** The report: every finding, and a summary that stays one sentence. */
export function report(findings: TaintFinding[]): TaintReport | null {
  if (findings.length === 0) return null;
  const first = findings[0]!.text;
  const more = findings.length - 1;
  return {
    findings,
    summary: more
      ? `${first.replace(/\.$/, '')}; ${more} more finding${more === 1 ? '' : 's'} below.`
      : first,
  };
}
