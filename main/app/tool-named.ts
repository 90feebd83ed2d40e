import { nameMoved, noToolNamed } from '../tools/name-moved.js';
import type { ToolEntry, ToolRegistry } from '../tools/registry.js';

/**
 * The tool a policy change names, read from the registry the change then writes under: the
 * caller's check and the change's own lookup are this one reading (tools-control.ts
 * setToolPolicy, agents-control.ts setAgentTools call it with no await before their write).
 *
 * `key`, when given, is the stable key of the tool the caller saw under `name` (the Tools page's
 * row, the CLI's listing). A public name can pass to another tool meanwhile: a server relists its
 * tools and a new tool whose name cleans up to the same one sorts first (docs/remote.md, public
 * names). The user's change must not reach that other tool, so it is refused (CONFLICT) and
 * changes nothing; the caller lists the tools again. Without `key` (older callers), the tool the
 * name names now.
 */
export function toolNamed(registry: ToolRegistry, name: string, key?: string): ToolEntry {
  const entry = registry.get(name);
  const moved =
    key === undefined
      ? undefined
      : nameMoved(name, key, entry?.key, (k) => registry.getByKey(k) !== undefined);
  if (moved) throw moved;
  if (!entry) throw noToolNamed(name);
  return entry;
}
