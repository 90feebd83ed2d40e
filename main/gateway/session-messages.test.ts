import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RequestId } from './event-stream.js';
import { reusedId } from './session-messages.js';

/** The first id open already or repeated, as reusedId answered before its one-request shortcut. */
function reference(requests: readonly { id: RequestId }[], open: ReadonlyMap<RequestId, unknown>) {
  const ids = new Set<RequestId>();
  for (const { id } of requests) {
    if (open.has(id) || ids.has(id)) return id;
    ids.add(id);
  }
  return undefined;
}

describe('reusedId (issue 34: no Set for a lone request)', () => {
  it('names a lone request whose id is open in the session, and no other', () => {
    const open = new Map<RequestId, unknown>([[5, null]]);
    expect(reusedId([{ id: 5 }], open)).toBe(5);
    expect(reusedId([{ id: '5' }], open)).toBeUndefined();
    expect(reusedId([{ id: 6 }], open)).toBeUndefined();
  });

  it('answers as the Set-based walk over generated requests and open ids', () => {
    const id = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('1', '2', 'a', ''));
    fc.assert(
      fc.property(
        fc.array(id, { maxLength: 4 }),
        fc.array(id, { maxLength: 4 }),
        (ids, openIds) => {
          const requests = ids.map((i) => ({ id: i }));
          const open = new Map<RequestId, unknown>(openIds.map((i) => [i, null]));
          expect(reusedId(requests, open)).toBe(reference(requests, open));
        },
      ),
      { seed: 3434, numRuns: 3000 },
    );
  });
});
