import { codeUnits, textPrefix } from '../../common/text-cut.js';
import type { ToolEntry } from '../tools/registry.js';
import { isDestructive, isReadOnly } from '../tools/types.js';
import type { ToolInfo } from './approval-view.js';

/** The approval card's facts about a tool: its server, whose words, its risk as the Tools page shows it. */
export function toolInfoOf(e: ToolEntry): ToolInfo {
  const hints: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(e.def.annotations ?? {}))
    if (typeof v === 'boolean') hints[k] = v;
  const thirdParty = e.source.kind !== 'builtin' && e.source.kind !== 'google';
  const grantShape = e.source.grantShape?.(e.def.name);
  return {
    name: e.name,
    ...(e.def.title ? { title: e.def.title } : {}),
    inputSchema: e.def.inputSchema,
    server: e.source.label,
    thirdParty,
    ...(thirdParty && e.def.description
      ? { description: textPrefix(e.def.description, 4000, codeUnits) }
      : {}),
    ...(thirdParty ? { hints } : {}),
    risk: isReadOnly(e.def) ? 'read-only' : isDestructive(e.def) ? 'destructive' : 'changes',
    ...(grantShape ? { grantShape } : {}),
  };
}
