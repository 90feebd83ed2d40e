import type {
  ControlApi,
  RemotePatch,
  SandboxInput,
  SandboxPermissions,
  ToolPolicyPatch,
  ToolView,
} from '../../common/contract/index.js';

/**
 * What changing a server would let run, in words, or null (remote/remote-loosening.ts): passed
 * in, so the gateway judges server changes without importing the remote source.
 */
export type ServerLoosening = (method: string, params: unknown[]) => Promise<string | null>;

/**
 * Does this control call loosen a policy (issue 17, item 7)? Returns what it
 * would do, in words, or null for calls that only tighten or don't touch
 * policy. Loosening: a tool to `auto`, enabling a tool, lifting or widening
 * an agent's tool list; server changes that let more run (`servers`,
 * remote/remote-loosening.ts); widening a local server's sandbox (issue 35: more
 * folders, more network, running without a sandbox). (Approval decisions are the
 * approval page's own business and are not routed here.)
 */
export async function looseningSummary(
  api: ControlApi,
  method: string,
  params: unknown[],
  servers?: ServerLoosening,
): Promise<string | null> {
  if (method === 'updateRemote' || method === 'addRemote') {
    const parts = [
      servers ? await servers(method, params) : null,
      method === 'updateRemote' ? await sandboxLoosening(api, params) : null,
    ].filter((p): p is string => Boolean(p));
    return parts.length ? parts.join('; and ') : null;
  }
  if (method === 'setToolPolicy') {
    const [name, patch] = params as [unknown, ToolPolicyPatch | undefined];
    if (!patch || typeof patch !== 'object') return null;
    // A call that will fail anyway (unknown tool, destructive without confirmDestructive) fails now.
    const tool = (await listed(api)).find((t) => t.name === name);
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
    const keyOf = new Map((await listed(api)).map((t) => [t.name, t.key]));
    const added = tools.filter((t) => !agent.tools!.includes(keyOf.get(String(t)) ?? ''));
    if (added.length === 0) return null;
    return `give agent "${String(name)}" the tools ${added.map(String).join(', ')}`;
  }
  return null;
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

/** A local server's sandbox made wider (issue 35), in words, or null. */
async function sandboxLoosening(api: ControlApi, params: unknown[]): Promise<string | null> {
  const [name, patch] = params as [unknown, RemotePatch | undefined];
  if (!patch || typeof patch !== 'object') return null;
  const server = (await api.listRemotes()).find((r) => r.name === name);
  if (!server?.stdio) return null;
  const parts = [
    ...sandboxWidening(server.stdio.sandbox, patch.stdio?.sandbox),
    ...sandboxWidening(server.stdio.sandbox, patch.sandbox),
  ];
  return parts.length
    ? `let local server "${String(name)}" ${[...new Set(parts)].join(', ')}`
    : null;
}

/** What a sandbox change would allow that the current permissions do not (any doubt counts). */
function sandboxWidening(cur: SandboxPermissions, input: SandboxInput | undefined): string[] {
  if (!input || typeof input !== 'object') return [];
  const inside = (p: string, roots: string[]) =>
    roots.some((r) => p === r || p.startsWith(r.endsWith('/') ? r : `${r}/`));
  const out: string[] = [];
  for (const p of Array.isArray(input.read) ? input.read : [])
    if (!inside(String(p), [...cur.read, ...cur.write])) out.push(`read ${String(p)}`);
  for (const p of Array.isArray(input.write) ? input.write : [])
    if (!inside(String(p), cur.write)) out.push(`read and write ${String(p)}`);
  const network = input.network ?? (input.hosts?.length ? 'hosts' : cur.network);
  if (network === 'any' && cur.network !== 'any') out.push('reach any host');
  if (network === 'hosts' && cur.network !== 'any') {
    const hosts = Array.isArray(input.hosts) ? input.hosts.map(String) : cur.hosts;
    const had = cur.network === 'hosts' ? cur.hosts : [];
    const more = hosts.filter((h) => !had.includes(h.trim().toLowerCase()));
    if (more.length) out.push(`reach ${more.join(', ')}`);
  }
  if (input.allowUnsandboxed === true && !cur.allowUnsandboxed) out.push('run without a sandbox');
  return out;
}
