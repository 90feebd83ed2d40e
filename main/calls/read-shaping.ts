import type { ReadResourceResult } from '../tools/features.js';
import { capText } from '../tools/result-shaping.js';

/** The result cap (settings.limits.resultChars) applied to a resource read, with the same mark. */
export function capReadResult(r: ReadResourceResult, maxChars: number): ReadResourceResult {
  const asCall = capText(
    {
      content: r.contents.map((resource) => ({ type: 'resource' as const, resource })),
    },
    maxChars,
  );
  if (asCall === undefined || asCall.content === undefined) return r;
  const contents = asCall.content.flatMap((c) => (c.type === 'resource' ? [c.resource] : []));
  const note = asCall.content.find((c) => c.type === 'text');
  if (!note || note.type !== 'text') return r;
  return { ...r, contents, _meta: { ...(r._meta ?? {}), 'airlock/cut': note.text } };
}
