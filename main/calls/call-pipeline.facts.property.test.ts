import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProvenanceMetaItem } from '../provenance/provenance-service.js';
import type { CallFacts } from '../provenance/taint-check.js';
import type { ToolEntry } from '../tools/registry.js';
import { isReadOnly, type CallContent } from '../tools/types.js';
import { checkedCall } from './call-pipeline.js';

/**
 * Issue 34, wave 3 session 19: what the taint check judges of a call (`checkedCall`) is built
 * by assignments instead of spreads of conditional objects (an empty object per absent member,
 * every call). Over generated tools and call contents it must give what the spreads gave: the
 * same members with the same values, in the same order, and copies where the spreads copied.
 */
function spreadFacts(
  entry: ToolEntry,
  record: Record<string, unknown>,
  sends: CallContent | null,
): CallFacts {
  return {
    tool: entry.name,
    sourceKind: entry.source.kind,
    sourceLabel: entry.source.label,
    readOnly: isReadOnly(entry.def),
    args: sends?.args ?? record,
    schema: entry.def.inputSchema,
    ...(sends?.carried?.length
      ? { carried: [...sends.carried] as unknown as ProvenanceMetaItem[] }
      : {}),
    ...(sends?.refs?.length ? { refs: [...sends.refs] } : {}),
    ...(sends?.forwards ? { forwards: true } : {}),
    ...(sends?.selects ? { selects: { ...sends.selects } } : {}),
    ...(sends?.shows ? { shows: { ...sends.shows } } : {}),
    ...(sends?.effect ? { effect: sends.effect } : {}),
  };
}

const small = fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string(), fc.integer()), {
  maxKeys: 3,
});
const entryArb = fc.record({
  name: fc.string({ maxLength: 6 }),
  kind: fc.constantFrom('builtin', 'google', 'remote', 'test'),
  label: fc.string({ maxLength: 6 }),
  trustedReadOnly: fc.option(fc.boolean(), { nil: undefined }),
  readOnlyHint: fc.option(fc.boolean(), { nil: undefined }),
  inputSchema: small,
});
// Every member present, absent, empty or falsy: the spreads tested truthiness and length.
const sendsArb = fc.option(
  fc.record(
    {
      args: small,
      carried: fc.array(small, { maxLength: 2 }),
      refs: fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
      forwards: fc.boolean(),
      selects: small,
      shows: small,
      effect: fc.oneof(fc.constant(''), fc.string({ maxLength: 5 })),
    },
    { requiredKeys: [] },
  ),
  { nil: null },
);

describe('checkedCall', () => {
  it('gives the facts the spreads gave: members, values, order, copies', () => {
    fc.assert(
      fc.property(entryArb, small, sendsArb, (e, record, sends) => {
        const entry = {
          name: e.name,
          source: { kind: e.kind, label: e.label },
          def: {
            trustedReadOnly: e.trustedReadOnly,
            annotations:
              e.readOnlyHint === undefined ? undefined : { readOnlyHint: e.readOnlyHint },
            inputSchema: e.inputSchema,
          },
        } as unknown as ToolEntry;
        const content = sends as CallContent | null;
        const got = checkedCall(entry, record, content);
        const want = spreadFacts(entry, record, content);
        expect(Object.keys(got)).toEqual(Object.keys(want));
        expect(got).toStrictEqual(want);
        // The same objects where the spreads passed them on, new ones where they copied.
        expect(got.args).toBe(want.args);
        expect(got.schema).toBe(want.schema);
        for (const k of ['carried', 'refs', 'selects', 'shows'] as const)
          if (got[k] !== undefined) expect(got[k]).not.toBe(content?.[k]);
      }),
      { numRuns: 2000 },
    );
  });
});
