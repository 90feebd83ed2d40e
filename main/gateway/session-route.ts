import {
  PROTOCOL_VERSION_META_KEY,
  RELATED_TASK_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  type InboundClassificationOutcome,
  type InboundLegacyRoute,
  type JSONRPCRequest,
} from '@modelcontextprotocol/server';

/** The first protocol revision the SDK's classifier treats as the modern era (a string order). */
const FIRST_MODERN = '2026-07-28';
const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
// Shared by every answer: frozen, so no caller can change what the next one gets.
const LEGACY: InboundLegacyRoute = Object.freeze({ kind: 'legacy', reason: 'no-claim' });
/** The answer for each 2025 revision a client sends in its header, made once (issue 34). */
const LEGACY_AT = new Map<string, InboundLegacyRoute>(
  SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v < FIRST_MODERN).map((v) => [
    v,
    Object.freeze({ ...LEGACY, requestedVersion: v }),
  ]),
);

/** A non-null, non-array object; modern-route.ts shares it (issue 34: one function on the path, not two). */
export const plain = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A body the SDK's isJSONRPCRequest surely takes and its response schemas surely refuse: only a
 * request's keys, JSON-RPC 2.0, a string method other than initialize, a string or safe-integer
 * id, and params (if any) an object whose `_meta` (if any) is an object with a well-formed
 * progress token and no related-task key. Shared by both eras' shortcuts (modern-route.ts).
 */
export function requestShaped(
  body: unknown,
): body is JSONRPCRequest & { params?: Record<string, unknown> } {
  if (!plain(body)) return false;
  // Indexed, not `for…of` (issue 34, wave 3 session 32: an iterator result per key a POST).
  const keys = Object.keys(body);
  for (let i = 0; i < keys.length; i++) if (!REQUEST_KEYS.has(keys[i]!)) return false;
  const { jsonrpc, id, method, params } = body;
  // The id and the progress token as the SDK's RequestIdSchema and ProgressTokenSchema take them:
  // a string or a safe integer (read in place: issue 34, one function less on every request).
  if (jsonrpc !== '2.0' || typeof method !== 'string' || method === 'initialize') return false;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  if (params === undefined) return true;
  if (!plain(params)) return false;
  const meta = params['_meta'];
  if (meta === undefined) return true;
  if (!plain(meta) || RELATED_TASK_META_KEY in meta) return false;
  const token = meta['progressToken'];
  return token === undefined || typeof token === 'string' || Number.isSafeInteger(token);
}

/**
 * A 2025 session's everyday POST — one JSON-RPC request, not initialize, carrying no
 * 2026-07-28 envelope and no modern MCP-Protocol-Version — is classified here without the SDK's
 * zod passes (issue 34: classifyInboundRequest tries the body as a result, an error and a request
 * in turn, about 3% of the gateway's CPU per passthrough call). It answers only where it is sure
 * and returns undefined for everything else, which the SDK's classifyInboundRequest then decides.
 * session-route.property.test.ts checks, over generated bodies and headers, that whatever it
 * answers is what the SDK answers (legacy, reason no-claim, a body its JSONRPCRequestSchema takes).
 */
export function everydaySessionRequest(
  httpMethod: string | undefined,
  protocolVersionHeader: string | undefined,
  body: unknown,
): InboundClassificationOutcome | undefined {
  if (httpMethod !== 'POST') return undefined;
  if (
    protocolVersionHeader !== undefined &&
    (protocolVersionHeader.trim() !== protocolVersionHeader ||
      protocolVersionHeader >= FIRST_MODERN)
  )
    return undefined;
  if (!requestShaped(body)) return undefined;
  const meta = body.params?.['_meta'];
  if (plain(meta) && PROTOCOL_VERSION_META_KEY in meta) return undefined;
  if (protocolVersionHeader === undefined) return LEGACY;
  return (
    LEGACY_AT.get(protocolVersionHeader) ?? { ...LEGACY, requestedVersion: protocolVersionHeader }
  );
}
