import type { CallToolRequest, Server, ServerContext } from '@modelcontextprotocol/server';
import type { AgentToolCalls } from '../mcp-endpoint.js';
import { callWithApprovalUrl, type UrlElicitationDeps } from './approval-url.js';
import type { WithRelay } from './api.js';
import { throwIfUrlRequired } from './url-required-error.js';
import { PlainCallServer } from './call-server.js';
import { withAgentProgress, type ProgressSink } from './agent-progress.js';
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
  // One call's steps once it is neither a task nor offered the approval URL: the relay, the
  // pipeline, the URL-required error. Shared by the call below and a 2025 session's lone call
  // (lone-call.ts), which runs exactly these for a call without a progressToken: plainCall for a
  // client without URL elicitation, urlCall (approval-url.ts's choice around them) for one with.
  const steps = (
    ctx: ServerContext,
    params: CallToolRequest['params'],
    asked: ProgressSink | undefined,
    noWait: boolean,
  ) =>
    withRelay(
      ctx,
      async (relay, signal, progress) => {
        const opts: CallOptions = { signal, relay };
        if (progress) opts.progress = progress;
        if (noWait) opts.noWait = noWait;
        return throwIfUrlRequired(
          await pipeline.call(agent, params.name, params.arguments, opts),
          relay,
        );
      },
      asked,
    );
  const call = async (req: CallToolRequest, ctx: ServerContext) => {
    // A task-augmented call is answered with its task at once (tasks.ts, issue 28 item 5).
    const task = startTask?.(req.params, ctx);
    if (task) return (await task) as never;
    // Approval waiting in MCP's own terms where the client supports it (issue 16 item 1,
    // approval-url.ts); relays of the upstream's own requests inside.
    const answer = (asked?: ProgressSink) =>
      callWithApprovalUrl(waiting, server, ctx, (noWait) => steps(ctx, req.params, asked, noWait));
    return withAgentProgress(ctx, req.params._meta?.progressToken, answer);
  };
  server.setRequestHandler('tools/call', call);
  // A 2025 session's server and the 2026-07-28 hot path's run it without the SDK's second request
  // check where that check surely passes (call-server.ts, tool-call-shapes.ts).
  if (server instanceof PlainCallServer) {
    server.toolCall = call;
    // (A 2025 session's server then gets the same steps in one frame: McpEndpoint.trackedCall.)
    server.plainCall = (params, ctx) =>
      steps(ctx, params as CallToolRequest['params'], undefined, false);
    // The same for a client that declared URL elicitation: approval-url.ts's choice, with the
    // lone call's own context (its retry's, when the SDK's legacy shim runs it again).
    server.urlCall = (params, ctx) =>
      callWithApprovalUrl(waiting, server, ctx, (noWait) =>
        steps(ctx, params as CallToolRequest['params'], undefined, noWait),
      );
  }
}
