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
  /** Present when listed for one agent. */
  agent?: string;
  grantedUntil?: string | null;
}

export interface ToolPolicyPatch {
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
