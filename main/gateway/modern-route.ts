import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type InboundClassificationOutcome,
  type JSONRPCRequest,
} from '@modelcontextprotocol/server';
import { LOG_LEVELS } from '../tools/features.js';
import { plain, requestShaped } from './session-route.js';

/** The only modern revision the SDK (2.4.0) serves, and the only one answered here. */
const REVISION = '2026-07-28';
const OWS_EDGE = /^[ \t]|[ \t]$/;
// The SDK's LoggingLevelSchema, as the one list Airlock keeps of it (tools/features.ts).
const LOG_LEVEL_SET: ReadonlySet<string> = new Set(LOG_LEVELS);

/**
 * What the SDK's JSONValueSchema takes, for JSON.parse's output: finite numbers, strings,
 * booleans, null, arrays and objects of those. Deep nesting and `__proto__` own keys are left
 * to the SDK (false here means "not sure", never "invalid").
 */
function jsonValue(v: unknown, depth: number): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (depth === 0 || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.every((x) => jsonValue(x, depth - 1));
  return jsonObject(v, depth - 1);
}
function jsonObject(v: unknown, depth = 4): boolean {
  if (!plain(v)) return false;
  for (const key of Object.keys(v)) {
    if (key === '__proto__' || !jsonValue(v[key], depth)) return false;
  }
  return true;
}
const optJsonObject = (v: unknown) => v === undefined || jsonObject(v);
/** A record of JSON objects (each at the default depth; `every` would pass its index as one). */
const recordOfJsonObjects = (v: unknown) =>
  jsonObject(v) && Object.values(v as object).every((x) => jsonObject(x));
/** ImplementationSchema's optional string fields that clientInfoSure checks. */
const INFO_STRINGS = ['title', 'websiteUrl', 'description'] as const;

/**
 * The SDK's 2026-07-28 ClientCapabilities schema, where sure: `z.object` strips unknown keys
 * (the 2025 `tasks` among them), so only the five it names are checked.
 */
function capabilitiesSure(caps: unknown): boolean {
  if (!plain(caps)) return false;
  const { experimental, extensions, sampling, roots, elicitation } = caps;
  // Absent, the everyday case, without a call (issue 34: one function less on the path).
  if (experimental !== undefined && !recordOfJsonObjects(experimental)) return false;
  if (extensions !== undefined && !recordOfJsonObjects(extensions)) return false;
  if (sampling !== undefined) {
    if (
      !plain(sampling) ||
      !optJsonObject(sampling['context']) ||
      !optJsonObject(sampling['tools'])
    )
      return false;
  }
  if (roots !== undefined) {
    const listChanged = plain(roots) ? roots['listChanged'] : 0;
    if (listChanged !== undefined && typeof listChanged !== 'boolean') return false;
  }
  if (elicitation !== undefined) {
    // An intersection behind a preprocess in the SDK: only `{}`, `form` and `url` holding JSON
    // objects (form's applyDefaults a boolean) are answered here.
    if (!jsonObject(elicitation)) return false;
    for (const key of Object.keys(elicitation as object))
      if (key !== 'form' && key !== 'url') return false;
    const { form, url } = elicitation as Record<string, unknown>;
    if (!optJsonObject(url) || !optJsonObject(form)) return false;
    const applyDefaults = plain(form) ? form['applyDefaults'] : undefined;
    if (applyDefaults !== undefined && typeof applyDefaults !== 'boolean') return false;
  }
  return true;
}

/** The SDK's ImplementationSchema, where sure (icons, when sent, go to the SDK). */
function clientInfoSure(info: unknown): boolean {
  if (info === undefined) return true;
  if (!plain(info) || typeof info['name'] !== 'string' || typeof info['version'] !== 'string')
    return false;
  if (info['icons'] !== undefined) return false;
  // Each optional string read in place (issue 34: not a helper called three times per request).
  for (let i = 0; i < INFO_STRINGS.length; i++) {
    const v = info[INFO_STRINGS[i]!];
    if (v !== undefined && typeof v !== 'string') return false;
  }
  return true;
}

