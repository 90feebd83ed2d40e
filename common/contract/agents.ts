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
  /** Limits an agent to these tools (public names); null lifts the limit. */
  setAgentTools(name: string, tools: string[] | null): Promise<AgentView>;
}
