import type { Server } from '@modelcontextprotocol/server';
import type { AgentToolCalls } from '../mcp-endpoint.js';
import { callWithApprovalUrl } from './approval-url.js';
import type { WithRelay } from './api.js';

/** tools/list and tools/call for one agent's server. */
export function registerToolHandlers(
  server: Server,
  agent: string,
  pipeline: AgentToolCalls,
  withRelay: WithRelay,
): void {
  server.setRequestHandler('tools/list', async () => ({
    tools: await pipeline.listTools(agent),
  }));
  server.setRequestHandler('tools/call', async (req, ctx) => {
    const token = req.params._meta?.progressToken;
    const progress =
      token === undefined
        ? undefined
        : (p: number, total?: number, message?: string) =>
            void ctx.mcpReq
              .notify({
                method: 'notifications/progress',
                params: {
                  progressToken: token,
                  progress: p,
                  ...(total !== undefined ? { total } : {}),
                  ...(message ? { message } : {}),
                },
              })
              .catch(() => {});
    // Approval waiting in MCP's own terms where the client supports it (issue 16 item 1,
    // approval-url.ts); relays of the upstream's own requests inside.
    return callWithApprovalUrl(
      { waitingApproval: (result) => pipeline.waitingApproval?.(result) ?? null },
      server,
      ctx,
      (noWait) =>
        withRelay(ctx, (relay, signal) =>
          pipeline.call(agent, req.params.name, req.params.arguments, {
            signal,
            relay,
            ...(progress ? { progress } : {}),
            ...(noWait ? { noWait } : {}),
          }),
        ),
    );
  });
}
