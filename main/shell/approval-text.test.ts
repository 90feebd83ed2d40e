import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../common/contract/index.js';
import {
  approvalArguments,
  dialogArguments,
  MAX_NOTIFIED_CALL,
  MAX_NOTIFIED_SERVER_TEXT,
  MAX_NOTIFIED_TITLE,
  notificationText,
} from './approval-text.js';

function approval(over: Partial<ApprovalView>): ApprovalView {
  return {
    id: 'a1',
    agent: 'Claude Code',
    tool: 'notes_save',
    effect: 'notes_save: Saves a note.',
    arguments: { text: 'hi' },
    inputSchema: {},
    state: 'pending',
    createdAt: '2026-01-01T00:00:00Z',
    expiresAt: '2026-01-01T00:10:00Z',
    ...over,
  };
}

/** Characters that hide or reorder text (the set approval-text.ts refuses), and some that do not. */
const HIDDEN = ['\u202e', '\u2066', '\u200b', '\u00a0', '\u0007', '\n', '\ufeff', '\u061c'];
const text = fc.string({
  unit: fc.oneof(
    { weight: 30, arbitrary: fc.constantFrom('a', 'Z', ' ', '{', '"', ':', 'é', '😀') },
    { weight: 1, arbitrary: fc.constantFrom(...HIDDEN) },
  ),
  maxLength: 30,
});

describe('notification text (issue 32, item 6)', () => {
  it("the call comes first; the server's description follows it, capped", () => {
    const long = `Saves a note. ${'Blah '.repeat(60)}`;
    const t = notificationText(approval({ effect: `notes_save: ${long}` }));
    expect(t.body.split('\n')[0]).toBe('notes_save {"text":"hi"}');
    expect(t.body.split('\n')[1]!.length).toBeLessThanOrEqual(MAX_NOTIFIED_SERVER_TEXT);
    expect(t.body.split('\n')[1]).toMatch(/^Saves a note\. Blah .*…$/);
    expect(t.allow).toBe(true);
  });

  it("no Allow when the server's words or the title hide text, even with a clean call", () => {
    expect(notificationText(approval({ effect: 'notes_save: Saves\u202e a note.' })).allow).toBe(
      false,
    );
    expect(notificationText(approval({ agent: 'Claude\u200b Code' })).allow).toBe(false);
    expect(notificationText(approval({})).allow).toBe(true);
  });

  it('for any agent, tool, description and arguments: Allow only when everything shown is clean, with the whole call first', () => {
    let allowed = 0;
    fc.assert(
      fc.property(
        text,
        text,
        text,
        fc.dictionary(text, text, { maxKeys: 3 }),
        (agent, tool, desc, args) => {
          const a = approval({ agent, tool, effect: `${tool}: ${desc}`, arguments: args });
          const t = notificationText(a);
          const call = `${tool} ${JSON.stringify(args)}`;
          const shown = `${t.title}\n${t.body}`;
          expect([...t.title].length).toBeLessThanOrEqual(MAX_NOTIFIED_TITLE);
          // A clean, short call with clean words around it is never refused its buttons.
          const clean = (s: string) => !HIDDEN.some((h) => s.includes(h));
          const cleanCall = clean(JSON.stringify(args)) && call.length <= MAX_NOTIFIED_CALL;
          if (cleanCall && [agent, tool, desc].every(clean) && !tool.includes(':'))
            expect(t.allow).toBe(true);
          if (!t.allow) return;
          allowed++;
          // What Allow decides on is all there, first, and nothing in the text hides any of it.
          expect(t.body.startsWith(`${call}\n`)).toBe(true);
          expect(call.length).toBeLessThanOrEqual(MAX_NOTIFIED_CALL);
          expect([...t.body.slice(call.length + 1)].length).toBeLessThanOrEqual(
            MAX_NOTIFIED_SERVER_TEXT,
          );
          expect(shown.split('\n')).toHaveLength(3);
          for (const h of HIDDEN)
            if (h !== '\n') expect(shown.includes(h), JSON.stringify(h)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
    // The property held on notifications that do offer Allow, not only on refusals.
    expect(allowed).toBeGreaterThan(25);
  });
});

describe('a call with more arguments than the card has rows (MAX_FIELDS, 60)', () => {
  it('is never allowed from a notification or a native dialog: neither shows it whole', () => {
    fc.assert(
      fc.property(fc.integer({ min: 61, max: 200 }), (n) => {
        const args = Object.fromEntries(Array.from({ length: n }, (_, i) => [`a${i}`, 1]));
        const a = approval({ arguments: args });
        expect(notificationText(a).allow).toBe(false);
        expect(dialogArguments(a)).not.toBe(approvalArguments(a));
      }),
      { numRuns: 50 },
    );
  });
});

describe('a title cut at 80 characters (MAX_NOTIFIED_TITLE)', () => {
  it('offers no Allow: what is left may say less than the call does, or end inside a quote', () => {
    // A Calendar statement cut before its scope: "…, this…" of "this and all following occurrences".
    const effect =
      'Change the event (Tue 17 Mar 09:00–09:15 (UTC-04:00)), this and all following occurrences: new title';
    const scoped = notificationText(approval({ tool: 'calendar_update_event', effect }));
    expect([...scoped.title]).toHaveLength(MAX_NOTIFIED_TITLE);
    expect(scoped.title).not.toContain('following');
    expect(scoped.allow).toBe(false);
    // A server's title cut inside its quote: the closing ” is not shown, so nothing says where
    // the server's words end and Airlock's would begin.
    const title = `Read calendar’ — checked by Airlock: read-only ${'x'.repeat(40)}`;
    const quoted = notificationText(
      approval({ toolTitle: title, effect: `${title}: Reads.`, arguments: {} }),
    );
    expect(quoted.title).toMatch(/^Claude Code wants to use “Read calendar’ .*…$/);
    expect(quoted.title).not.toContain('”');
    expect(quoted.allow).toBe(false);
  });

  it('property: a clean call offers Allow exactly when its title is shown whole', () => {
    const unit = fc.constantFrom('a', 'b', ' ', 'é', '😀');
    // Titles on both sides of the cut ("Claude Code wants to save " is 26 characters).
    const words = fc.oneof(
      fc.string({ unit, maxLength: 54 }),
      fc.string({ unit, minLength: 55, maxLength: 120 }),
    );
    const seen = { whole: 0, cut: 0 };
    fc.assert(
      fc.property(words, (w) => {
        const whole = `Claude Code wants to save ${w}`.trim();
        const t = notificationText(approval({ effect: `Save ${w}` }));
        const fits = [...whole].length <= MAX_NOTIFIED_TITLE;
        seen[fits ? 'whole' : 'cut']++;
        expect(t.allow).toBe(fits);
        if (t.allow) expect(t.title).toBe(whole);
      }),
      { numRuns: 300 },
    );
    expect(Math.min(seen.whole, seen.cut)).toBeGreaterThan(50);
  });
});

describe("a direction control in a server's title (named by common/card-text.ts quoted)", () => {
  it('is shown as [RLO] wherever Allow is offered, never acting', () => {
    for (const title of ['Read\u202e calendar', `${'x'.repeat(70)}\u202e calendar`]) {
      const t = notificationText(
        approval({ toolTitle: title, effect: `${title}: Reads.`, arguments: {} }),
      );
      expect(t.title).not.toMatch(/\p{Bidi_Control}/u);
      // Offered only with the whole title shown, so the named control is in view.
      expect(t.allow).toBe(t.title.includes('[RLO]') && !t.title.endsWith('…'));
    }
  });
});
