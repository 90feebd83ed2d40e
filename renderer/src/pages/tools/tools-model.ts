import type { SourceStatusView, ToolPolicyPatch, ToolView } from '../../../../common/contract';

export interface ToolGroup {
  source: string;
  label: string;
  state?: SourceStatusView['state'];
  detail?: string;
  tools: ToolView[];
}

/** Lower-cased words of a tool a search can hit. */
const haystack = (t: ToolView) =>
  `${t.name} ${t.title ?? ''} ${t.description} ${t.key}`.toLowerCase();

/**
 * Tools grouped by source in the order the core lists the sources (unknown
 * sources last), filtered by every word of `query` and the mode filter.
 */
export function groupTools(
  tools: ToolView[],
  sources: SourceStatusView[],
  query: string,
  only: 'all' | 'ask' | 'auto' | 'disabled' = 'all',
): ToolGroup[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const keep = (t: ToolView) =>
    words.every((w) => haystack(t).includes(w)) &&
    (only === 'all' || (only === 'disabled' ? !t.enabled : t.enabled && t.approval === only));
  const groups = new Map<string, ToolGroup>();
  for (const s of sources) {
    groups.set(s.id, {
      source: s.id,
      label: s.label,
      state: s.state,
      ...(s.detail ? { detail: s.detail } : {}),
      tools: [],
    });
  }
  for (const t of tools) {
    if (!keep(t)) continue;
    let g = groups.get(t.source);
    if (!g) {
      g = { source: t.source, label: t.source, tools: [] };
      groups.set(t.source, g);
    }
    g.tools.push(t);
  }
  return [...groups.values()].filter((g) => g.tools.length > 0);
}

/** A tool's badges, in a fixed order. */
export function badgesOf(t: ToolView): ('read-only' | 'destructive' | 'changes' | 'customized')[] {
  const out: ('read-only' | 'destructive' | 'changes' | 'customized')[] = [];
  if (t.readOnly) out.push('read-only');
  else if (t.destructive) out.push('destructive');
  else out.push('changes');
  if (t.customized) out.push('customized');
  return out;
}

/**
 * The setToolPolicy call for a choice made on a tool's row. It names the tool as the row shows it
 * and holds the change to the row's stable key: a public name can pass to another tool after the
 * page listed it (a server relists its tools, docs/remote.md), and the core then refuses the
 * change (CONFLICT, nothing changed) instead of applying the user's click to that other tool.
 * The agent is the row's too (the one the row was listed for, ToolView.agent), not the page's
 * selector: while the page re-reads the tools for another agent, the rows still show the old
 * agent's settings, and a click on one of them is about that agent.
 */
export function policyCall(
  tool: ToolView,
  patch: ToolPolicyPatch,
): [name: string, patch: ToolPolicyPatch] {
  const { agent: _fromPatch, ...rest } = patch;
  return [tool.name, { ...rest, key: tool.key, ...(tool.agent ? { agent: tool.agent } : {}) }];
}

/** Whether a row shows another agent's settings than the selector names (a re-read under way). */
export function rowIsStale(tool: ToolView, agent: string): boolean {
  return (tool.agent ?? '') !== agent;
}
