import type * as ServerSdk from '@modelcontextprotocol/server';

/**
 * The parts of the MCP server SDK that code outside the gateway needs at run
 * time (protocol errors, URI templates), without loading the SDK at start
 * (issue 20: it loads with the first /mcp request; main/app/lazy-start.test.ts).
 * The app loads it together with the /mcp endpoint, before any request is
 * handled, so the same module instance the SDK's server uses is the one here
 * (a ProtocolError from another copy would not be recognised as one).
 */
let sdk: typeof ServerSdk | null = null;

export async function loadProtocolRuntime(): Promise<void> {
  sdk ??= await import('@modelcontextprotocol/server');
}

/** A JSON-RPC "invalid params" error (-32602), as the SDK's server answers it. */
export function invalidParams(message: string): Error {
  if (!sdk) return new Error(message);
  return new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidParams, message);
}

/** Whether `uri` fits the RFC 6570 template (exact comparison before the SDK is loaded). */
export function templateMatches(template: string, uri: string): boolean {
  if (!sdk) return template === uri;
  return new sdk.UriTemplate(template).match(uri) !== null;
}
