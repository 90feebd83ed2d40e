import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth, so equal arguments give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortDeep(value));
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
  return 'sha256:' + createHash('sha256').update(canonicalJson(args)).digest('hex').slice(0, 16);
}
