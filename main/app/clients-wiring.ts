import { homedir } from 'node:os';
import type { ClientsApi } from '../../common/contract/index.js';
import type { AgentService } from '../agents/agent-service.js';
import { clientsEnvFrom } from '../clients/client-defs.js';
import type { CoreEvents } from '../platform/events.js';
import type { Logger } from '../platform/log.js';
import type { SettingsStore } from '../platform/settings.js';
import type { AppOptions } from './app-options.js';
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
  },
  options: AppOptions,
): Promise<ClientsApi> {
  const { ClientsControl } = await import('../clients/clients-control.js');
  const settings = app.settings;
  return new ClientsControl({
    env: options.clientsEnv ?? clientsEnvFrom(process.env, homedir(), process.platform),
    logger: app.logger,
    // The configured port: the CLI's own core may run on a spare one, `airlock serve` uses this.
    mcpUrl: () => `http://127.0.0.1:${settings.get().port}/mcp`,
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
