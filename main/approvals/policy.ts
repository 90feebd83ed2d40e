import { createHash } from 'node:crypto';
import type { ApprovalMode } from '../../common/contract/index.js';
import type { AgentSettings, Settings } from '../platform/settings.js';
import type { ToolEntry } from '../tools/registry.js';
import { isDestructive, isReadOnly } from '../tools/types.js';
import { canonicalJson } from './canonical.js';
import { annotationsFingerprintForm, schemaFingerprintForm } from './fingerprint-form.js';

/**
 * Which form of the definition a fingerprint hashes. 'current': set-like schema arrays in one
 * order and `annotations: {}` as none (fingerprint-form.ts), so a relisting that differs only
 * there keeps its grants. 'legacy': the definition as listed, as Airlock hashed it before; grants
 * and pending cards stored then hold that hash, and are compared against both (grants.ts,
 * shown-binding.ts) so an upgrade does not revoke them.
 */
export type FingerprintForm = 'current' | 'legacy';

export interface Policy {
  enabled: boolean;
  approval: ApprovalMode;
  /** Why `approval` is what it is, for the activity log. */
  via: 'default' | 'tool' | 'agent';
}

/** Read-only tools run; anything that sends, creates, changes or deletes asks. */
export function defaultApproval(entry: ToolEntry): ApprovalMode {
  return isReadOnly(entry.def) ? 'auto' : 'ask';
}

/**
 * The effective policy of one tool for one agent. Order: tool default →
 * user's tool setting → the agent's subset and overrides. Grants ("always
 * allow", issue 16 item 2) are checked per call against their arguments
 * (main/approvals/grants.ts), not here. Pure and allocation-light.
 */
export function resolvePolicy(
  settings: Settings,
  entry: ToolEntry,
  agent: AgentSettings | undefined,
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
  }
  return { enabled, approval, via };
}

export function needsDestructiveConfirmation(
  entry: ToolEntry,
  approval: ApprovalMode | undefined,
): boolean {
  return approval === 'auto' && isDestructive(entry.def);
}

/**
 * What a grant is bound to (issue 16 item 2): the tool's definition as the
 * user saw it, the server it comes from, and its policy for this agent. Any
 * change — a new description, schema or hint from the server, a server moved
 * to another URL or command or Google accounts changed (issue 27 item 5), a
 * changed setting — and the grant no longer applies.
 */
export function policyFingerprint(
  settings: Settings,
  entry: ToolEntry,
  agent: AgentSettings | undefined,
  form: FingerprintForm = 'current',
): string {
  return createHash('sha256')
    .update(
      canonicalJson({
        ...toolParts(entry, form),
        tool: settings.tools[entry.key] ?? null,
        override: agent?.overrides[entry.key] ?? null,
      }),
    )
    .digest('hex');
}

/**
 * Everything an approval card was made against: the tool's whole definition and whom it reaches
 * (a server's URL or command, the Google accounts), without the policy. An "always allow" makes
 * a grant bound to the definition as it is at the decision (policyFingerprint), so it is refused
 * unless this is as it was when the card was made (engine.ts): a server cannot have a grant made
 * on a description, hint or account list the user was not shown.
 */
export function toolFingerprint(entry: ToolEntry, form: FingerprintForm = 'current'): string {
  return createHash('sha256')
    .update(canonicalJson(toolParts(entry, form)))
    .digest('hex');
}

/**
 * What an allow once (or an edited allow) of this call runs, beside its arguments: the tool's
 * name and input schema (how the server reads the arguments) and whom it reaches (identity():
 * the server's URL or command). Not its title, description or annotations: they are words about
 * the tool, not what runs, and a server whose description carries a timestamp changes them on
 * every listing, so a card bound to them could never be allowed (engine.ts sameToolAsShown).
 * A source that resolves per call whom it reaches (ToolSource.identityFor: Gmail and Calendar,
 * whose definitions are Airlock's and are built from the accounts alone) is bound to the
 * account(s) this call goes out from, resolved by the code the call runs with, instead of its
 * definition and every account: connecting an unrelated account changes each tool's `account`
 * enum, not what this call does; the default account changed, or the named one removed or made
 * read-only, does.
 */
export function runFingerprint(
  entry: ToolEntry,
  args: Record<string, unknown>,
  form: FingerprintForm = 'current',
): string {
  const s = entry.source;
  const server = { kind: s.kind, id: s.id };
  const parts = s.identityFor
    ? { name: entry.name, server, reaches: s.identityFor(entry.def.name, args) }
    : {
        name: entry.name,
        inputSchema: schemaForm(entry.def.inputSchema, form),
        server: { ...server, identity: s.identity?.() ?? null },
      };
  return createHash('sha256').update(canonicalJson(parts)).digest('hex');
}

function toolParts(entry: ToolEntry, form: FingerprintForm): Record<string, unknown> {
  const d = entry.def;
  return {
    name: entry.name,
    title: d.title ?? null,
    description: d.description,
    inputSchema: schemaForm(d.inputSchema, form),
    annotations:
      form === 'legacy' ? (d.annotations ?? null) : annotationsFingerprintForm(d.annotations),
    trustedReadOnly: d.trustedReadOnly ?? false,
    server: {
      kind: entry.source.kind,
      id: entry.source.id,
      identity: entry.source.identity?.() ?? null,
    },
  };
}

const schemaForm = (schema: unknown, form: FingerprintForm) =>
  form === 'legacy' ? schema : schemaFingerprintForm(schema);
