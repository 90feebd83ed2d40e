import type { AgentView, NewAgent, ToolRef } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import { clientSetups } from '../clients/client-setup.js';
import type { ControlServiceDeps } from './control-deps.js';
import { toolNamed } from './tool-named.js';
import { afterPolicyChange } from './tools-control.js';

/** Agents (ControlApi's agents domain): tokens, revocation, which tools each one sees. */
export class AgentsControl {
  constructor(private readonly d: ControlServiceDeps) {}

  async listAgents(): Promise<AgentView[]> {
    const connected = this.d.connectedAgents();
    return this.d.agents.list((n) => connected.has(n));
  }

  async addAgent(name: string): Promise<NewAgent> {
    const { agent, token } = await this.d.agents.add(name);
    this.d.events.emit({ type: 'state.changed' });
    const mcpUrl = this.d.mcpUrl();
    return { agent, token, mcpUrl, setup: clientSetups(mcpUrl, token) };
  }

  async revokeAgent(name: string): Promise<void> {
    // Its grants and requests end with it: an agent added later under the same name starts
    // with none, and a pending request of the revoked agent can no longer be approved into running.
    // Nor does a grant, tool or policy it was asked for that still waits for the user's confirmation.
    // In the step that takes it out of settings (AgentService.onRevoked), before the keychain
    // deletes its token: the name is free from then on, and a keychain that is slow (the name
    // added again meanwhile) or refuses must not leave them to the next agent under it
    // (loosening-grant-agent.security.test.ts).
    // AgentService logs and goes on when a listener throws; the caller is told, as before.
    let failed: { err: unknown } | null = null;
    const off = this.d.agents.onRevoked((revoked) => {
      if (revoked !== name) return;
      try {
        this.d.grants.revokeFor(name, null);
        this.d.approvals.forgetAgent(name);
        this.d.policyChanges?.failFor(
          name,
          `Agent "${name}" was revoked; nothing was changed. An agent added under that name starts with none of it.`,
        );
      } catch (err) {
        failed = { err };
        throw err;
      }
    });
    try {
      await this.d.agents.revoke(name);
    } finally {
      off();
      this.d.events.emit({ type: 'state.changed' });
    }
    if (failed) throw (failed as { err: unknown }).err;
  }

  async setAgentTools(name: string, tools: (string | ToolRef)[] | null): Promise<AgentView> {
    if (tools !== null && (!Array.isArray(tools) || !tools.every(isToolName))) {
      throw new ControlError(
        'INVALID',
        'tools must be a list of tool names (or {name, key} as listed), or null for every tool.',
      );
    }
    // Each name is checked against the key the caller saw (if given) in the registry reading the
    // write below uses, with no await between them (tool-named.ts).
    const keys = tools?.map((tool) =>
      typeof tool === 'string'
        ? toolNamed(this.d.registry, tool).key
        : toolNamed(this.d.registry, tool.name, tool.key).key,
    );
    this.d.agents.update(name, (a) => {
      if (keys) a.tools = keys;
      else delete a.tools;
    });
    afterPolicyChange(this.d);
    return (await this.listAgents()).find((a) => a.name === name)!;
  }
}

const isToolName = (t: unknown): t is string | ToolRef =>
  typeof t === 'string' ||
  (typeof t === 'object' &&
    t !== null &&
    typeof (t as ToolRef).name === 'string' &&
    typeof (t as ToolRef).key === 'string');
