import type { Tool } from '@modelcontextprotocol/client';
import { listAllTools, type Upstream } from './upstream.js';

/**
 * Is the server alive? (issue 14, item 5). The 2025 era has `ping`; the
 * 2026-07-28 era has none (and no session or standing stream that would
 * drop), so there a cheap `tools/list` answers — and its answer doubles as
 * change detection: a restarted server's new tools show up with it.
 * Resolves with the tool list when one was fetched; rejects as the request did.
 */
export async function checkHealth(up: Upstream, timeoutMs: number): Promise<Tool[] | null> {
  if (up.client.getProtocolEra() === 'modern') return listAllTools(up, timeoutMs);
  await up.client.ping({ timeout: timeoutMs });
  return null;
}
