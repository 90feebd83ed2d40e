import type { Tool } from '@modelcontextprotocol/server';
import type { CallOptions, CallToolResult } from '../tools/types.js';
import type { RelaySelf } from '../tools/relay-label.js';
import type { Logger } from '../platform/log.js';
import type { AgentBudgets } from './budgets.js';
import type { WaitingApproval } from './mcp-handlers/approval-url.js';
import type { AgentFeatures } from './mcp-handlers/api.js';

/**
 * What /mcp needs of the core, per authenticated agent. The app layer's
 * CallPipeline implements it; the gateway never imports the app layer.
 */
export interface AgentToolCalls {
  listTools(agent: string): Promise<Tool[]>;
  call(agent: string, name: string, args: unknown, opts: CallOptions): Promise<CallToolResult>;
  /**
   * For clients that speak URL elicitation (issue 16 item 1): the request a "waiting for
   * approval" answer names and its approval view; null for any other answer.
   */
  waitingApproval?(result: CallToolResult): WaitingApproval | null;
  /**
   * The tool's `execution.taskSupport` as this agent is offered it ('forbidden' when it declares
   * none), or null for a tool the agent may not call: for task-augmented calls (mcp-handlers/tasks.ts).
   */
  taskSupport?(agent: string, name: string): Promise<'forbidden' | 'optional' | 'required' | null>;
}

export interface McpEndpointOptions {
  pipeline: AgentToolCalls;
  features: AgentFeatures;
  logger: Logger;
  version: string;
  maxBodyBytes: number;
  /** Idle 2025-era sessions are closed after this long. */
  sessionIdleMs?: number;
  /** Per-agent session budget (issue 17.4). */
  budgets?: AgentBudgets;
  /** Airlock's own address: relayed links may not pose as it (issue 27.3, relay-label.ts). */
  self?: RelaySelf;
  /**
   * Issue 34: 2026-07-28 tools/call, tools/list and ping on one shared server per agent
   * (modern-hot.ts). Off: every request takes the SDK's per-request handler, the reference
   * modern-hot.test.ts proves the hot path answers equal to.
   */
  hotPath?: boolean;
  /**
   * Issue 34: an everyday tools/call is run and answered without the SDK Server's dispatch, in
   * both eras — a 2025 session's POST with one plain call (mcp-handlers/lone-call.ts), a
   * 2026-07-28 agent's on the hot path, escalating to its server for anything unusual
   * (mcp-handlers/modern-lone-call.ts). Off: the SDK path in both, the reference
   * lone-call.property.test.ts and modern-lone-call.property.test.ts hold them equal to.
   */
  loneCalls?: boolean;
}
