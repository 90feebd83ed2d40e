import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardList } from '../../../common/card-text.js';
import { forgingText } from '../../../test-support/card-forging.js';
import { SeenMessages } from './cache.js';
import { describeCompose } from './send.js';

/**
 * The card's To, Cc and Bcc are read as lists: the window lays out one recipient per entry, split
 * by common/card-text.ts cardList (renderer summary.ts), as read here. A display name is the
 * agent's text — or a stranger's, on a reply — and a name "ceo@bank.com, Real" on eve@evil.test
 * showed two recipients, ceo@bank.com among them, for a call that reaches one. Read as the window
 * reads it, the card names each recipient the call has, once, and no other.
 */

const name = forgingText([', ', '; ', 'ceo@bank.com', '<ceo@bank.com>', 'Real', ' ']).filter(
  // A name the parser takes (it refuses control characters) and that is not blank.
  (n) => !/\p{Cc}/u.test(n) && n.trim() !== '',
);

describe('property: a mail card lists exactly the recipients the call has', () => {
  it('whatever their display names hold', () => {
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 3 }), name, (names, ccName) => {
        const to = names.map((n, i) => ({ name: n, address: `r${i}@x.test` }));
        // Written as a quoted RFC 5322 display name, so the parser reads the name back whole.
        const arg = (m: { name: string; address: string }) =>
          `"${m.name.replace(/[\\"]/g, '\\$&')}" <${m.address}>`;
        const args = {
          to: to.map(arg),
          cc: [arg({ name: ccName, address: 'c@x.test' })],
          subject: 's',
          body: 'x',
        };
        const effect = describeCompose('send', 'alice@example.com', args, new SeenMessages());
        if (effect.includes('will FAIL')) return;
        const field = (key: string) =>
          cardList(
            effect
              .split('\n')
              .find((l) => l.startsWith(`${key}: `))!
              .slice(key.length + 2),
          );
        const addressOf = (entry: string) => /<([^<>]*)>\s*$/.exec(entry)?.[1];
        expect(field('To').map(addressOf)).toEqual(to.map((m) => m.address));
        expect(field('Cc').map(addressOf)).toEqual(['c@x.test']);
      }),
      { numRuns: 300 },
    );
  });
});
