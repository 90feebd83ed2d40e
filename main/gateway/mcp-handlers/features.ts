import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { FeatureContext } from '../../tools/features.js';
import type { AgentFeatures, WithRelay } from './api.js';
import { withAgentProgress } from './agent-progress.js';

/**
 * Resources, templates, prompts, completion and logging for one agent's
 * server (issue 14, item 1). Reads are read-only: no approval, but the core
 * records each in Activity. Session-bound state (log level, subscriptions)
 * needs a 2025 session; `session` is undefined on the stateless 2026 era.
 */
export function registerFeatureHandlers(
  server: Server,
  agent: string,
  features: AgentFeatures,
  session: () => string | undefined,
  withRelay: WithRelay,
): void {
  // A read, prompt or completion that asked for progress gets the server's (agent-progress.ts).
  const withCtx = <T>(
    ctx: ServerContext,
    token: string | number | undefined,
    run: (f: FeatureContext) => Promise<T>,
  ) =>
    withAgentProgress(ctx, token, (asked) =>
      withRelay(
        ctx,
        (relay, signal, progress) =>
          run(progress ? { agent, signal, relay, progress } : { agent, signal, relay }),
        asked,
      ),
    );
  server.setRequestHandler('resources/list', async () => ({
    resources: await features.listResources(agent),
  }));
  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: await features.listResourceTemplates(agent),
  }));
  server.setRequestHandler('resources/read', (req, ctx) =>
    withCtx(ctx, req.params._meta?.progressToken, (f) =>
      features.readResource(agent, req.params.uri, f),
    ),
  );
  server.setRequestHandler('prompts/list', async () => ({
    prompts: await features.listPrompts(agent),
  }));
  server.setRequestHandler('prompts/get', (req, ctx) =>
    withCtx(ctx, req.params._meta?.progressToken, (f) =>
      features.getPrompt(agent, req.params.name, req.params.arguments, f),
    ),
  );
  server.setRequestHandler('completion/complete', (req, ctx) =>
    withCtx(ctx, req.params._meta?.progressToken, (f) => features.complete(agent, req.params, f)),
  );
  server.setRequestHandler('logging/setLevel', (req) => {
    const id = session();
    if (id) features.setLogLevel(id, req.params.level);
    return Promise.resolve({});
  });
  server.setRequestHandler('resources/subscribe', async (req) => {
    const id = session();
    if (id) await features.subscribe(id, req.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (req) => {
    const id = session();
    if (id) await features.unsubscribe(id, req.params.uri);
    return {};
  });
}
