import type { CallToolResult } from './types.js';

/**
 * Caps the text an agent receives (default 20,000 characters across all
 * text blocks) and says so when it cuts, so a huge upstream answer cannot
 * flood the agent's context.
 */
export function capText(result: CallToolResult, maxChars: number): CallToolResult {
  let budget = maxChars;
  let cut = 0;
  const content = (result.content ?? []).map((block) => {
    if (block.type !== 'text') return block;
    if (block.text.length <= budget) {
      budget -= block.text.length;
      return block;
    }
    cut += block.text.length - budget;
    const text = block.text.slice(0, budget);
    budget = 0;
    return { ...block, text };
  });
  if (cut === 0) return result;
  content.push({
    type: 'text',
    text: `[Airlock cut ${cut} characters from this result to stay within ${maxChars} characters.]`,
  });
  return { ...result, content };
}
