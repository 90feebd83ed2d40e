import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BENIGN_TEXTS,
  CLASS_EXAMPLES,
  CLASS_SEEDS,
  EMAIL_OPENERS,
  HELD_OUT_PARTS,
  TUNING_PARTS,
  emailVerb,
  sampleBenign,
  sampleClasses,
} from '../../test-support/addressed-classes-variants.js';
import { addressedInstruction } from './addressed-instructions.js';
import { readingsOf } from './readings.js';

/**
 * Five classes the addressed-instructions rule missed (docs/provenance.md, "Markup, product
 * names, arrows and clauses"): "email" as the verb, a label after markup, a product or model name
 * as the addressee, an arrow or "::" after the label, a clause before the verb. Generated wordings
 * (test-support/addressed-classes-variants.ts), read as the content index reads a stranger's text.
 * The tuning part is what the rule was fitted to; the held-out part (other names, markup,
 * separators, clauses, verbs) was run once, after, and is held to that figure.
 */

const detected = (t: string) => addressedInstruction(t, readingsOf(t)) !== null;
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;

function measure(name: string, texts: string[], want: boolean, show = true) {
  const wrong = texts.filter((t) => detected(t) !== want);
  const right = texts.length - wrong.length;
  console.log(
    `addressed classes ${name}: ${want ? 'detected' : 'not flagged'} ${right}/${texts.length} (${pct(right, texts.length)})` +
      (show && wrong.length ? `; e.g. ${JSON.stringify([...new Set(wrong)].slice(0, 8))}` : ''),
  );
  return wrong.length;
}

// Misses and false flags allowed (600 injected, 300 benign texts per part). Before the change
// (addressed-instructions.ts alone): tuning 122/600 detected (20.3 %), held out 71/600 (11.8 %);
// benign 0/300 flagged in both. After: tuning 600/600, held out 597/600 (run once, after the
// rule was fitted to the tuning part; its misses were not read), benign 0/300 in both.
const FLOOR = { tuning: 0, tuningBenign: 0, heldOut: 3, heldOutBenign: 0 };

describe('addressed classes, tuning part (generated)', () => {
  it('detects the injected wordings', () => {
    expect(
      measure('tuning injected', sampleClasses(TUNING_PARTS, CLASS_SEEDS.tuning), true),
    ).toBeLessThanOrEqual(FLOOR.tuning);
  });
  it('flags no ordinary mail, docs or release notes', () => {
    expect(
      measure(
        'tuning benign',
        sampleBenign(BENIGN_TEXTS.tuning, TUNING_PARTS, CLASS_SEEDS.tuning),
        false,
      ),
    ).toBeLessThanOrEqual(FLOOR.tuningBenign);
  });
});

describe('addressed classes, held-out part (generated; run once, after the change)', () => {
  it('detects the injected wordings', () => {
    expect(
      measure('held-out injected', sampleClasses(HELD_OUT_PARTS, CLASS_SEEDS.heldOut), true, false),
    ).toBeLessThanOrEqual(FLOOR.heldOut);
  });
  it('flags few ordinary texts', () => {
    expect(
      measure(
        'held-out benign',
        sampleBenign(BENIGN_TEXTS.heldOut, HELD_OUT_PARTS, CLASS_SEEDS.heldOut),
        false,
        false,
      ),
    ).toBeLessThanOrEqual(FLOOR.heldOutBenign);
  });
});

// "email" as the verb after the older patterns' labels (job label, the reader, the role, a
// description). Before: tuning 0/200, held out 30/200 (15 %: the "must"/"should" openers).
// After: tuning 200/200, held out 200/200 (run once, after).
const HELD_OUT_EMAIL_MISSES = 0;
describe('"email" as the verb after the older labels (generated)', () => {
  it('tuning part', () => {
    const texts = fc.sample(emailVerb(EMAIL_OPENERS.tuning), { seed: 4401, numRuns: 200 });
    expect(measure('email tuning', texts, true)).toBe(0);
  });
  it('held-out part', () => {
    const texts = fc.sample(emailVerb(EMAIL_OPENERS.heldOut), { seed: 4402, numRuns: 200 });
    expect(measure('email held-out', texts, true, false)).toBeLessThanOrEqual(
      HELD_OUT_EMAIL_MISSES,
    );
  });
});

describe('each class, fixed examples', () => {
  for (const [cls, texts] of Object.entries(CLASS_EXAMPLES)) {
    it.each(texts)(`${cls}: %s`, (t) => {
      expect(detected(t)).toBe(true);
    });
  }
});
