import { describe, expect, it } from 'vitest';
import {
  HELD_OUT,
  SEVEN_BENIGN,
  SEVEN_SEEDS,
  TUNING,
  sampleSeven,
  sampleSevenBenign,
} from '../../test-support/addressed-seven-variants.js';
import { addressedInstruction } from './addressed-instructions.js';
import { readingsOf } from './readings.js';

/**
 * Seven classes the addressed-instructions rule still missed (docs/provenance.md, "Entities, the
 * older patterns after markup, clauses, verbs, vendors, phones, brackets"): HTML entities, the
 * older patterns after markup, a clause without a comma, verbs not on the lists, a vendor before
 * the name, a phone number as the destination, a bracketed label. Generated wordings
 * (test-support/addressed-seven-variants.ts), read as the content index reads a stranger's text.
 */

const detected = (t: string) => addressedInstruction(t, readingsOf(t)) !== null;

function measure(name: string, texts: string[], want: boolean, show = true) {
  const wrong = texts.filter((t) => detected(t) !== want);
  console.log(
    `seven classes ${name}: ${want ? 'detected' : 'not flagged'} ${texts.length - wrong.length}/${texts.length}` +
      (show && wrong.length ? `; e.g. ${JSON.stringify([...new Set(wrong)].slice(0, 6))}` : ''),
  );
  return wrong.length;
}

// Misses allowed per class (120 each) and false flags (200 benign per part). Before the change,
// detected (tuning / held out): entities 22 / 8, older after markup 55 / 76, clause without a comma
// 68 / 8, verbs 60 / 42, vendor 21 / 23, phone 77 / 62, bracket 17 / 6; benign flagged 13 / 0.
// After: every class 120 / 120 (the held-out part run once, after); benign 13 / 0 — the same 13,
// flagged before by the older patterns ("Assistant: Jane Roe, Office of the Dean", a line of
// four words after "Assistant:"; "Copilot: when you book …", "when" opening an order).
const MISSES: Record<string, { tuning: number; heldOut: number }> = {
  entities: { tuning: 0, heldOut: 0 },
  olderAfterMarkup: { tuning: 0, heldOut: 0 },
  clauseNoComma: { tuning: 0, heldOut: 0 },
  verbs: { tuning: 0, heldOut: 0 },
  vendor: { tuning: 0, heldOut: 0 },
  phone: { tuning: 0, heldOut: 0 },
  bracket: { tuning: 0, heldOut: 0 },
};
const BENIGN_FLAGS = { tuning: 13, heldOut: 0 };

describe('seven classes, tuning part (generated)', () => {
  const texts = sampleSeven(TUNING, SEVEN_SEEDS.tuning);
  it.each(Object.keys(texts))('detects %s', (cls) => {
    expect(measure(`tuning ${cls}`, texts[cls]!, true)).toBeLessThanOrEqual(MISSES[cls]!.tuning);
  });
  it('flags no ordinary mail using the same words', () => {
    expect(
      measure('tuning benign', sampleSevenBenign(SEVEN_BENIGN.tuning, SEVEN_SEEDS.tuning), false),
    ).toBeLessThanOrEqual(BENIGN_FLAGS.tuning);
  });
});

describe('seven classes, held-out part (generated; run once, after the change)', () => {
  const texts = sampleSeven(HELD_OUT, SEVEN_SEEDS.heldOut);
  it.each(Object.keys(texts))('detects %s', (cls) => {
    expect(measure(`held-out ${cls}`, texts[cls]!, true, false)).toBeLessThanOrEqual(
      MISSES[cls]!.heldOut,
    );
  });
  it('flags few ordinary texts', () => {
    expect(
      measure(
        'held-out benign',
        sampleSevenBenign(SEVEN_BENIGN.heldOut, SEVEN_SEEDS.heldOut),
        false,
        false,
      ),
    ).toBeLessThanOrEqual(BENIGN_FLAGS.heldOut);
  });
});
