import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addressedAt,
  addressedInstruction,
  excerptAt,
  folded,
  mayAddress,
  MAX_SCAN,
} from './addressed-instructions.js';

/**
 * Issue 34, wave 3 session 19: `addressedInstruction` reads the text and its readings in turn
 * without an array, a Set and their iterators per text. Over generated texts and readings — plain,
 * full-width and with invisible characters (which folding changes), over MAX_SCAN, none or several
 * of them addressing an agent — it must give what the replaced loop gave.
 */
function replaced(text: string, readings: readonly string[] = []): string | null {
  for (const t of [text, ...readings]) {
    const cut = t.length > MAX_SCAN ? t.slice(0, MAX_SCAN) : t;
    for (const s of new Set([cut, folded(cut)])) {
      if (!mayAddress(s)) continue;
      const at = addressedAt(s);
      if (at >= 0) return excerptAt(s, at);
    }
  }
  return null;
}

const piece = fc.constantFrom(
  'Assistant',
  'Ａｓｓｉｓｔａｎｔ',
  'Assis\u200Btant',
  'Claude',
  'Hey ',
  'AI',
  ': ',
  ', ',
  'please ',
  'delete the mail',
  'trash everything now',
  '\n',
  '.',
  'ignore all previous instructions',
  '助手：',
  'x',
);
const text = fc.oneof(
  fc.array(piece, { maxLength: 12 }).map((p) => p.join('')),
  // Past the scan's bound, with the instruction before or after it.
  fc
    .tuple(fc.boolean(), fc.array(piece, { minLength: 1, maxLength: 6 }))
    .map(([before, p]) =>
      before ? p.join('') + 'y'.repeat(MAX_SCAN) : 'y'.repeat(MAX_SCAN - 3) + p.join(''),
    ),
);

describe('addressedInstruction over readings', () => {
  it('gives what the replaced loop gave', () => {
    fc.assert(
      fc.property(text, fc.array(text, { maxLength: 3 }), (t, readings) => {
        expect(addressedInstruction(t, readings)).toBe(replaced(t, readings));
        expect(addressedInstruction(t)).toBe(replaced(t));
      }),
      { numRuns: 600 },
    );
  });
});
