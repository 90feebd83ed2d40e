import type { SettingsStore } from '../platform/settings.js';
import type { ToolEntry } from './registry.js';
import { isReadOnly } from './types.js';

/**
 * Only the user loosens (issue 17, item 2). A remote server's `readOnlyHint`
 * is a third party's claim: it sets a tool's default when the tool is first
 * seen (read-only → runs, anything else → asks), but a server cannot make a
 * tool looser afterwards. Each remote tool seen asking is pinned to `ask` in
 * the user's tool settings, so if its server later switches the hint to
 * read-only, the tool keeps asking until the user sets it to `auto` in
 * Airlock's window. The reverse (read-only → not) makes the tool ask at once,
 * and pins it from then on.
 *
 * Runs synchronously from the registry's change notification, before any
 * call can see the new definition.
 */
export function pinAskingRemoteTools(
  entries: Iterable<ToolEntry>,
  settings: SettingsStore,
): string[] {
  const current = settings.get().tools;
  const pin: string[] = [];
  for (const entry of entries) {
    if (entry.source.kind !== 'remote' || isReadOnly(entry.def)) continue;
    if (current[entry.key]?.approval === undefined) pin.push(entry.key);
  }
  if (pin.length > 0) {
    settings.update((s) => {
      for (const key of pin) s.tools[key] = { ...s.tools[key], approval: 'ask' };
    });
  }
  return pin;
}
