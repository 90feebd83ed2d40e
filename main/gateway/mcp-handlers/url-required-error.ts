import type { ClientRelay } from '../../tools/relay.js';
import { labelRelayed } from '../../tools/relay-label.js';
import type { CallToolResult } from '../../tools/types.js';
import { urlRequiredOf, type UrlRequired } from '../../tools/url-required.js';

/**
 * An upstream's "URL elicitation required" as the JSON-RPC error it is (MCP 2025-11-25,
 * client/elicitation, "URL mode": `-32042` with `data.elicitations`), for a 2025 session whose
 * client declared URL elicitation in `initialize` (issue 28 item 5). 2026-07-28 has no `-32042`
 * (the SDK refuses to send it there: the era's URL elicitation is an input_required round,
 * which such agents get, url-required.ts). Each step goes through the same
 * labelling as a relayed URL elicitation (relay-label.ts): its message starts with the server's
 * label, a link posing as Airlock's is dropped. Any other agent keeps the call's text answer.
 * The SDK is imported here, not at the top: it loads with the first /mcp request (issue 20).
 */
export function throwIfUrlRequired(
  result: CallToolResult,
  relay: ClientRelay,
): CallToolResult | Promise<CallToolResult> {
  const required = urlRequiredOf(result);
  // Every other answer as it is, not in an async function's promise: the handler that returns it
  // would wait three microtask turns more for that promise (issue 34).
  if (!required || relay.session === undefined) return result;
  return urlRequiredError(result, required, relay);
}

async function urlRequiredError(
  result: CallToolResult,
  required: UrlRequired,
  relay: ClientRelay,
): Promise<CallToolResult> {
  const elicitations = [];
  for (const step of required.steps) {
    const params = { mode: 'url', ...step };
    if (relay.refusal('elicitation/create', params) !== null) return result;
    const labelled = labelRelayed(
      { method: 'elicitation/create', params, server: required.server },
      relay.self,
    );
    if ('params' in labelled) elicitations.push(labelled.params);
  }
  if (elicitations.length === 0) return result;
  const { UrlElicitationRequiredError } = await import('@modelcontextprotocol/server');
  throw new UrlElicitationRequiredError(
    elicitations as ConstructorParameters<typeof UrlElicitationRequiredError>[0],
    `The remote server "${required.server}" did not run the call: it needs the user to finish a step in the browser first, then the call can be made again.`,
  );
}
