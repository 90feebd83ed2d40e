import { codeUnits, textPrefix } from '../../common/text-cut.js';
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
  // Everyday results are within the budget: told so by a count, without the copies the cut makes
  // (issue 34: an array, a closure and a budget per call, for nothing). The count is true only
  // where capTextWalk surely cuts nothing, so gives `result` back as it is: every counted value a
  // string (anything else is left to the walk) and their lengths together within `maxChars`.
  // result-shaping.property.test.ts holds it to the walk. Written here, not in a helper: every
  // call's result comes here.
  let left = maxChars;
  const content: unknown = result.content ?? [];
  if (!Array.isArray(content)) return capTextWalk(result, maxChars);
  for (const block of content as unknown[]) {
    if (!block || typeof block !== 'object') return capTextWalk(result, maxChars);
    const b = block as { type?: unknown; text?: unknown; resource?: unknown };
    if (b.type === 'text') {
      if (typeof b.text !== 'string') return capTextWalk(result, maxChars);
      left -= b.text.length;
    } else if (b.type === 'resource') {
      const r = b.resource;
      if (!r || typeof r !== 'object') return capTextWalk(result, maxChars);
      if ('text' in r) {
        const text = (r as { text?: unknown }).text;
        if (typeof text !== 'string') return capTextWalk(result, maxChars);
        left -= text.length;
      }
    }
  }
  if (result.structuredContent !== undefined) left = stringsWithin(result.structuredContent, left);
  return left >= 0 ? result : capTextWalk(result, maxChars);
}

/** `left` less the lengths of the strings capStrings would take; -1 once past the budget. */
function stringsWithin(value: unknown, left: number): number {
  if (left < 0) return -1;
  if (typeof value === 'string') return left - value.length;
  if (Array.isArray(value)) {
    // A hole reads as undefined, which counts nothing, as capStrings' map leaves it unvisited.
    for (let i = 0; i < value.length && left >= 0; i++) left = stringsWithin(value[i], left);
    return left;
  }
  if (value && typeof value === 'object')
    for (const v of Object.values(value)) {
      left = stringsWithin(v, left);
      if (left < 0) return -1;
    }
  return left;
}

/** The cut itself: every counted string in order, each shortened where the budget runs out. */
export function capTextWalk(result: CallToolResult, maxChars: number): CallToolResult {
  const budget = { left: maxChars, cut: 0 };
  const take = (text: string): string => {
    if (text.length <= budget.left) {
      budget.left -= text.length;
      return text;
    }
    // Never half a character: a cut between the two halves of a surrogate pair (an emoji, a CJK
    // extension character) left a lone surrogate, which is no Unicode text (JSON, RFC 8259 §8.1:
    // UTF-8) and reaches the agent as U+FFFD or fails its decoder. The whole cluster goes with the
    // cut (common/text-cut.ts, the cutter of all shown text).
    const end = textPrefix(text, budget.left, codeUnits).length;
    budget.cut += text.length - end;
    const kept = text.slice(0, end);
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
