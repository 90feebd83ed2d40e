import type { ApprovalMode } from '../../common/contract/index.js';
import type { AgentSettings, Settings } from '../platform/settings.js';
import type { ToolEntry } from '../tools/registry.js';
import { isDestructive, isReadOnly } from '../tools/types.js';

export interface Policy {
  enabled: boolean;
  approval: ApprovalMode;
  /** Why `approval` is what it is, for the activity log. */
  via: 'default' | 'tool' | 'agent' | 'grant';
  grantedUntil?: string | null;
}

/** Read-only tools run; anything that sends, creates, changes or deletes asks. */
export function defaultApproval(entry: ToolEntry): ApprovalMode {
  return isReadOnly(entry.def) ? 'auto' : 'ask';
}

/**
 * The effective policy of one tool for one agent. Order: tool default →
 * user's tool setting → the agent's subset and overrides → an unexpired
 * "always allow" grant. Pure and allocation-light: it runs on every call.
 */
export function resolvePolicy(
  settings: Settings,
  entry: ToolEntry,
  agent: AgentSettings | undefined,
  now: number = Date.now(),
): Policy {
  const tool = settings.tools[entry.key];
  let enabled = tool?.enabled ?? true;
  let approval = tool?.approval ?? defaultApproval(entry);
  let via: Policy['via'] = tool?.approval ? 'tool' : 'default';
  if (agent) {
    if (agent.tools && !agent.tools.includes(entry.key)) enabled = false;
    const override = agent.overrides[entry.key];
    if (override?.enabled !== undefined) enabled = override.enabled;
    if (override?.approval) {
      approval = override.approval;
      via = 'agent';
    }
    if (approval === 'ask' && Object.hasOwn(agent.grants, entry.key)) {
      const until = agent.grants[entry.key] ?? null;
      if (until === null || Date.parse(until) > now) {
        return { enabled, approval: 'auto', via: 'grant', grantedUntil: until };
      }
    }
  }
  return { enabled, approval, via };
}

export function needsDestructiveConfirmation(
  entry: ToolEntry,
  approval: ApprovalMode | undefined,
): boolean {
  return approval === 'auto' && isDestructive(entry.def);
}
