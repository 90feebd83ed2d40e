import { lazyCalendarSource, lazyGmailSource } from '../google/lazy-source.js';
import type { GoogleService } from '../google/google-service.js';
import type { ToolRegistry } from '../tools/registry.js';
import { StatusSource, type StatusReport } from '../tools/status-source.js';
import type { ToolSource } from '../tools/types.js';

/** Registers the built-in sources (Airlock's status tool, Gmail, Calendar) and any test sources. */
export function addToolSources(
  registry: ToolRegistry,
  google: GoogleService,
  extra: ToolSource[],
  report: (agent: string) => StatusReport,
): void {
  registry.add(new StatusSource(report));
  // Google tools appear per connected account (an enum `account` argument) and follow account changes;
  // their modules load once an account is connected (issue 34, main/google/lazy-source.ts).
  for (const builtin of [lazyGmailSource(google.accounts), lazyCalendarSource(google.accounts)]) {
    // A test source with the same id stands in for the built-in one.
    if (!extra.some((s) => s.id === builtin.id)) registry.add(builtin);
  }
  for (const source of extra) registry.add(source);
}
