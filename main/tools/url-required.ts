import type { CallToolResult } from './types.js';

/** One out-of-band step an upstream asks the user to take in a browser (already http(s)-only). */
export interface UrlStep {
  url: string;
  message: string;
  elicitationId: string;
}

/** An upstream's `-32042`, as the call that got it carries it to the agent's request. */
export interface UrlRequired {
  /** The server's label: the steps are labelled as its, never as Airlock's. */
  server: string;
  steps: UrlStep[];
}

/**
 * A symbol, not a `_meta` key: nothing a server sends as JSON can make a result carry it, so only
 * Airlock's own handling of a real `-32042` does (main/remote/relay/url-required.ts). Spreads
 * keep it (the call path shapes results by spreading); a result that went through JSON (stored
 * after an approval) loses it and keeps its text, the answer for every other agent.
 */
const URL_REQUIRED = Symbol('airlock.urlRequired');

type Tagged = CallToolResult & { [URL_REQUIRED]?: UrlRequired };

/** Tags `result` with the steps (none: untags it). */
export function withUrlRequired(
  result: CallToolResult,
  required: UrlRequired | undefined,
): CallToolResult {
  if (required && required.steps.length) (result as Tagged)[URL_REQUIRED] = required;
  else delete (result as Tagged)[URL_REQUIRED];
  return result;
}

/** The steps a call's result carries for an agent that declared URL elicitation, if any. */
export function urlRequiredOf(result: CallToolResult): UrlRequired | undefined {
  return (result as Tagged)[URL_REQUIRED];
}
