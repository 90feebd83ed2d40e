import { homedir } from 'node:os';
import type { ClientsApi } from '../../common/contract/index.js';
import type { AgentService } from '../agents/agent-service.js';
import { clientsEnvFrom } from '../clients/client-defs.js';
import type { CoreEvents } from '../platform/events.js';
import type { Logger } from '../platform/log.js';
import type { SettingsStore } from '../platform/settings.js';
import type { AppOptions, Started } from './app-options.js';
import type { ControlService } from './control-service.js';

/**
 * The clients' config files (issue 15); jsonc-parser and the TOML parser load only when asked.
 * `app`'s control and agents are read when used, not now.
 */
export async function loadClients(
  app: {
    readonly control: ControlService;
    readonly agents: AgentService;
    readonly events: CoreEvents;
    readonly logger: Logger;
    readonly settings: SettingsStore;
    readonly started: Started | null;
  },
  options: AppOptions,
): Promise<ClientsApi> {
  const { ClientsControl } = await import('../clients/clients-control.js');
  const settings = app.settings;
  const liveUrl = () => (options.shortLived ? null : (app.started?.mcpUrl ?? null));
  return new ClientsControl({
    env: options.clientsEnv ?? clientsEnvFrom(process.env, homedir(), process.platform),
    logger: app.logger,
    // One source of truth (issue 29.1): the URL this Airlock's server answers on — whatever --port,
    // AIRLOCK_PORT or `up.sh --port 0` chose. Only the CLI's short-lived core (on a spare port, gone
    // after the command) writes the configured port instead, where `airlock serve` listens by default.
    mcpUrl: () => liveUrl() ?? `http://127.0.0.1:${settings.get().port}/mcp`,
    live: () => liveUrl() !== null,
    isAgentToken: (token) => app.agents.authenticate(token) !== null,
    listServers: () => app.control.listRemotes(),
    addServer: (input) => app.control.addRemote(input),
    agentToken: async (agent, create) => {
      if (app.agents.get(agent)) return app.agents.token(agent);
      if (!create) return null;
      const { token } = await app.agents.add(agent);
      app.events.emit({ type: 'state.changed' });
      return token;
    },
  });
}
