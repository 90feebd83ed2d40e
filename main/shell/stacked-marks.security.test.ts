import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '../../common/contract/index.js';
import { argumentsHideText, hidesText, notificationText } from './approval-text.js';

/**
 * A prompt draws combining marks as they stack (red-team finding R1, common/stacked-marks.ts):
 * sixty marks above a letter paint over the lines around it, so a call holding more than any
 * writing stacks is not "shown whole" — no Allow in a notification or the native dialog; the
 * window names the run (renderer/src/approvals/stacked-marks.security.test.tsx).
 */
const stacked = (word: string, n: number) => [...word].map((c) => c + '\u030d'.repeat(n)).join('');

describe('the native prompts and stacked marks', () => {
  it('offer no Allow for a subject with a stack of marks', () => {
    expect(hidesText(stacked('x', 5))).toBe(true);
    expect(argumentsHideText({ subject: stacked('ok', 8) })).toBe(true);
    const view = {
      agent: 'claude',
      tool: 'gmail_send',
      effect: 'Send an e-mail to bob@example.com.',
      arguments: { to: 'bob@example.com', subject: stacked('Hi', 20) },
    } as unknown as ApprovalView;
    expect(notificationText(view).allow).toBe(false);
    // Composed: ᾯ (U+1FAF) carries three of its own; two more make a stack, as on the card.
    expect(argumentsHideText({ subject: '\u1faf\u0301\u0300' })).toBe(true);
    expect(argumentsHideText({ subject: '\u1faf\u0301' })).toBe(false);
    // An emoji is a picture between runs, not a gap that joins them (three and three).
    expect(hidesText('x\u0301\u0301\u0301😀\u0301\u0301\u0301')).toBe(false);
    expect(
      notificationText({ ...view, arguments: { to: 'bob@example.com', subject: 'Hi' } }).allow,
    ).toBe(true);
  });

  it('read writing with a few marks per letter as shown', () => {
    expect(hidesText('Tie\u0302\u0301ng Vie\u0323\u0302t')).toBe(false);
    expect(argumentsHideText({ subject: 'Tie\u0302\u0301ng Vie\u0323\u0302t 1️⃣' })).toBe(false);
    // Burmese: five marks in a row, three of them spacing (Mc): not a stack.
    expect(hidesText('ဈေးလျှော့ မျှော့')).toBe(false);
    expect(argumentsHideText({ subject: 'ဈေးလျှော့' })).toBe(false);
  });
});
