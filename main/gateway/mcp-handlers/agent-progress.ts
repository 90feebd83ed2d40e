import type { ServerContext } from '@modelcontextprotocol/server';
import type { ProgressSink } from '../../tools/types.js';

export type { ProgressSink };

/**
 * Runs a request's work with a progress channel to the agent when its request carried a
 * progressToken (basic/utilities/progress: any request may), none otherwise. Every notification
 * is handed to the transport before the result (issue 28, item 2): the answer waits for the sends
 * still under way, so none can follow it. Without a token the answer goes without waiting a turn.
 */
export function withAgentProgress<T>(
  ctx: ServerContext,
  token: string | number | undefined,
  run: (progress?: ProgressSink) => Promise<T>,
): Promise<T> {
  // Not async itself: an everyday call without a token costs no extra turn (issue 34).
  return token === undefined ? run() : withProgress(ctx, token, run);
}

const settled = (): undefined => undefined;

async function withProgress<T>(
  ctx: ServerContext,
  token: string | number,
  run: (progress: ProgressSink) => Promise<T>,
): Promise<T> {
  let sent: Promise<unknown> = Promise.resolve();
  const result = await run((p, total, message, meta) => {
    const sending = ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        // ProgressNotificationParams (MCP 2025-11-25 and 2026-07-28 schema): every field, the
        // server's `_meta` as filtered (server-progress.ts).
        params: {
          progressToken: token,
          progress: p,
          ...(total !== undefined ? { total } : {}),
          ...(message ? { message } : {}),
          ...(meta ? { _meta: meta } : {}),
        },
      })
      .catch(() => {});
    // Settled to undefined: Promise.all's own value would nest one array per notification, all
    // kept until the request ends (a server reporting fast for the call's ten minutes).
    sent = Promise.all([sent, sending]).then(settled);
  });
  await sent;
  return result;
}
