import type { ReadResourceResult } from '../tools/features.js';
import { capText, CUT_META_KEY } from '../tools/result-shaping.js';

/**
 * The result cap (settings.limits.resultChars) applied to a resource read, with the same mark a
 * tool result gets: `_meta["airlock/cut"] = { characters, limit }` (docs/remote.md, "Untrusted-
 * content marking"). A read has no text block of Airlock's to say it in words.
 */
export function capReadResult(r: ReadResourceResult, maxChars: number): ReadResourceResult {
  const asCall = capText(
    {
      content: r.contents.map((resource) => ({ type: 'resource' as const, resource })),
    },
    maxChars,
  );
  const cut = asCall._meta?.[CUT_META_KEY];
  if (cut === undefined || asCall.content === undefined) return r;
  const contents = asCall.content.flatMap((c) => (c.type === 'resource' ? [c.resource] : []));
  return { ...r, contents, _meta: { ...(r._meta ?? {}), [CUT_META_KEY]: cut } };
}
