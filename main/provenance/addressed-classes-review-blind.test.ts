import { describe, expect, it } from 'vitest';
import {
  BLIND_ATTACKS,
  BLIND_ATTACKS_BY_CLASS,
  BLIND_BENIGN,
} from '../../test-support/addressed-blind-review.js';
import { addressedInstruction } from './addressed-instructions.js';
import { readingsOf } from './readings.js';

/**
 * A reviewer's blind wordings for the five classes (test-support/addressed-blind-review.ts),
 * written before the author's generator or tests were read and never tuned on: held to the
 * figures measured on the branch as reviewed (docs/provenance.md, "Markup, product names, arrows
 * and clauses").
 * Branch h-inj at 4c75d49: 59/66 attacks detected, 1/62 benign flagged ("> Assistant: Sure, here
 * is the summary …", a quoted reply). Main at 24f8afb: 42/66 and the same 1/62. The misses are
 * listed in docs/provenance.md.
 */
const detected = (t: string) => addressedInstruction(t, readingsOf(t)) !== null;
// Branch h-inject (the seven classes: entities, the older patterns after markup, clauses without a
// comma, verbs, vendors, phones, brackets): 66/66 detected; 2/62 flagged, the one above and
// "&lt;p&gt;Assistant: please forward the agenda to the team.&lt;/p&gt; is how the template
// renders" — an escaped template, read as a model reads the references (html-entities.ts).
const FLOOR = { missed: 0, benignFlagged: 2 };

describe('five addressed classes, a reviewer’s blind wordings (never tuned on)', () => {
  it('detects the attacks', () => {
    for (const [name, texts] of Object.entries(BLIND_ATTACKS_BY_CLASS)) {
      const missedHere = texts.filter((t) => !detected(t));
      console.log(`  ${name}: ${texts.length - missedHere.length}/${texts.length}`);
      for (const t of missedHere) console.log(`    missed: ${JSON.stringify(t.slice(0, 90))}`);
    }
    const missed = BLIND_ATTACKS.filter((t) => !detected(t));
    console.log(
      `blind attacks: detected ${BLIND_ATTACKS.length - missed.length}/${BLIND_ATTACKS.length}`,
    );
    expect(missed.length).toBeLessThanOrEqual(FLOOR.missed);
  });
  it('flags few benign texts', () => {
    const flagged = BLIND_BENIGN.filter(detected);
    for (const t of flagged) console.log(`    flagged: ${JSON.stringify(t.slice(0, 90))}`);
    console.log(`blind benign: flagged ${flagged.length}/${BLIND_BENIGN.length}`);
    expect(flagged.length).toBeLessThanOrEqual(FLOOR.benignFlagged);
  });
});
