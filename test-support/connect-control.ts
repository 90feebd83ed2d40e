import { Logger } from '../main/platform/log.js';
import { ClientsControl, type ClientsDeps } from '../main/clients/clients-control.js';
import type { sampleHome } from './client-configs.js';

/** The clock the connect tests stamp backups with: a fixed second, so a name is known in advance. */
export const FIXED_NOW = new Date('2026-03-04T05:06:07.890Z');
/** FIXED_NOW as a backup name carries it (clients-control.ts: ISO, no separators, no fraction). */
export const FIXED_STAMP = '20260304T050607';

/**
 * A ClientsControl over a sample home for the `clients connect` tests: no servers to import, a
 * fixed agent token, a fixed clock; `over` replaces any of these.
 */
export function connectControl(
  h: ReturnType<typeof sampleHome>,
  token: string,
  over: Partial<ClientsDeps> = {},
): ClientsControl {
  return new ClientsControl({
    env: h.env,
    logger: new Logger({ stderr: false }),
    mcpUrl: () => 'http://127.0.0.1:47999/mcp',
    listServers: async () => [],
    addServer: async () => {
      throw new Error('no import in this test');
    },
    agentToken: async () => token,
    now: () => FIXED_NOW,
    ...over,
  });
}
