import { createHash } from 'node:crypto';

/**
 * Public tool names.
 *
 * Rule: `<prefix>__<tool>` (or `<tool>` for prefix-less sources), every
 * character outside `[a-zA-Z0-9_-]` replaced by `_`, at most MAX_NAME_LENGTH
 * characters. Longer names keep their head and end in `_` + 6 hex characters
 * of a hash of the stable key, so they stay distinct and identical across
 * restarts. Collisions (two keys, one name) are resolved the same way, in
 * stable-key order, so the first key keeps the plain name.
 *
 * MAX_NAME_LENGTH is 50 so that Claude Code's `mcp__airlock__` prefix (14
 * characters) still fits the 64-character limit of Claude and OpenAI
 * (`^[a-zA-Z0-9_-]{1,64}$`, the clients' tool-name rules).
 */
export const MAX_NAME_LENGTH = 50;
export const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export function sanitize(raw: string): string {
  const cleaned = raw.replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned.length > 0 ? cleaned : '_';
}

function shortHash(key: string, salt = ''): string {
  return createHash('sha256')
    .update(key + salt)
    .digest('hex')
    .slice(0, 6);
}

function withSuffix(base: string, key: string, salt = ''): string {
  const suffix = '_' + shortHash(key, salt);
  return base.slice(0, MAX_NAME_LENGTH - suffix.length) + suffix;
}

export function baseName(prefix: string, tool: string): string {
  return sanitize(prefix ? `${prefix}__${tool}` : tool);
}

export interface NameRequest {
  key: string;
  prefix: string;
  tool: string;
}

/** Assigns public names to all tools at once; deterministic for a given set. */
export function assignNames(requests: readonly NameRequest[]): Map<string, string> {
  const sorted = [...requests].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const taken = new Set<string>();
  const out = new Map<string, string>();
  for (const req of sorted) {
    const base = baseName(req.prefix, req.tool);
    let name = base.length <= MAX_NAME_LENGTH ? base : withSuffix(base, req.key);
    for (let salt = 0; taken.has(name); salt++)
      name = withSuffix(base, req.key, salt ? String(salt) : '');
    taken.add(name);
    out.set(req.key, name);
  }
  return out;
}
