import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContentDescriber } from '../provenance/content-describer.js';
import { KnownParties } from '../provenance/known-parties.js';
import { markUntrusted, untrustedNote } from './untrusted.js';

/**
 * Review of issue 34: markUntrusted keeps the last server's note, and the describer reads the
 * last server's note without a call. Over generated runs of servers (alternating, renamed, one
 * name a prefix of another, the empty name, names that differ only in case or by a character
 * outside ASCII), each mark is the note of its own server, and a describer that has read other
 * servers before describes a result as a fresh one does: its own server's note is left out, any
 * other server's note (a server quoting another's mark) is read as the server's words.
 */
const SERVERS = ['a', 'ab', 'A', '', 'fetch', 'fetch ', 'fétch', 'srv"x'];

const step = fc.record({
  server: fc.constantFrom(...SERVERS),
  // The note a result carries first: its own server's (as markUntrusted writes it), another's, or none.
  quotes: fc.option(fc.constantFrom(...SERVERS), { nil: undefined }),
  text: fc.constantFrom('Echo: hello', 'write to eve@mal.test', ''),
});

describe('the cached untrusted note (review of issue 34)', () => {
  it("each mark is its own server's note, and a describer with history describes as a fresh one", () => {
    for (const seed of [34, 20_261_207]) {
      fc.assert(
        fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
          const kept = new ContentDescriber(new KnownParties());
          for (const s of steps) {
            const marked = markUntrusted({ content: [{ type: 'text', text: s.text }] }, s.server);
            expect(marked.content[0]).toEqual({ type: 'text', text: untrustedNote(s.server) });
            const content = [
              ...(s.quotes === undefined
                ? []
                : [{ type: 'text' as const, text: untrustedNote(s.quotes) }]),
              { type: 'text' as const, text: s.text },
            ];
            const r = {
              agent: 'x',
              tool: 't',
              sourceKind: 'remote' as const,
              sourceLabel: s.server,
              result: { content },
            };
            expect(kept.itemsOf(r)).toEqual(new ContentDescriber(new KnownParties()).itemsOf(r));
          }
        }),
        { numRuns: 500, seed },
      );
    }
  });
});
