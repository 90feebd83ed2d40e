import type { ToolRef } from './tools.js';

/** Agents (one token each) and their client setup. */

export interface AgentView {
  name: string;
  createdAt: string;
  lastSeen: string | null;
  connected: boolean;
  /** False when the vault no longer holds the agent's token: revoke and add it again. */
  hasToken: boolean;
  tools?: string[];
}

export interface ClientSetup {
  client: string;
  /** What to do with `text`: run it in a terminal, or paste it into the named file. */
  kind: 'command' | 'json' | 'toml';
  where: string;
  text: string;
  /** What else to know (a bridge it needs, trusted folders, how to reload). */
  note?: string;
}

export interface NewAgent {
  agent: AgentView;
  /** Shown once; Airlock cannot show it again. */
  token: string;
  mcpUrl: string;
  setup: ClientSetup[];
}

export interface AgentsApi {
  listAgents(): Promise<AgentView[]>;
  addAgent(name: string): Promise<NewAgent>;
  revokeAgent(name: string): Promise<void>;
  /**
   * Limits an agent to these tools; null lifts the limit. A tool is named by its public name, or
   * as the caller saw it (ToolRef: name and stable key): then the call is refused with CONFLICT,
   * changing nothing, when the name now names another tool.
   */
  setAgentTools(name: string, tools: (string | ToolRef)[] | null): Promise<AgentView>;
}
