import { describe, expect, it } from 'vitest';
import { LOG_LEVELS, levelRank, moreVerbose, type LoggingLevel } from './features.js';

/**
 * moreVerbose took the place of the expression perRequestMeta computed inline (remote-calls.ts);
 * over every pair of levels, either absent, it gives what that expression gave.
 */
describe('moreVerbose', () => {
  it('is the inline expression it replaced, for every pair (81)', () => {
    const all: (LoggingLevel | undefined)[] = [undefined, ...LOG_LEVELS];
    let pairs = 0;
    for (const held of all)
      for (const asked of all) {
        const inline =
          held && asked ? (levelRank(held) <= levelRank(asked) ? held : asked) : (held ?? asked);
        expect(moreVerbose(held, asked)).toBe(inline);
        pairs++;
      }
    expect(pairs).toBe(81);
    expect(moreVerbose('error', 'debug')).toBe('debug');
  });
});
