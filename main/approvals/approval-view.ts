import { codeUnits, textPrefix } from '../../common/text-cut.js';
import type { AllowRefusals, ApprovalView, ToolRisk } from '../../common/contract/index.js';
import type { ApprovalRow } from '../store/approval-store.js';
import type { GrantShape } from '../tools/types.js';
import { grantOptions } from './grant-options.js';

/** What the approval card needs to know about a tool, from its current definition. */
export interface ToolInfo {
  name: string;
  title?: string;
  inputSchema: Record<string, unknown>;
  /** The source's label ("Gmail", the MCP server's name). */
  server: string;
  /** True for tools of servers Airlock does not vouch for: their words are shown as theirs. */
  thirdParty: boolean;
  description?: string;
  /** The server's annotations (hints), boolean ones only. */
  hints?: Record<string, boolean>;
  risk: ToolRisk;
  /** How the tool reads its own recipients, for the grant dialog's scopes (issue 27 item 1). */
  grantShape?: GrantShape;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The request as every UI shows it (issue 16 item 4: whose words are whose). */
export function approvalView(
  row: ApprovalRow,
  info: ToolInfo | undefined,
  agentWaiting: boolean,
  /** What an allow would be refused with now (shown-binding.ts allowRefusals); pending only. */
  refused?: AllowRefusals,
): ApprovalView {
  const outcome = row.result?.content?.find((c) => c.type === 'text');
  const thirdParty = info?.thirdParty ?? true;
  return {
    id: row.id,
    agent: row.agent,
    tool: info?.name ?? row.tool,
    ...(info?.title ? { toolTitle: info.title } : {}),
    effect: row.effect,
    server: info?.server ?? 'an unavailable server',
    thirdParty,
    ...(info?.description ? { description: info.description } : {}),
    ...(info?.hints && Object.keys(info.hints).length ? { hints: info.hints } : {}),
    risk: info?.risk ?? 'destructive',
    arguments: row.args,
    inputSchema: info?.inputSchema ?? { type: 'object' },
    state: row.state,
    createdAt: iso(row.createdAt),
    expiresAt: iso(row.expiresAt),
    ...(row.decidedAt ? { decidedAt: iso(row.decidedAt) } : {}),
    ...(row.reason ? { reason: row.reason } : {}),
    ...(row.editedArgs ? { editedArguments: row.editedArgs } : {}),
    ...(outcome && outcome.type === 'text'
      ? { outcome: textPrefix(outcome.text, 300, codeUnits) }
      : {}),
    agentWaiting,
    ...(!agentWaiting && row.agentLeftAt ? { agentLeftAt: iso(row.agentLeftAt) } : {}),
    ...(row.decisionKind ? { decisionKind: row.decisionKind } : {}),
    ...(row.grantId ? { grantId: row.grantId } : {}),
    ...(row.taint ? { taint: row.taint } : {}),
    ...(row.state === 'pending' ? { grantOptions: grantOptions(row.args, info?.grantShape) } : {}),
    ...(row.state === 'pending' && refused ? { refused } : {}),
  };
}
