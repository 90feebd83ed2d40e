import type { ApprovalMode } from './approvals.js';

/** Tools as the user sees and shapes them. */

export interface ToolView {
  /** Name agents see. */
  name: string;
  /** Stable key (`source/tool`) that settings are stored under. */
  key: string;
  source: string;
  title?: string;
  description: string;
  readOnly: boolean;
  destructive: boolean;
  enabled: boolean;
  approval: ApprovalMode;
  /** True when the user changed enabled/approval from the default. */
  customized: boolean;
  inputSchema: Record<string, unknown>;
  /** Why agents are not offered this tool (a source that knows Airlock cannot run it). */
  unavailable?: string;
  /**
   * Why agents cannot use this tool now, when they cannot (issue 28 item 5): the page says it on
   * the tool's row. Absent: offered and usable.
   */
  notOffered?: ToolNotOffered;
  /** Present when listed for one agent. */
  agent?: string;
  grantedUntil?: string | null;
}

/** Why a tool is not offered to agents now, or cannot run when called. */
export interface ToolNotOffered {
  reason:
    | 'turned-off' // the user switched it off for every agent
    | 'turned-off-for-agent' // the user switched it off for this agent
    | 'not-chosen-for-agent' // the agent is limited to other tools
    | 'server-down' // its server is not connected: its tools are listed as last seen
    | 'sign-in' // its server needs the user to sign in again
    | 'google-scope' // no connected Google account allowed what it needs
    | 'unsupported'; // Airlock cannot relay it (e.g. task-augmented calls)
  /** The reason in words, a sentence the page shows as it is. */
  text: string;
}

/**
 * A tool as a caller saw it: the public name it was listed under and its stable key then. A
 * public name can pass to another tool (a server relists its tools and a new tool's name cleans
 * up to the same one and sorts first: docs/remote.md), so a change naming a tool this way applies
 * to the tool of that key or not at all (CONFLICT, nothing changed).
 */
export interface ToolRef {
  name: string;
  key: string;
}

export interface ToolPolicyPatch {
  /**
   * The stable key of the tool the caller means (the row it showed, ToolView.key). Given, the
   * call is refused with CONFLICT and changes nothing when the name now names another tool.
   * Absent: the change applies to whatever tool the name names when it runs (older callers).
   */
  key?: string;
  enabled?: boolean;
  approval?: ApprovalMode;
  /** Apply to one agent only. */
  agent?: string;
  /** Required to make a destructive tool `auto`. */
  confirmDestructive?: boolean;
}

export interface ToolsApi {
  listTools(agent?: string): Promise<ToolView[]>;
  setToolPolicy(name: string, patch: ToolPolicyPatch): Promise<ToolView>;
}
