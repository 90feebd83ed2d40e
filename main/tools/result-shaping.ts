import type { CallToolResult } from './types.js';

/**
 * Caps what an agent receives (default 20,000 characters) and says so when
 * it cuts, so a huge upstream answer cannot flood the agent's context. The
 * budget covers the whole result together (issue 14, item 6): text blocks,
 * embedded text resources, and every string inside `structuredContent`, in
 * that order. Strings are shortened in place so the structure (and an
 * outputSchema's required keys) survives. Binary blocks (images, audio,
 * blobs) are not text a model reads and are not counted.
 */
export const CUT_META_KEY = 'airlock/cut';

export function capText(result: CallToolResult, maxChars: number): CallToolResult {
  const budget = { left: maxChars, cut: 0 };
  const take = (text: string): string => {
    if (text.length <= budget.left) {
      budget.left -= text.length;
      return text;
    }
    budget.cut += text.length - budget.left;
    const kept = text.slice(0, budget.left);
    budget.left = 0;
    return kept;
  };
  const content = (result.content ?? []).map((block) => {
    if (block.type === 'text') {
      const text = take(block.text);
      return text === block.text ? block : { ...block, text };
    }
    if (block.type === 'resource' && 'text' in block.resource) {
      const text = take(block.resource.text);
      return text === block.resource.text
        ? block
        : { ...block, resource: { ...block.resource, text } };
    }
    return block;
  });
  const structured =
    result.structuredContent === undefined
      ? undefined
      : (capStrings(result.structuredContent, take) as Record<string, unknown>);
  if (budget.cut === 0) return result;
  content.push({
    type: 'text',
    text: `[Airlock cut ${budget.cut} characters from this result to stay within ${maxChars} characters.]`,
  });
  return {
    ...result,
    content,
    ...(structured !== undefined ? { structuredContent: structured } : {}),
    _meta: { ...(result._meta ?? {}), [CUT_META_KEY]: { characters: budget.cut, limit: maxChars } },
  };
}

function capStrings(value: unknown, take: (s: string) => string): unknown {
  if (typeof value === 'string') return take(value);
  if (Array.isArray(value)) return value.map((v) => capStrings(v, take));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = capStrings(v, take);
    return out;
  }
  return value;
}
