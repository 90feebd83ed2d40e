import type { PolicyChangeView, ToolPolicyPatch, ToolView } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import {
  defaultApproval,
  needsDestructiveConfirmation,
  resolvePolicy,
} from '../approvals/policy.js';
import type { ToolEntry } from '../tools/registry.js';
import { isDestructive, isReadOnly } from '../tools/types.js';
import type { ControlServiceDeps } from './control-deps.js';
import { toolNamed } from './tool-named.js';
import { downTools, notOfferedOf } from './tool-availability.js';

/** Tools and their policies (ControlApi's tools domain), with loosening asked for from outside. */
export class ToolsControl {
  constructor(private readonly d: ControlServiceDeps) {}

  async listTools(agent?: string): Promise<ToolView[]> {
    if (agent === null) agent = undefined;
    const agentSettings = agent === undefined ? undefined : this.d.agents.get(agent);
    if (agent !== undefined && !agentSettings)
      throw new ControlError('NOT_FOUND', `No agent named "${agent}".`);
    const listed = this.d.registry.entries().map((e) => this.toolView(e, agent));
    // A server that is down lists no tools; the page still shows them, saying why (issue 28.5).
    const remotes = (await this.d.remotes?.listRemotes().catch(() => [])) ?? [];
    const taken = new Set(listed.map((t) => t.name));
    const down = downTools(this.d.registry.listSources(), remotes)
      .filter((t) => !taken.has(t.name))
      .map(({ source, def, name, notOffered }) => ({
        name,
        key: `${source.id}/${def.name}`,
        source: source.id,
        ...(def.title ? { title: def.title } : {}),
        description: def.description,
        readOnly: isReadOnly(def),
        destructive: isDestructive(def),
        enabled: false,
        approval: 'ask' as const,
        customized: false,
        inputSchema: def.inputSchema,
        notOffered,
        ...(agent !== undefined ? { agent } : {}),
      }));
    return [...listed, ...down];
  }

  // Issue 17.7: policy changes asked for outside the window. Over HTTP, ControlRoutes decides
  // who may call decidePolicyChange; over IPC the caller is the window itself.
  async listPolicyChanges(): Promise<PolicyChangeView[]> {
    return this.d.policyChanges?.list() ?? [];
  }

  async decidePolicyChange(id: string, confirm: boolean): Promise<PolicyChangeView> {
    if (!this.d.policyChanges) throw new ControlError('NOT_FOUND', `No policy change ${id}.`);
    return this.d.policyChanges.decide(id, confirm === true);
  }

  async waitPolicyChange(id: string): Promise<PolicyChangeView> {
    if (!this.d.policyChanges) throw new ControlError('NOT_FOUND', `No policy change ${id}.`);
    return this.d.policyChanges.wait(id);
  }

  async setToolPolicy(name: string, patch: ToolPolicyPatch): Promise<ToolView> {
    if (patch.key !== undefined && typeof patch.key !== 'string')
      throw new ControlError('INVALID', 'key must be the stable key of a tool (text).');
    // The check of the key the caller saw and the write below read the registry once, with no
    // await between them (tool-named.ts).
    const entry = toolNamed(this.d.registry, name, patch.key);
    if (patch.approval !== undefined && patch.approval !== 'auto' && patch.approval !== 'ask') {
      throw new ControlError('INVALID', 'approval must be "auto" or "ask".');
    }
    if (patch.enabled !== undefined && typeof patch.enabled !== 'boolean')
      throw new ControlError('INVALID', 'enabled must be true or false.');
    if (needsDestructiveConfirmation(entry, patch.approval) && patch.confirmDestructive !== true) {
      throw new ControlError(
        'CONFIRM_REQUIRED',
        `${name} can send, change or delete things. Making it run without asking needs explicit confirmation (--confirm-destructive).`,
      );
    }
    const change = {
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      ...(patch.approval ? { approval: patch.approval } : {}),
    };
    if (patch.agent !== undefined) {
      this.d.agents.update(patch.agent, (a) => {
        a.overrides[entry.key] = { ...a.overrides[entry.key], ...change };
      });
      // Going back to "ask" also ends any standing "always allow" of this agent.
      if (patch.approval === 'ask') this.d.grants.revokeFor(patch.agent, entry.key);
    } else {
      this.d.settings.update((s) => {
        s.tools[entry.key] = { ...s.tools[entry.key], ...change };
      });
    }
    afterPolicyChange(this.d);
    return this.toolView(entry, patch.agent);
  }

  /** The Tools page's "always allowed for <agent>": an active grant without an argument constraint. */
  private grantOf(entry: ToolEntry, agent?: string): { grantedUntil?: string | null } {
    if (agent === undefined) return {};
    const g = this.d.grants.openGrant(agent, entry.key);
    return g
      ? { grantedUntil: g.expiresAt === null ? null : new Date(g.expiresAt).toISOString() }
      : {};
  }

  private toolView(entry: ToolEntry, agent?: string): ToolView {
    const settings = this.d.settings.get();
    const agentSettings = agent === undefined ? undefined : this.d.agents.get(agent);
    const policy = resolvePolicy(settings, entry, agentSettings);
    const tool = settings.tools[entry.key];
    const override = agentSettings?.overrides[entry.key];
    return {
      name: entry.name,
      key: entry.key,
      source: entry.source.id,
      ...(entry.def.title ? { title: entry.def.title } : {}),
      description: entry.def.description,
      readOnly: isReadOnly(entry.def),
      destructive: isDestructive(entry.def),
      enabled: policy.enabled,
      approval: policy.approval,
      customized: Boolean(
        tool?.enabled === false ||
        (tool?.approval && tool.approval !== defaultApproval(entry)) ||
        override,
      ),
      inputSchema: entry.def.inputSchema,
      ...(entry.def.unavailable ? { unavailable: entry.def.unavailable } : {}),
      ...withNotOffered(notOfferedOf(entry, settings, agent, agentSettings)),
      ...(agent !== undefined ? { agent } : {}),
      ...this.grantOf(entry, agent),
    };
  }
}

const withNotOffered = (n: ToolView['notOffered']) => (n ? { notOffered: n } : {});

/** Enabled flags change what tools/list shows: tell connected agents. */
export function afterPolicyChange(d: ControlServiceDeps): void {
  d.registry.rebuild();
  d.events.emit({ type: 'tools.changed' });
}
