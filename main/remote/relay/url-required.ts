import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { relayedLinkProblem } from '../../tools/relay-label.js';
import { errorResult, type CallToolResult, type ToolCallContext } from '../../tools/types.js';
import { noteUrlStep } from './relay-scope.js';
import { markUntrusted } from '../../tools/untrusted.js';
import type { UrlCompletions } from './url-completions.js';
import { withUrlRequired, type UrlStep } from '../../tools/url-required.js';

export type { UrlStep };

/** More than this many links in one error is not a sign-in step; the rest are not relayed. */
const MAX_STEPS = 3;
const MAX_ID_LENGTH = 200;

/**
 * The steps of an upstream's "URL elicitation required" error (MCP 2025-11-25, elicitation,
 * URL mode: `-32042` with `data.elicitations`), or null for any other failure. Only http(s)
 * links are taken: the URL comes from the server and ends up in front of the user.
 */
export function urlSteps(err: unknown): UrlStep[] | null {
  if (!(err instanceof ProtocolError) || err.code !== ProtocolErrorCode.UrlElicitationRequired)
    return null;
  const listed = (err.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(listed)) return null;
  const steps: UrlStep[] = [];
  for (const e of listed.slice(0, MAX_STEPS)) {
    if (!e || typeof e !== 'object') continue;
    const { url, message, elicitationId, mode } = e as Record<string, unknown>;
    if (mode !== undefined && mode !== 'url') continue;
    if (typeof url !== 'string' || typeof elicitationId !== 'string') continue;
    // The id comes back unchanged in the server's completion, so it is kept whole, not cut: an
    // id longer than this is not a step Airlock relays.
    if (elicitationId.length > MAX_ID_LENGTH) continue;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      continue;
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') continue;
    steps.push({
      url: parsed.href,
      message: typeof message === 'string' ? message.slice(0, 500) : '',
      elicitationId,
    });
  }
  return steps.length > 0 ? steps : null;
}

/** Less time than this left for the user's step: not worth holding the call for. */
const MIN_WAIT_MS = 5_000;

/** askToOpen's answer when every step was shown and the server said each is done: run again. */
export const RETRY = Symbol('retry after URL steps');

/**
 * Passes an upstream's `-32042` on to the agent the only way both protocol eras carry it: each
 * step goes to the agent as a URL-mode `elicitation/create` (on 2026-07-28, inside the call's
 * input_required round), which its client shows the user with the link. An agent that did not
 * declare URL elicitation gets the links in the answer instead, to show the user itself.
 *
 * With `waitMs`, when the agent showed every link and the server is one that sends
 * `notifications/elicitation/complete` (it has before), the call waits up to that long for the
 * completion of each (url-completions.ts) and then answers
 * RETRY: the server said it did not run the call, so running it once more is what the user's
 * step was for. Otherwise the call answers that it did not run and can be made again once the
 * user has finished.
 */
export async function askToOpen(
  steps: UrlStep[],
  ctx: ToolCallContext,
  server: string,
  o: {
    completions?: UrlCompletions;
    waitMs?: number;
    /** False: the user turned this server's requests off; the links only go in the answer. */
    relay?: boolean;
  } = {},
): Promise<CallToolResult | typeof RETRY> {
  const relay = o.relay === false ? undefined : ctx.relay;
  if (relay?.session !== undefined && relay.refusal('elicitation/create', { mode: 'url' }) === null)
    return passOn(steps, relay, server, o.completions);
  const shown: string[] = [];
  const listed: string[] = [];
  const refused: string[] = [];
  for (const step of steps) {
    const params = { mode: 'url', ...step };
    // A link posing as Airlock's own goes nowhere, in a prompt or in the answer (issue 27.3).
    const problem = relayedLinkProblem(step.url, relay?.self).refusal;
    if (problem) {
      refused.push(problem);
      continue;
    }
    if (relay && relay.refusal('elicitation/create', params) === null) {
      try {
        const answer = await relay.request({
          method: 'elicitation/create',
          params,
          server,
          signal: ctx.signal,
        });
        if (o.completions) noteUrlStep(o.completions, relay, 'elicitation/create', params, answer);
        if (answer.action === 'accept') {
          shown.push(new URL(step.url).host);
          continue;
        }
      } catch {
        // The agent could not take it (gone, timed out): the link goes in the answer instead.
      }
    }
    listed.push(`${step.url}${step.message ? ` (the server says: ${step.message})` : ''}`);
  }
  // The wait ends `waitMs` after the agent's request arrived, under agents' usual 60 s request
  // timeout, so the call runs again only while the agent still waits for it: a run it gave up on
  // could be made twice. Not known (a call run after an approval): no wait.
  const left =
    o.waitMs && ctx.startedAt !== undefined ? o.waitMs - (performance.now() - ctx.startedAt) : 0;
  const ids = steps.map((step) => step.elicitationId);
  if (
    listed.length === 0 &&
    refused.length === 0 &&
    o.completions?.announces &&
    left >= MIN_WAIT_MS
  )
    if (await o.completions.waitAll(ids, left, ctx.signal)) return RETRY;
  return answer(server, shown, listed, refused);
}

/**
 * A 2025 agent that declared URL elicitation (issue 28 item 5): the steps go to it as the
 * JSON-RPC error `-32042` itself, which the gateway raises from what the result carries
 * (tools/url-required.ts, gateway/mcp-handlers/url-required-error.ts); the text, with the links,
 * is what Activity records and what any other request that gets this result reads. Each step is
 * noted in `completions`, so the server's `notifications/elicitation/complete` reaches this
 * agent's session, and its client makes the call again. On 2026-07-28 the era has no `-32042`
 * (its URL elicitation is an input_required round), so such agents keep the relayed elicitation.
 */
function passOn(
  steps: UrlStep[],
  relay: NonNullable<ToolCallContext['relay']>,
  server: string,
  completions: UrlCompletions | undefined,
): CallToolResult {
  const listed: string[] = [];
  const refused: string[] = [];
  const passed: UrlStep[] = [];
  for (const step of steps) {
    const problem = relayedLinkProblem(step.url, relay.self).refusal;
    if (problem) {
      refused.push(problem);
      continue;
    }
    passed.push(step);
    completions?.sent(step.elicitationId, relay);
    listed.push(`${step.url}${step.message ? ` (the server says: ${step.message})` : ''}`);
  }
  const result = answer(server, [], listed, refused);
  return passed.length ? withUrlRequired(result, { server, steps: passed }) : result;
}

function answer(server: string, shown: string[], listed: string[], refused: string[]) {
  const head = `The remote server "${server}" did not run the call: it needs the user to finish a step in the browser first.`;
  const text =
    listed.length === 0 && shown.length > 0
      ? `${head} The user was shown the link (${shown.join(', ')}); call again once they have finished there.`
      : listed.length > 0
        ? `${head} Ask the user to open ${listed.length === 1 ? 'this link' : 'these links'} and finish there, then call again: ${listed.join('; ')}`
        : head;
  const tail = refused.length
    ? ` Airlock did not pass on ${refused.length === 1 ? 'a link' : `${refused.length} links`} of the server's: ${[...new Set(refused)].join('; ')}.`
    : '';
  return markUntrusted(errorResult(text + tail), server);
}
