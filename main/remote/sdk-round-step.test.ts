import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProgressSink } from '../tools/types.js';
import { serverProgress } from './server-progress.js';

/**
 * The client SDK's own step of an input round (runInputRequiredDriver: `{ progress: round,
 * message: "Fulfilling input required by '<method>' (round <round>)" }`) is left out; a server's
 * progress of any other shape passes, whatever its message says (round-progress.test.ts drives the
 * SDK's real one).
 */
const plain = { text: (t: string) => t, value: <T extends object>(x: T) => x };

function sent(steps: Parameters<ReturnType<typeof serverProgress>>[0][]): number[] {
  const got: number[] = [];
  const sink: ProgressSink = (p) => void got.push(p);
  const on = serverProgress('svc', plain, sink);
  for (const s of steps) on(s);
  return got;
}

describe("the client SDK's own round step", () => {
  it('is left out, and does not count as progress', () => {
    expect(
      sent([
        { progress: 0.2, total: 1 },
        { progress: 1, message: "Fulfilling input required by 'tools/call' (round 1)" },
        { progress: 0.6, total: 1 },
      ]),
    ).toEqual([0.2, 0.6]);
  });

  it("a server's step of another shape passes, whatever its message", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.constantFrom('total', 'meta', 'round', 'text'),
        fc.string(),
        (round, differs, method) => {
          const message =
            differs === 'round'
              ? `Fulfilling input required by '${method.replace(/'/g, '')}' (round ${round + 1})`
              : differs === 'text'
                ? `Fulfilling input required by '${method.replace(/'/g, '')}' (round ${round}).`
                : `Fulfilling input required by '${method.replace(/'/g, '')}' (round ${round})`;
          const step = {
            progress: round,
            message,
            ...(differs === 'total' ? { total: 100 } : {}),
            ...(differs === 'meta' ? { _meta: { 'example.com/k': 1 } } : {}),
          };
          expect(sent([step])).toEqual([round]);
        },
      ),
    );
  });
});
