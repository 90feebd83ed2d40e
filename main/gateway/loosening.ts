import {
  ControlError,
  type ControlApi,
  type ToolPolicyPatch,
  type ToolRef,
  type ToolView,
} from '../../common/contract/index.js';
import { nameMoved, noToolNamed } from '../tools/name-moved.js';

/**
 * What changing a server would let run, in words, or null (remote/remote-loosening.ts, a local
 * server's sandbox included): passed in, so the gateway judges server changes without importing
 * the remote source or knowing what a sandbox is.
 */
export type ServerLoosening = (method: string, params: unknown[]) => Promise<string | null>;

/**
 * Does this control call loosen a policy (issue 17, item 7)? Returns what it
 * would do, in words, or null for calls that only tighten or don't touch
 * policy. Loosening: a tool to `auto`, enabling a tool, lifting or widening
 * an agent's tool list; server changes that let more run, a local server's wider
 * sandbox among them (`servers`, remote/remote-loosening.ts). (Approval decisions
 * are the approval page's own business and are not routed here.)
 */
export async function looseningSummary(
  api: ControlApi,
  method: string,
  params: unknown[],
  servers?: ServerLoosening,
): Promise<string | null> {
  if (method === 'updateRemote' || method === 'addRemote')
    return servers ? await servers(method, params) : null;
  if (method === 'setToolPolicy') {
    const [name, patch] = params as [unknown, ToolPolicyPatch | undefined];
    if (!patch || typeof patch !== 'object') return null;
    const parts: string[] = [];
    if (patch.enabled === true) parts.push(`enable ${String(name)}`);
    if (patch.approval === 'auto') parts.push(`let ${String(name)} run without asking`);
    if (parts.length === 0) return null;
    // A loosening that would fail (unknown tool, destructive without confirmDestructive) fails
    // here, with the change's own error — never "runs as asked": the change reads the registry a
    // moment later, and a server that reconnected in between (announcing the tool, or without
    // destructiveHint) would have it loosened with no one confirming (review of the audit;
    // main/gateway/loosening-race.security.test.ts). Words as in app/tools-control.ts.
    const tools = await listed(api);
    const tool = tools.find((t) => t.name === name);
    // Asked for the tool of a key the name no longer names: the change itself refuses it
    // (app/tool-named.ts), so it is refused now, not held for a confirmation bound to fail.
    if (typeof patch.key === 'string') sameKey(tools, { name: String(name), key: patch.key });
    if (!tool)
      throw new ControlError(
        'NOT_FOUND',
        `No tool named "${String(name)}". Run "airlock tools list" to see the names.`,
      );
    if (patch.approval === 'auto' && tool.destructive && patch.confirmDestructive !== true)
      throw new ControlError(
        'CONFIRM_REQUIRED',
        `${String(name)} can send, change or delete things. Making it run without asking needs explicit confirmation (--confirm-destructive).`,
      );
    return parts.join(' and ') + (patch.agent ? ` for agent "${String(patch.agent)}"` : '');
  }
  if (method === 'setAgentTools') {
    const [name, tools] = params;
    const agent = (await api.listAgents()).find((a) => a.name === name);
    if (!agent?.tools) return null; // unknown agent (the call fails) or already every tool: no wider
    if (tools === null) return `give agent "${String(name)}" every tool`;
    if (!Array.isArray(tools)) return null;
    const all = await listed(api);
    const keyOf = new Map(all.map((t) => [t.name, t.key]));
    // A tool named with the key it was listed under is judged as that tool: the change applies to
    // it or not at all (app/tool-named.ts), and one whose name has moved is refused now.
    for (const t of tools.filter(isRef)) sameKey(all, t);
    // A name no tool bears fails the change itself (app/tool-named.ts): refused now, with the
    // change's own words, rather than held for a confirmation bound to fail.
    const unknown = tools.map(refName).find((n) => !keyOf.has(n));
    if (unknown !== undefined) throw noToolNamed(unknown);
    const keyMeant = (t: unknown) => (isRef(t) ? t.key : (keyOf.get(String(t)) ?? ''));
    const added = tools.filter((t) => !agent.tools!.includes(keyMeant(t)));
    if (added.length === 0) return null;
    return `give agent "${String(name)}" the tools ${added.map(refName).join(', ')}`;
  }
  return null;
}

/** A tool named as listed (ToolRef: name and stable key), not by its public name alone. */
function isRef(t: unknown): t is ToolRef {
  return (
    typeof t === 'object' &&
    t !== null &&
    typeof (t as ToolRef).name === 'string' &&
    typeof (t as ToolRef).key === 'string'
  );
}

/** The public name a setAgentTools item names. */
export const refName = (t: unknown): string => (isRef(t) ? t.name : String(t));

/**
 * Refuses (CONFLICT) a tool named with a key its name no longer bears, as the change itself
 * would: the same decision and words (tools/name-moved.ts, which app/tool-named.ts takes on the
 * registry); a name and key no tool bears are left to the change.
 */
function sameKey(tools: ToolView[], ref: ToolRef): void {
  const named = tools.find((t) => t.name === ref.name)?.key;
  const moved = nameMoved(ref.name, ref.key, named, (k) => tools.some((t) => t.key === k));
  if (moved) throw moved;
}

/**
 * The tools a policy call can name: not those of a server that is down, which the Tools page
 * lists as last seen (issue 28 item 5) but setToolPolicy and setAgentTools refuse as unknown.
 */
async function listed(api: ControlApi): Promise<ToolView[]> {
  return (await api.listTools()).filter(
    (t) => t.notOffered?.reason !== 'server-down' && t.notOffered?.reason !== 'sign-in',
  );
}
