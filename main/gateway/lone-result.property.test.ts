import fc from 'fast-check';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { Escalated, loneResult } from './mcp-handlers/modern-lone-call.js';
import { plainToolResult } from './mcp-handlers/tool-call-shapes.js';

/**
 * Both lone paths take a plain result without the SDK's input-required test first (issue 34):
 * lone-call.ts's finish tries plainToolResult before finishedCall (which tests input_required
 * first), modern-lone-call.ts's loneResult no longer tests input_required or Escalated before
 * plainToolResult. Equal only if plainToolResult never takes what that test (or Escalated)
 * would have turned away: held here over generated results near both shapes, and against the
 * replaced loneResult word for word.
 */
const encoder = {
  encodeResult: (method: string, result: unknown, serverInfo: unknown) => ({
    method,
    result,
    serverInfo,
  }),
  serverInfo: { name: 'airlock' },
};

function replacedLoneResult(value: unknown): unknown {
  try {
    if (isInputRequiredResult(value) || value instanceof Escalated) return undefined;
    const result = plainToolResult(value);
    return result && encoder.encodeResult('tools/call', result, encoder.serverInfo);
  } catch {
    return undefined;
  }
}

const textBlock = fc.record({ type: fc.constant('text'), text: fc.string() });
const block = fc.oneof(
  textBlock,
  fc.record({ type: fc.constantFrom('image', 'text'), data: fc.string() }),
);
const result = fc.record(
  {
    content: fc.oneof(fc.array(textBlock, { maxLength: 3 }), fc.array(block, { maxLength: 3 })),
    isError: fc.oneof(fc.boolean(), fc.constant('yes')),
    _meta: fc.oneof(fc.constant({}), fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 2 })),
    resultType: fc.constantFrom('input_required', 'complete', undefined),
    inputRequests: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 2 }),
    structuredContent: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
const value = fc.oneof(
  result,
  result.map((r) => new Escalated(r)),
  fc.jsonValue(),
  fc.anything(),
);

function agree(seed: number, runs: number): void {
  fc.assert(
    fc.property(value, (v) => {
      const plain = plainToolResult(v);
      // What finishedCall would have tested first never holds for a result plainToolResult takes.
      if (plain !== undefined) expect(isInputRequiredResult(v)).toBe(false);
      expect(loneResult(v, encoder)).toEqual(replacedLoneResult(v));
    }),
    { seed, numRuns: runs },
  );
}

describe('a plain result needs no input-required test before plainToolResult', () => {
  it('over generated results (tuning seed)', () => agree(34, 3000));
  it('held-out seeds, never tuned on', () => {
    for (const seed of [7201, 7202, 7203]) agree(seed, 2000);
  });
  it('the generator reaches plain, input-required and Escalated values', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(value, (v) => {
        if (plainToolResult(v)) seen.add('plain');
        if (isInputRequiredResult(v)) seen.add('input_required');
        if (v instanceof Escalated) seen.add('escalated');
      }),
      { seed: 34, numRuns: 3000 },
    );
    expect(seen).toEqual(new Set(['plain', 'input_required', 'escalated']));
  });
});