/**
 * A 2026-07-28 agent's everyday POST — one JSON-RPC request (not initialize) whose `_meta`
 * envelope names 2026-07-28, with the same MCP-Protocol-Version header and an Mcp-Method header
 * that is the body's method (or none) — is classified here without the SDK's zod passes (issue
 * 34: classifyInboundRequest tries the body as a result, an error and a request, then parses the
 * envelope, about 4.5% of the gateway's CPU per passthrough call). It follows the SDK's
 * classifyRequestBody: a request with an envelope claim whose envelope validates, whose header
 * version equals the claimed one and whose Mcp-Method header matches, is modern on the claimed
 * revision. It answers only where it is sure (plain header values, no whitespace for the SDK to
 * strip) and returns undefined for everything else — every mismatch, refusal and odd shape —
 * which the SDK's classifyInboundRequest then decides. The Mcp-Name header is not the
 * classifier's (the SDK checks it after, validateStandardRequestHeaders; hotModernRequest in
 * modern-hot.ts holds it to the body's name). modern-route.property.test.ts checks, over
 * generated bodies and headers, that whatever it answers is what the SDK answers.
 */
export function everydayModernRequest(
  httpMethod: string | undefined,
  protocolVersionHeader: string | undefined,
  mcpMethodHeader: string | undefined,
  body: unknown,
): InboundClassificationOutcome | undefined {
  if (httpMethod !== 'POST' || protocolVersionHeader !== REVISION) return undefined;
  if (!requestShaped(body)) return undefined;
  const { method, params } = body;
  // The SDK compares the body's method with the header after stripping the header's optional
  // whitespace (RFC 9110 OWS: space, tab); a method with such edges is left to it.
  if (mcpMethodHeader !== undefined && (mcpMethodHeader !== method || OWS_EDGE.test(method)))
    return undefined;
  const meta = plain(params) ? params['_meta'] : undefined;
  if (!envelopeSure(meta)) return undefined;
  return {
    kind: 'modern',
    messageKind: 'request',
    message: body,
    classification: { era: 'modern', revision: REVISION },
  };
}

/**
 * The envelope keys of a `_meta` (protocol version, client capabilities and info, log level),
 * where the SDK's RequestMetaEnvelopeSchema surely takes them: the served revision, and each
 * key as sure as above. Other keys are not looked at (that schema is a loose object).
 */
export function envelopeSure(meta: unknown): boolean {
  if (!plain(meta) || meta[PROTOCOL_VERSION_META_KEY] !== REVISION) return false;
  if (!capabilitiesSure(meta[CLIENT_CAPABILITIES_META_KEY])) return false;
  if (!clientInfoSure(meta[CLIENT_INFO_META_KEY])) return false;
  const level = meta[LOG_LEVEL_META_KEY];
  return level === undefined || (typeof level === 'string' && LOG_LEVEL_SET.has(level));
}

const ENVELOPE_KEYS = new Set([
  PROTOCOL_VERSION_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
]);
/** An envelope as the SDK lifts it (liftWireOnlyMaterial): its reserved keys and no other. */
const liftedOnly = (envelope: unknown) =>
  plain(envelope) && Object.keys(envelope).every((key) => ENVELOPE_KEYS.has(key));

interface WireCodec {
  era: string;
  checkInboundEnvelope(material: { envelope?: unknown }): string | undefined;
}

/** The SDK's RESERVED_ENVELOPE_META_KEYS, in its order: the order of a lifted envelope's keys. */
const ENVELOPE_ORDER = [
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
] as const;

/**
 * A hot request's params with the envelope taken out of `_meta`, and that envelope, as the SDK's
 * liftWireOnlyMaterial (Protocol._onrequest) would make them — for a request whose envelope
 * envelopeSure takes and that carries no retry material (`requestState`, `inputResponses`) nor an
 * own `__proto__` key where keys are copied, and that directRequests hands to the SDK's
 * `_onrequest` (requestShaped); undefined for any other, which the SDK lifts itself.
 *
 * Why (issue 34): the SDK lifts by copying params and `_meta` and deleting keys from the copies,
 * which turns both into dictionary-mode objects (≈ 1.1 KiB a call, and every later read of the
 * call's params a hash lookup); built key by key here, they stay ordinary objects. The same keys,
 * in the same order (`_meta` keeps its place, or goes when nothing else is in it), with the same
 * values: modern-route.lift.property.test.ts holds it to the SDK's own lift.
 */
