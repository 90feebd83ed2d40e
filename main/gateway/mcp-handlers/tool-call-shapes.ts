import { RELATED_TASK_META_KEY, SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';

/**
 * Shapes of a 2025-era tools/call request and result that the SDK's zod checks surely take
 * unchanged (issue 34: the SDK's Server checks every tools/call twice on the way in and its
 * result once on the way out, about 3% of the gateway's CPU per passthrough call). Each answers
 * true only where it is sure; anything else keeps the SDK's checks (tasks.ts).
 * tool-call-shapes.property.test.ts holds them to the SDK's own wrapper over generated and
 * hand-written hostile requests and results.
 */

const plain = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);

/** The 2025 wire's ProgressTokenSchema: a string or an integer zod takes (a safe one). */
const tokenLike = (v: unknown) => typeof v === 'string' || Number.isSafeInteger(v);

/**
 * A `_meta` the 2025 wire's RequestMetaSchema (a loose object) takes and gives back key for key:
 * a plain object with a well-formed progress token, if any, no related-task key, and no own
 * `__proto__` key (JSON.parse makes one; the parse's copy would set a prototype instead).
 */
function plainMeta(meta: unknown): boolean {
  if (!plain(meta) || RELATED_TASK_META_KEY in meta || Object.hasOwn(meta, '__proto__'))
    return false;
  return !('progressToken' in meta) || tokenLike(meta['progressToken']);
}

/**
 * A tools/call the 2025 wire's CallToolRequestSchema takes: params a plain object with only a
 * string `name`, plain-object `arguments` and a plain `_meta` (no `task`: task-augmented calls
 * go their own way, tasks.ts).
 */
export function plainToolCall(request: { method: string; params?: unknown }): boolean {
  const { method, params } = request;
  if (method !== 'tools/call' || !plain(params)) return false;
  // Indexed, not `for…of` (issue 34, wave 3 session 32: an iterator result per key a call).
  const keys = Object.keys(params);
  for (let i = 0; i < keys.length; i++) if (!PARAM_KEYS.has(keys[i]!)) return false;
  if (typeof params['name'] !== 'string') return false;
  if ('arguments' in params && !plain(params['arguments'])) return false;
  return !('_meta' in params) || plainMeta(params['_meta']);
}

/**
 * A plainToolCall as the handler registered with `setRequestHandler('tools/call', fn)` gets it
 * from the SDK, which parses the request again and hands `fn` the parse: `method` and `params`
 * only, `params` in its schema's order (`_meta`, `name`, `arguments`) and `_meta` with its
 * progress token first, each a copy. Undefined where the parse could differ: `arguments` or
 * `_meta` with an own `__proto__` key (the parse's copy would set a prototype).
 */
export function parsedToolCall(request: {
  params?: unknown;
}): { method: 'tools/call'; params: Record<string, unknown> } | undefined {
  const params = request.params as Record<string, unknown>;
  const args = params['arguments'] as Record<string, unknown> | undefined;
  if (args !== undefined && Object.hasOwn(args, '__proto__')) return undefined;
  const meta = params['_meta'] as Record<string, unknown> | undefined;
  return {
    method: 'tools/call',
    params: parsedParams(meta, params['name'], args),
  };
}

/**
 * The parse's `params` in its order (`_meta`, `name`, `arguments`), one literal per case rather
 * than spread from conditional objects, each of which made an empty object when absent (issue 34,
 * wave 3 session 32). Literals, not assignments to `{}`: a literal defines its members, where an
 * assignment would run a setter an `Object.prototype` polluted elsewhere holds for the key (review
 * of h-alloc2). tool-call-shapes.property.test.ts holds the keys and their order to the SDK's
 * parse (by JSON: not whether `_meta` and `arguments` are copies); tool-call-shapes.keys.property
 * .test.ts the literals and the copies.
 */
function parsedParams(
  meta: Record<string, unknown> | undefined,
  name: unknown,
  args: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (meta === undefined) return args === undefined ? { name } : { name, arguments: { ...args } };
  const _meta =
    'progressToken' in meta ? { progressToken: meta['progressToken'], ...meta } : { ...meta };
  return args === undefined ? { _meta, name } : { _meta, name, arguments: { ...args } };
}

const RESULT_KEYS = new Set(['_meta', 'content', 'isError']);

/**
 * A result the 2025 wire's CallToolResult check surely takes, as that check gives it back: its
 * parse returns the keys in its schema's order (`_meta`, `content`, `isError`), so a result
 * whose `_meta` came last (calls/agent-view.ts puts it there) is given back reordered, here as
 * there. Taken: `_meta` (plain, as above), `content` of text blocks `{ type: 'text', text }`
 * only, and `isError` a boolean; undefined for anything else (images, resources, annotations,
 * structuredContent, extra keys), which keeps the SDK's check, whose parse may drop keys.
 */
export function plainToolResult(result: unknown): Record<string, unknown> | undefined {
  if (!plain(result)) return undefined;
  const keys = Object.keys(result);
  for (let i = 0; i < keys.length; i++) if (!RESULT_KEYS.has(keys[i]!)) return undefined;
  const { _meta, content, isError } = result;
  const hasMeta = '_meta' in result;
  const hasError = 'isError' in result;
  // A progress token in a result's `_meta` (no tool of Airlock's puts one there; an upstream
  // could) comes back from the SDK's parse moved first: left to that check (key order). The
  // 2026-07-28 result _meta types its serverInfo key and replaces a bad one (catch), moving it
  // first too: left to the SDK on both eras.
  if (
    hasMeta &&
    (!plainMeta(_meta) ||
      'progressToken' in (_meta as object) ||
      SERVER_INFO_META_KEY in (_meta as object))
  )
    return undefined;
  if (hasError && typeof isError !== 'boolean') return undefined;
  if (!Array.isArray(content) || Object.getPrototypeOf(content) !== Array.prototype)
    return undefined;
  for (let i = 0; i < content.length; i++) if (!textBlock(content[i])) return undefined;
  // In the parse's order, one literal per case, not spread from conditional objects (issue 34,
  // wave 3 session 32: two objects fewer a call; tool-call-shapes.property.test.ts holds the
  // order). Literals, not assignments: see parsedParams.
  if (hasMeta) return hasError ? { _meta, content, isError } : { _meta, content };
  return hasError ? { content, isError } : { content };
}

function textBlock(block: unknown): boolean {
  if (!plain(block)) return false;
  const keys = Object.keys(block);
  return (
    keys.length === 2 &&
    keys[0] === 'type' &&
    keys[1] === 'text' &&
    block['type'] === 'text' &&
    typeof block['text'] === 'string'
  );
}
