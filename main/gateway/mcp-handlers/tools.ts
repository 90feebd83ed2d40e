import type { CallToolRequest, Server, ServerContext } from '@modelcontextprotocol/server';
import type { AgentToolCalls } from '../mcp-endpoint.js';
import { callWithApprovalUrl, type UrlElicitationDeps } from './approval-url.js';
import type { WithRelay } from './api.js';
import { throwIfUrlRequired } from './url-required-error.js';
import { PlainCallServer } from './call-server.js';
import type { StartTask } from './tasks.js';
import type { CallOptions } from '../../tools/types.js';

/** tools/list and tools/call for one agent's server. */
export function registerToolHandlers(
  server: Server,
  agent: string,
  pipeline: AgentToolCalls,
  withRelay: WithRelay,
  startTask?: StartTask,
): void {
  server.setRequestHandler('tools/list', async () => ({
    tools: await pipeline.listTools(agent),
  }));
  // Made once per server, not per call.
  const waiting: UrlElicitationDeps = {
    waitingApproval: (result) => pipeline.waitingApproval?.(result) ?? null,
  };
  const call = async (req: CallToolRequest, ctx: ServerContext) => {
    // A task-augmented call is answered with its task at once (tasks.ts, issue 28 item 5).
    const task = startTask?.(req.params, ctx);
    if (task) return (await task) as never;
    // Approval waiting in MCP's own terms where the client supports it (issue 16 item 1,
    // approval-url.ts); relays of the upstream's own requests inside.
    const answer = (progress?: (p: number, total?: number, message?: string) => void) =>
      callWithApprovalUrl(waiting, server, ctx, (noWait) =>
        withRelay(ctx, async (relay, signal) => {
          const opts: CallOptions = { signal, relay };
          if (progress) opts.progress = progress;
          if (noWait) opts.noWait = noWait;
          return throwIfUrlRequired(
            await pipeline.call(agent, req.params.name, req.params.arguments, opts),
            relay,
          );
        }),
      );
    const token = req.params._meta?.progressToken;
    // No progress asked, none can be under way: the answer goes without waiting a turn for it.
    if (token === undefined) return await answer();
    // Every progress notification is handed to the transport before the result (issue 28, item
    // 2): the answer waits for the sends still under way, so none can follow it.
    let sent: Promise<unknown> = Promise.resolve();
    const result = await answer((p, total, message) => {
      const sending = ctx.mcpReq
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
      sent = Promise.all([sent, sending]);
    });
    await sent;
    return result;
  };
  server.setRequestHandler('tools/call', call);
  // A 2025 session's server and the 2026-07-28 hot path's run it without the SDK's second request
  // check where that check surely passes (call-server.ts, tool-call-shapes.ts).
  if (server instanceof PlainCallServer) server.toolCall = call;
}
