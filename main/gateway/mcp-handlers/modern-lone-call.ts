import {
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
} from '@modelcontextprotocol/server';
import { levelRank } from '../../tools/features.js';
import { declaresUrlElicitation } from './approval-url.js';
import { parsedToolCall, plainToolCall, plainToolResult } from './tool-call-shapes.js';

/**
 * A 2026-07-28 agent's everyday `tools/call`, answered by the hot transport (modern-hot.ts)
 * without the SDK Server's dispatch (issue 34, wave 3 session 23): the call pipeline's steps run
 * straight from the POST, and a plain result leaves as one JSON write, encoded by the served
 * codec as `Protocol._onrequest` encodes it. Everything unusual is decided up front (eligible)
 * or escalated once the call has settled (`LoneOutcome`): the hot transport then hands the same
 * request to the SDK server, whose tools/call handler is given the settled outcome instead of
 * running the call again (mcp-endpoint.ts `presetOf`), so errors, input_required answers and
 * results the SDK's check must see are answered by the SDK's own code, byte for byte.
 * modern-lone-call.property.test.ts holds the two paths equal over generated traffic.
 */

/** The call the lone path runs: a plainToolCall's name and a copy of its arguments. */
export interface LoneCall {
  name: string;
  args: Record<string, unknown> | undefined;
  /** The request envelope's client capabilities (clientView in modern-hot.ts). */
  caps: unknown;
  /**
   * Its client declared URL elicitation (approval-url.ts): the steps run approval-url's choice
   * (noWait; a "waiting for approval" answer is Escalated, for the SDK to make input_required).
   */
  url: boolean;
  /**
   * The log level its envelope names (SEP-2577), if any: the steps then run the call on a
   * LoneLine (round-line.ts), so lines the upstream logs during it reach this request's stream as
   * on the SDK path (requestLog, onLine).
   */
  level: LoggingLevel | undefined;
}

/**
 * The steps tools.ts runs for a call without a progress token or task on the 2026-07-28 hot path
 * (mcp-endpoint.ts `loneSteps`): an input round on the request's own controller (`own`), the
 * relay tracked, `pipeline.call`, `throwIfUrlRequired` — inside approval-url.ts's per-call choice
 * for a client that declared URL elicitation (`url`). `key` is the id the hot transport gave the
 * request (its `ctx.mcpReq.id` on the SDK path): a log line goes to the server related to it.
 */
export type LoneSteps = (call: LoneCall, own: AbortController, key: number) => Promise<unknown>;

/**
 * A lone call's value that the SDK must answer though it may read as a plain result: a URL
 * elicitation client's "waiting for approval" answer (mcp-endpoint.ts loneRound), which the
 * SDK's handler turns into input_required (approval-url.ts). loneResult escalates it, and the
 * transport presets `value` (the steps' own value) for the SDK's handler.
 */
export class Escalated {
  constructor(readonly value: unknown) {}
}

/** How a lone call settled, for the SDK's handler when the transport escalates it. */
export type LoneOutcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Whether a lifted hot `tools/call` (modern-route.ts liftSureEnvelope) is everyday, decided
 * before anything runs: its `_meta` held envelope keys only (so no progress token, related task
 * or other key the SDK must see), the request is a plainToolCall whose parse parsedToolCall gives
 * (so the SDK's request checks surely pass, call-server.ts). Whether its client declared URL
 * elicitation is read here too, as approval-url.ts's supportsUrlElicitation reads the envelope (a
 * lifted envelope always has its capabilities, modern-route.ts envelopeSure), and the log level
 * it names, if any (envelopeSure proved it one of the SDK's levels; anything else is the SDK's to
 * refuse). Undefined for every other request, which the SDK server dispatches as before.
 */
export function loneCall(
  method: string,
  params: Record<string, unknown>,
  envelope: Record<string, unknown>,
): LoneCall | undefined {
  if (method !== 'tools/call' || '_meta' in params) return undefined;
  const level = envelope[LOG_LEVEL_META_KEY] as LoggingLevel | undefined;
  if (level !== undefined && !(typeof level === 'string' && levelRank(level) >= 0))
    return undefined;
  if (!plainToolCall({ method, params })) return undefined;
  const parsed = parsedToolCall({ params });
  if (!parsed) return undefined;
  const caps = envelope[CLIENT_CAPABILITIES_META_KEY];
  return {
    name: parsed.params['name'] as string,
    args: parsed.params['arguments'] as Record<string, unknown> | undefined,
    caps,
    url: declaresUrlElicitation(caps),
    level,
  };
}

/** The part of the served codec the lone path uses (Protocol._onrequest's encode step). */
export interface LoneEncoder {
  encodeResult(method: string, result: unknown, serverInfo: unknown): unknown;
  serverInfo: unknown;
}

/**
 * The answer's `result` for a settled value, as `Protocol._onrequest` encodes what
 * PlainCallServer's wrapper gives back for it — only where that wrapper gives a plain result
 * back as plainToolResult does; undefined (escalate) for an input_required answer, any other
 * result (the SDK's check decides it) and an encoding that throws (the SDK reports and answers
 * it).
 */
export function loneResult(value: unknown, encoder: LoneEncoder): unknown {
  // A result whose reading throws is the SDK's to answer too.
  try {
    // plainToolResult takes neither an input_required answer (its own `resultType` key is not
    // one it takes) nor an Escalated one (not a plain object): no test for them first (issue 34,
    // one SDK function less per call). lone-result.property.test.ts holds it to that test.
    const result = plainToolResult(value);
    return result && encoder.encodeResult('tools/call', result, encoder.serverInfo);
  } catch {
    return undefined;
  }
}
