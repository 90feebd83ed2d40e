import type { ControlApi, ToolPolicyPatch } from '../../common/contract/index.js';
import type { Settings } from '../platform/settings.js';
import { remoteLoosening } from './loosening-remotes.js';

/**
 * Does this control call loosen a policy (issue 17, item 7)? Returns what it
 * would do, in words, or null for calls that only tighten or don't touch
 * policy. Loosening: a tool to `auto`, enabling a tool, lifting or widening
 * an agent's tool list; server changes that let more run (loosening-remotes.ts,
 * decided on `settings`). (Approval decisions are the approval page's own
 * business and are not routed here.)
 */
export async function looseningSummary(
  api: ControlApi,
  method: string,
  params: unknown[],
  settings?: () => Settings,
): Promise<string | null> {
  if (settings && (method === 'updateRemote' || method === 'addRemote'))
    return remoteLoosening(method, params, settings());
  if (method === 'setToolPolicy') {
    const [name, patch] = params as [unknown, ToolPolicyPatch | undefined];
    if (!patch || typeof patch !== 'object') return null;
    // A call that will fail anyway (unknown tool, destructive without confirmDestructive) fails now.
    const tool = (await api.listTools()).find((t) => t.name === name);
    if (!tool) return null;
    if (patch.approval === 'auto' && tool.destructive && patch.confirmDestructive !== true)
      return null;
    const parts: string[] = [];
    if (patch.enabled === true) parts.push(`enable ${String(name)}`);
    if (patch.approval === 'auto') parts.push(`let ${String(name)} run without asking`);
    if (parts.length === 0) return null;
    return parts.join(' and ') + (patch.agent ? ` for agent "${String(patch.agent)}"` : '');
  }
  if (method === 'setAgentTools') {
    const [name, tools] = params;
    const agent = (await api.listAgents()).find((a) => a.name === name);
    if (!agent?.tools) return null; // unknown agent (the call fails) or already every tool: no wider
    if (tools === null) return `give agent "${String(name)}" every tool`;
    if (!Array.isArray(tools)) return null;
    const keyOf = new Map((await api.listTools()).map((t) => [t.name, t.key]));
    const added = tools.filter((t) => !agent.tools!.includes(keyOf.get(String(t)) ?? ''));
    if (added.length === 0) return null;
    return `give agent "${String(name)}" the tools ${added.map(String).join(', ')}`;
  }
  return null;
}
