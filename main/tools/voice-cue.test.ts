import { describe, expect, it } from 'vitest';
import { VOICE_CUE_LETTERS } from './relay-label.js';
import { voiceCueClasses } from './voice-cue-classes.js';
import { VOICE_CUE_DATA } from './voice-cue-data.js';

/**
 * The stored classes of the voice cue (voice-cue-data.ts) are what voiceCueClasses computes now
 * from the look-alike table and the phrases: a table or phrase that changed without them would
 * let the cue pass over a line the reading quotes. Rewrite the file from `voiceCueClasses` when
 * this fails.
 */
describe('voice cue data', () => {
  it('is current: every code point of Unicode in the class its skeleton gives it', () => {
    const now = voiceCueClasses(VOICE_CUE_LETTERS.letters, VOICE_CUE_LETTERS.last);
    const stored = Object.fromEntries(
      Object.entries(VOICE_CUE_DATA).map(([k, rs]) => [
        k,
        rs.map((r) => (typeof r === 'number' ? [r, r] : [r[0], r[1]])),
      ]),
    );
    expect(stored).toEqual(now);
  }, 60_000);
});
