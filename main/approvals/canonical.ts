import { createHash, hash } from 'node:crypto';

/** JSON with object keys sorted at every depth, so equal arguments give equal text. */
export function canonicalJson(value: unknown): string {
  // Arguments whose keys are in order already at every depth (most: an agent's arguments as its
  // model wrote them, e.g. `{"message": …}`) are their own canonical form: stringified as they
  // are, without the sorted null-prototype copy, which V8 keeps as dictionaries that JSON.stringify
  // walks on its slow path (issue 34: the digest was ≈ a quarter of an Activity flush).
  // canonical.property.test.ts holds the text equal to the copy's over generated values.
  return JSON.stringify(inOrder(value) ? value : sortDeep(value));
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value && typeof value === 'object') {
    // No prototype: on a plain `{}`, assigning a `__proto__` key (JSON.parse makes it an own
    // key) would set the prototype instead and drop the key, so two different calls compared
    // equal and could share a stored result (issue 17, item 8).
    const out = Object.create(null) as Record<string, unknown>;
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortDeep(v);
    }
    return out;
  }
  return value;
}

/**
 * Whether JSON.stringify writes `value` exactly as it writes `sortDeep(value)`: at every depth a
 * plain array, or a plain object (prototype Object.prototype or none) whose `Object.keys` are in
 * sorted order, with no `toJSON` (the copy has none to call) and not raw JSON text
 * (`JSON.rawJSON`, which the copy would write as an object). Keys in sorted order are the copy's
 * order too: both objects list their array-index keys first in numeric order and the rest in the
 * order they were made (ECMA-262 OrdinaryOwnPropertyKeys), and a sorted list keeps that order.
 * A key with an undefined value is left out by JSON.stringify as the copy leaves it out. Anything
 * else (a key out of order, a Date, a boxed primitive, a class instance) answers false and takes
 * the copy, as before. Each value is read twice (here, then by JSON.stringify) where the copy read
 * it once: the same for data properties, all JSON.parse and structured clone make, but not for an
 * accessor whose reads differ (none reaches here; review of issue 34's cut).
 */
function inOrder(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if ('toJSON' in value || isRawJSON?.(value) === true) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (Array.isArray(value)) {
    if (proto !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) if (!inOrder(value[i])) return false;
    return true;
  }
  if (proto !== Object.prototype && proto !== null) return false;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && !(keys[i - 1]! < keys[i]!)) return false;
    if (!inOrder((value as Record<string, unknown>)[keys[i]!])) return false;
  }
  return true;
}

/** `JSON.isRawJSON` (Node 22; not in TypeScript's lib yet). */
const isRawJSON = (JSON as { isRawJSON?: (v: unknown) => boolean }).isRawJSON;

/** Identifies "the same call": same agent, same tool, same canonical arguments. */
export function callKey(agent: string, toolKey: string, args: unknown): string {
  return createHash('sha256')
    .update(agent)
    .update('\0')
    .update(toolKey)
    .update('\0')
    .update(canonicalJson(args))
    .digest('hex');
}

/** What the activity log keeps instead of the arguments. */
export function argsDigest(args: unknown): string {
  const text = canonicalJson(args);
  // One-shot crypto.hash: the same SHA-256 as createHash().update().digest() without a Hash
  // object per call (as agent-service.ts). What is not text (undefined arguments) fails as it did.
  return (
    'sha256:' +
    (typeof text === 'string'
      ? hash('sha256', text, 'hex')
      : createHash('sha256').update(text).digest('hex')
    ).slice(0, 16)
  );
}
