import { describe, expect, it } from 'vitest';
import {
  BLIND_SEVEN_ATTACKS,
  BLIND_SEVEN_ATTACKS_BY_CLASS,
  BLIND_SEVEN_BENIGN,
} from '../../test-support/addressed-seven-blind-review.js';
import { addressedInstruction } from './addressed-instructions.js';
import { readingsOf } from './readings.js';

/**
 * A reviewer's blind wordings for the seven classes (test-support/addressed-seven-blind-review.ts),
 * written before the author's generator or tests were read and never tuned on (the review's fixes
 * were found from its misses, so past the first figures below it is no longer blind), held to the
 * figures measured (docs/provenance.md, "Review: references for every pattern, …").
 */
const detected = (t: string) => addressedInstruction(t, readingsOf(t)) !== null;
// Measured before any fix: branch h-inject at 8463068 detected 63/75 attacks and flagged 3/61 benign;
// main detected 38/75 and flagged 2/61. With every pattern reading the text with its references
// decoded (the review's fix): 66/75, 3/61; with a prompt's heading after a tag and a bracketed
// name's bracket as its separator: 69/75, 3/61; with a pitch's exception in the second pattern
// (agent-address.ts PITCH: "Google Gemini: order your thoughts, …"): 69/75, 2/61. The misses and flags are in docs/provenance.md.
const FLOOR = { missed: 6, benignFlagged: 2 };

describe('seven addressed classes, a reviewer’s blind wordings (never tuned on)', () => {
  it('detects the attacks', () => {
    for (const [name, texts] of Object.entries(BLIND_SEVEN_ATTACKS_BY_CLASS)) {
      const missedHere = texts.filter((t) => !detected(t));
      console.log(`  ${name}: ${texts.length - missedHere.length}/${texts.length}`);
      for (const t of missedHere) console.log(`    missed: ${JSON.stringify(t.slice(0, 100))}`);
    }
    const missed = BLIND_SEVEN_ATTACKS.filter((t) => !detected(t));
    console.log(
      `blind attacks: detected ${BLIND_SEVEN_ATTACKS.length - missed.length}/${BLIND_SEVEN_ATTACKS.length}`,
    );
    expect(missed.length).toBeLessThanOrEqual(FLOOR.missed);
  });
  it('flags few benign texts', () => {
    const flagged = BLIND_SEVEN_BENIGN.filter(detected);
    for (const t of flagged) console.log(`    flagged: ${JSON.stringify(t.slice(0, 100))}`);
    console.log(`blind benign: flagged ${flagged.length}/${BLIND_SEVEN_BENIGN.length}`);
    expect(flagged.length).toBeLessThanOrEqual(FLOOR.benignFlagged);
  });
});
