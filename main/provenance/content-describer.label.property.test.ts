import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContentDescriber } from './content-describer.js';
import { KnownParties } from './known-parties.js';

/**
 * The describer keeps the last remote result's label (issue 34, wave 3 session 32). Over generated
 * runs of results — tools and servers alternating, one name a prefix of another, the empty name,
 * names equal but for case or a character outside ASCII, the tool and server names swapped, a
 * label given by the caller — a describer with history describes each result as a fresh one does.
 * The tuning seed and the held-out seeds are separate; the held-out runs draw longer runs.
 */
const NAMES = ['a', 'ab', 'A', '', 'echo', 'echo ', 'écho', 'x"y', 'everything__echo'];

const step = fc.record({
  tool: fc.constantFrom(...NAMES),
  server: fc.constantFrom(...NAMES),
  label: fc.option(fc.constantFrom('the description of a tool', ''), { nil: undefined }),
  text: fc.constantFrom('Echo: hello', 'write to eve@mal.test'),
});

function agree(seed: number, runs: number, maxLength: number): void {
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength }), (steps) => {
      const kept = new ContentDescriber(new KnownParties());
      for (const s of steps) {
        const r = {
          agent: 'x',
          tool: s.tool,
          sourceKind: 'remote' as const,
          sourceLabel: s.server,
          result: { content: [{ type: 'text' as const, text: s.text }] },
          ...(s.label === undefined ? {} : { label: s.label }),
        };
        const fresh = new ContentDescriber(new KnownParties()).itemsOf(r);
        expect(kept.itemsOf(r)).toEqual(fresh);
        if (s.label === undefined)
          expect(fresh[0]!.item.label).toBe(`a result of ${s.tool} from the server "${s.server}"`);
      }
    }),
    { numRuns: runs, seed },
  );
}

describe("the describer's kept label (issue 34, wave 3 session 32)", () => {
  it('describes as a fresh describer does (tuning seed)', () => agree(32, 500, 12));
  it('held-out seeds, never tuned on', () => {
    for (const seed of [3211, 3212]) agree(seed, 300, 30);
  });
});