export function liftSureEnvelope(
  message: JSONRPCRequest,
): { params: Record<string, unknown>; envelope: Record<string, unknown> } | undefined {
  // Only what goes straight to Protocol._onrequest (request-dispatch.ts): the SDK's own closure
  // names a message it refuses in full, as it got it.
  if (!requestShaped(message)) return undefined;
  const { params } = message;
  if (!plain(params)) return undefined;
  const meta = params['_meta'];
  if (!envelopeSure(meta) || 'inputResponses' in params || 'requestState' in params)
    return undefined;
  // A `__proto__` key (JSON.parse makes it an own key) would set a prototype, not a key, below.
  if (Object.hasOwn(params, '__proto__') || Object.hasOwn(meta as object, '__proto__'))
    return undefined;
  const from = meta as Record<string, unknown>;
  // Indexed loops: no iterator objects before the function is optimised (it runs once a call).
  const envelope: Record<string, unknown> = {};
  for (let i = 0; i < ENVELOPE_ORDER.length; i++) {
    const key = ENVELOPE_ORDER[i]!;
    if (key in from) envelope[key] = from[key];
  }
  let rest: Record<string, unknown> | undefined;
  const metaKeys = Object.keys(from);
  for (let i = 0; i < metaKeys.length; i++) {
    const key = metaKeys[i]!;
    if (!ENVELOPE_KEYS.has(key)) (rest ??= {})[key] = from[key];
  }
  const next: Record<string, unknown> = {};
  const keys = Object.keys(params);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== '_meta') next[key] = params[key];
    else if (rest) next[key] = rest;
  }
  return { params: next, envelope };
}

/**
 * The envelope liftSureEnvelope took from the hot request being handed to its server right now
 * (set around that synchronous hand-over only, liftedEnvelope): the server's envelope check and
 * its request context read it, since the SDK finds no envelope left to lift.
 */
let lifting: Record<string, unknown> | undefined;

/** Set by the hot transport just before it hands a lifted request over, cleared right after. */
export function liftedEnvelope(envelope: Record<string, unknown> | undefined): void {
  lifting = envelope;
}

/**
 * A 2026-07-28 server whose per-request envelope check (the codec's checkInboundEnvelope, a zod
 * parse of the lifted envelope in Protocol._onrequest, issue 34: ~2% of the gateway's CPU per hot
 * call) answers "valid" at once for an envelope envelopeSure takes, and asks the SDK for every
 * other. The hot path's requests were classified modern, which already parsed their envelope
 * (classifyInboundRequest, or everydayModernRequest, proven equal to it). The SDK keeps
 * `_negotiatedWireCodec` private, so the instance's own is shadowed; any other era's codec is
 * handed back untouched. modern-route.envelope.property.test.ts holds it to the SDK's check.
 */
export function withSureEnvelopes<T extends object>(server: T): T {
  const own = server as unknown as {
    _negotiatedWireCodec(): WireCodec;
    buildContext(ctx: { mcpReq: { envelope?: unknown } }, info: unknown): unknown;
  };
  const base = own._negotiatedWireCodec.bind(server);
  // A request the hot transport lifted (liftSureEnvelope) reaches Protocol._onrequest with no
  // envelope in its `_meta`: its context gets the envelope the SDK would have lifted, before the
  // Server builds on it (its `log` reads the level from there).
  const build = own.buildContext.bind(server);
  own.buildContext = (ctx, info) => {
    if (lifting !== undefined && ctx.mcpReq.envelope === undefined) ctx.mcpReq.envelope = lifting;
    return build(ctx, info);
  };
  const memo = new WeakMap<WireCodec, WireCodec>();
  own._negotiatedWireCodec = () => {
    const codec = base();
    if (codec.era !== REVISION) return codec;
    let fast = memo.get(codec);
    if (!fast) {
      fast = Object.create(codec, {
        checkInboundEnvelope: {
          value: (material: { envelope?: unknown }) =>
            // Lifted ahead by the hot transport, which lifts only an envelope envelopeSure takes.
            (material.envelope === undefined && lifting !== undefined) ||
            (liftedOnly(material.envelope) && envelopeSure(material.envelope))
              ? undefined
              : codec.checkInboundEnvelope(material),
        },
      }) as WireCodec;
      memo.set(codec, fast);
    }
    return fast;
  };
  return server;
}
