import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { summarize } from '../../../renderer/src/approvals/summary.js';
import { forgingText } from '../../../test-support/card-forging.js';
import { SeenMessages } from './cache.js';
import { describeCompose } from './send.js';

/**
 * The card's To, Cc and Bcc are read as lists (renderer summary.ts lays out one recipient per
 * entry, split at commas). A display name is the agent's text — or a stranger's, on a reply — and
 * a name "ceo@bank.com, Real" on eve@evil.test showed two recipients, ceo@bank.com among them,
 * for a call that reaches one. Read as the window reads it, the card names each recipient the
 * call has, once, and no other.
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
        const s = summarize({ tool: 'gmail_send', arguments: args, effect, thirdParty: false });
        expect(s.kind).toBe('email');
        if (s.kind !== 'email') return;
        const addressOf = (entry: string) => /<([^<>]*)>$/.exec(entry)?.[1];
        expect(s.to.map(addressOf)).toEqual(to.map((m) => m.address));
        expect(s.cc.map(addressOf)).toEqual(['c@x.test']);
      }),
      { numRuns: 300 },
    );
  });
});
