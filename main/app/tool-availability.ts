import type { RemoteView, ToolNotOffered } from '../../common/contract/index.js';
import { resolvePolicy } from '../approvals/policy.js';
import type { AgentSettings, Settings } from '../platform/settings.js';
import { baseName } from '../tools/naming.js';
import type { ToolEntry } from '../tools/registry.js';
import type { ToolDefinition, ToolSource } from '../tools/types.js';

/**
 * Why agents cannot use a tool now, for the Tools page (issue 28 item 5), decided by what acts:
 * the policy the call path resolves (resolvePolicy), the definition's own `unavailable`, the
 * source's check a call makes (`toolProblem`). The first that applies is the one said.
 */
export function notOfferedOf(
  entry: ToolEntry,
  settings: Settings,
  agent: string | undefined,
  agentSettings: AgentSettings | undefined,
): ToolNotOffered | undefined {
  if (entry.def.unavailable)
    return { reason: 'unsupported', text: `Not offered to agents: it ${entry.def.unavailable}.` };
  if (!resolvePolicy(settings, entry, agentSettings).enabled) {
    const override = agentSettings?.overrides[entry.key]?.enabled;
    if (agent !== undefined && override === false)
      return { reason: 'turned-off-for-agent', text: `Turned off for ${agent} (by you).` };
    if (agent !== undefined && override === undefined && agentSettings?.tools)
      if (!agentSettings.tools.includes(entry.key))
        return {
          reason: 'not-chosen-for-agent',
          text: `Hidden from ${agent}: it is limited to other tools (Agents page).`,
        };
    return { reason: 'turned-off', text: 'Turned off for every agent (by you).' };
  }
  const problem = entry.source.toolProblem?.(entry.def.name);
  if (problem) return { reason: 'google-scope', text: `Offered, but no call can run: ${problem}` };
  return undefined;
}

/**
 * The tools of a server that is down, as it listed them last (its source lists none while down,
 * so agents are not offered them): each with why — the server needs the user to sign in again,
 * or is not connected. Named as the registry would name them (naming.ts).
 */
export function downTools(
  sources: readonly ToolSource[],
  remotes: readonly RemoteView[],
): { source: ToolSource; def: ToolDefinition; name: string; notOffered: ToolNotOffered }[] {
  const out = [];
  for (const source of sources) {
    const state = source.status();
    if (state.state === 'ready' || !source.lastKnownTools) continue;
    const signIn = remotes.find((r) => r.sourceId === source.id)?.auth?.signInRequired;
    const notOffered: ToolNotOffered = signIn
      ? {
          reason: 'sign-in',
          text: `Not offered to agents: its server "${source.label}" needs you to sign in again (${signIn}; Servers page).`,
        }
      : {
          reason: 'server-down',
          text: `Not offered to agents: its server "${source.label}" is not connected (${state.state === 'error' ? state.detail : 'connecting'}).`,
        };
    for (const def of source.lastKnownTools())
      out.push({ source, def, name: baseName(source.prefix, def.name), notOffered });
  }
  return out;
}
