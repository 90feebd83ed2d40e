import { createCalendarSource } from '../google/calendar/calendar-source.js';
import { createGmailSource } from '../google/gmail/index.js';
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
  // Google tools appear per connected account (an enum `account` argument) and follow account changes.
  for (const builtin of [
    createGmailSource(google.accounts),
    createCalendarSource(google.accounts),
  ]) {
    // A test source with the same id stands in for the built-in one.
    if (!extra.some((s) => s.id === builtin.id)) registry.add(builtin);
  }
  for (const source of extra) registry.add(source);
}
