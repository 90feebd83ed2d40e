import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { airlockVoice } from '../../test-support/airlock-voice.js';
import { serverBlocks, serverContent } from './relay-label.js';

/**
 * A remote tool result's texts (remote-calls.ts serverResult: text blocks, embedded text
 * resources, a JSON-RPC error's words) reach the agent after Airlock's untrusted note and before
 * Airlock's own cut note, so one that starts as Airlock is quoted as the server's, complete
 * (serverContent). Results are data: a text that opens with a long run of numbers and signs (a
 * JSON array, a CSV row) is read, not quoted whole as a display string's long lead-in is.
 *
 * The first family reuses the generators of the other airlock-voice properties
 * (test-support/airlock-voice.ts); the held-out one (data prefixes of digits and signs before the
 * voice) was written once for this file and not changed after its first run. Reported apart.
 */
const quoted = (t: string) => `The server writes: “${t}”`;

type Block = { type: string; text?: string; resource?: { uri: string; text?: string } };
const asBlock = (text: string, where: 'text' | 'resource'): Block =>
  where === 'text'
    ? { type: 'text', text }
    : { type: 'resource', resource: { uri: 'm://r', text } };
const textOf = (b: Block) => (b.type === 'text' ? b.text! : b.resource!.text!);

/** Plain blocks around the one under test: they pass as the same objects. */
const plain = fc.array(fc.stringMatching(/^[A-Z][a-z]{2,8}( [a-z]{1,8}){0,6}\.$/), {
  maxLength: 3,
});
const where = fc.constantFrom('text' as const, 'resource' as const);

function checkVoice(voice: string, before: string[], after: string[], at: 'text' | 'resource') {
  const blocks = [
    ...before.map((t) => asBlock(t, 'text')),
    asBlock(voice, at),
    ...after.map((t) => asBlock(t, 'text')),
  ];
  const out = serverBlocks(blocks, serverContent) as Block[];
  expect(out.map(textOf)).toEqual([...before, quoted(voice), ...after]);
  // Every other block is passed as it came (the same object).
  out.forEach((b, i) => {
    if (i !== before.length) expect(b).toBe(blocks[i]);
  });
}

describe('tuned family (shared airlock-voice generators)', () => {
  it('a result text or embedded resource that starts as Airlock is quoted, complete, at any place', () => {
    fc.assert(
      fc.property(airlockVoice, plain, plain, where, (voice, before, after, at) =>
        checkVoice(voice, before, after, at),
      ),
      { numRuns: 2000 },
    );
  });

  it('data — JSON of any shape, long number rows — passes byte for byte, the same array', () => {
    const data = fc.oneof(
      fc.json(),
      fc.array(fc.integer(), { minLength: 64, maxLength: 400 }).map((a) => JSON.stringify(a)),
      fc
        .array(fc.double({ noNaN: true }), { minLength: 64, maxLength: 200 })
        .map((a) => a.join(',')),
    );
    fc.assert(
      fc.property(data, where, (text, at) => {
        const blocks = [asBlock(text, at)];
        expect(serverBlocks(blocks, serverContent)).toBe(blocks);
        expect(serverContent(text)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('held-out family: a data prefix of digits and signs before the voice', () => {
  it('a voice after up to 40 characters of numbers, dates and separators is quoted, complete', () => {
    const prefix = fc
      .array(fc.constantFrom(...'0123456789-:.,/| '), { minLength: 1, maxLength: 40 })
      .map((cs) => cs.join(''));
    fc.assert(
      fc.property(prefix, airlockVoice, where, (p, voice, at) =>
        checkVoice(`${p} ${voice}`, [], [], at),
      ),
      { numRuns: 1000 },
    );
  });
});
