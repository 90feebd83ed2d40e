import type { AgentService } from '../agents/agent-service.js';
import { resolvePolicy } from '../approvals/policy.js';
import type { GoogleService } from '../google/google-service.js';
import type { SettingsStore } from '../platform/settings.js';
import type { ToolRegistry } from '../tools/registry.js';

/** What the built-in status tool tells an agent: its visible tools, servers, accounts. */
export function statusReport(
  app: {
    readonly settings: SettingsStore;
    readonly agents: AgentService;
    readonly registry: ToolRegistry;
    readonly version: string;
    readonly google: GoogleService;
  },
  agent: string,
) {
  const settings = app.settings.get();
  const agentSettings = app.agents.get(agent);
  const visible = app.registry
    .entries()
    .map((e) => ({ e, p: resolvePolicy(settings, e, agentSettings) }))
    .filter((x) => x.p.enabled);
  return {
    version: app.version,
    paused: settings.paused,
    accounts: app.google.statusAccounts(),
    servers: app.registry
      .listSources()
      .filter((s) => s.kind === 'remote')
      .map((s) => {
        const st = s.status();
        return {
          name: s.label,
          state: st.state,
          ...(st.state === 'error' ? { detail: st.detail } : {}),
          tools: s.tools().length,
        };
      }),
    tools: {
      total: visible.length,
      needApproval: visible.filter((x) => x.p.approval === 'ask').map((x) => x.e.name),
    },
  };
}
