import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  type ClientCapabilities,
  type InputRequiredResult,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { CallToolResult } from '../../tools/types.js';

/**
 * Protocol-native waiting for approval (issue 16 item 1). A client that
 * declared URL-mode elicitation (MCP 2025-11-25 `elicitation: { url: {} }`,
 * or the same in a 2026-07-28 request's capability envelope) is not kept
 * blocking and then told to "call again": the call answers at once with an
 * `input_required` result carrying a URL elicitation that points at this
 * request's approval view. The SDK carries it in each era's own terms —
 * `input_required` on 2026-07-28; on 2025 sessions its legacy shim sends the
 * client a real `elicitation/create` (mode `url`) and re-enters the handler
 * when the client answers. Either way the retry has the same arguments, so it
 * attaches to the same request (attach-on-repeat) and runs it exactly once.
 *
 * The URL carries no control token: the page asks for the one the user's own
 * browser tab already holds, or says to open Airlock.
 */

/** A call that waits for the user: its request id and the page where it is decided. */
export interface WaitingApproval {
  id: string;
  url: string;
}

export interface UrlElicitationDeps {
  /**
   * The approval view of the request a "waiting for approval" answer names; null when `result`
   * is not such an answer or the gateway URL is not known yet. The call path knows its own
   * answers (AgentToolCalls.waitingApproval); the gateway only carries the link.
   */
  waitingApproval: (result: CallToolResult) => WaitingApproval | null;
}

/** True when the client that sent this request declared URL-mode elicitation. */
export function supportsUrlElicitation(server: Server, ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return declaresUrlElicitation(
    envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? server.getClientCapabilities(),
  );
}

/**
 * True when these client capabilities declare URL-mode elicitation: supportsUrlElicitation's
 * reading, shared with the 2026-07-28 lone path, which has the envelope's capabilities but no
 * context (modern-lone-call.ts).
 */
export function declaresUrlElicitation(capabilities: unknown): boolean {
  const elicitation = (capabilities as ClientCapabilities | undefined)?.elicitation as
    Record<string, unknown> | undefined;
  return Boolean(elicitation && typeof elicitation === 'object' && elicitation['url']);
}

/**
 * Runs a tools/call for an agent whose client may speak URL elicitation.
 * `call(noWait)`: the pipeline call; with noWait it answers "waiting" at once
 * instead of blocking for the bounded wait.
 */
export function callWithApprovalUrl(
  deps: UrlElicitationDeps,
  server: Server,
  ctx: ServerContext,
  call: (noWait: boolean) => Promise<CallToolResult>,
): Promise<CallToolResult | InputRequiredResult> {
  // The call's own promise, not one an async function wraps it in: that wrapping cost the answer
  // three microtask turns on every call of a client without URL elicitation (issue 34).
  if (!supportsUrlElicitation(server, ctx)) return call(false);
  return offeringApprovalUrl(deps, ctx, call);
}

/** callWithApprovalUrl for a client that declared URL elicitation. */
async function offeringApprovalUrl(
  deps: UrlElicitationDeps,
  ctx: ServerContext,
  call: (noWait: boolean) => Promise<CallToolResult>,
): Promise<CallToolResult | InputRequiredResult> {
  // A retry that answers our elicitation waits the bounded time as usual (the user is deciding
  // now); if still undecided it gets the plain "call again" answer, so it is asked at most once.
  // On 2025 the SDK's legacy shim puts the client's answer there when it re-enters the handler.
  const answered = ctx.mcpReq.inputResponses !== undefined;
  const result = await call(!answered);
  const waiting = answered ? null : deps.waitingApproval(result);
  if (!waiting) return result;
  const { id, url } = waiting;
  return inputRequired({
    inputRequests: {
      [`airlock-approval-${id}`]: inputRequired.elicitUrl({
        message:
          'This call needs your approval in Airlock. Open the link to see exactly what it will do and decide; ' +
          'the call runs once, as soon as you allow it.',
        url,
      }),
    },
  });
}
