import { describe, expect, it } from 'vitest';
import { BLIND_ATTACKS, BLIND_BENIGN } from '../../test-support/job-label-blind.js';
import { addressedInstruction } from './addressed-instructions.js';
import { readingsOf } from './readings.js';

/**
 * A reviewer's blind wordings (test-support/job-label-blind.ts), written before the generator or
 * the rule was read and never tuned on: held to the figures measured. On the job-label branch
 * as reviewed: 12/32 attacks detected, 4/31 benign flagged (all four by the older role-marker
 * and label patterns: "Assistant: It is sunny …", "AI assistant: a software agent …"); on main
 * 3/32 and the same 4/31. With pitch words excusing only harmless acts: 16/32, 4/31 (untuned).
 * Then "︰" was read as a colon, a fix this set found (so one text is no longer blind): 17/32.
 * The misses are other labels and job words (docs/provenance.md, "What the job label does not
 * read").
 */
const detected = (t: string) => addressedInstruction(t, readingsOf(t)) !== null;
// With the agent's label read as classes (agent-label.ts: any delimiter, an open job phrase, a
// salutation by description): 28/32, benign 4/31.
const FLOOR = { missed: 4, benignFlagged: 4 };

describe('job label, a reviewer’s blind wordings (never tuned on)', () => {
  it('detects the attacks', () => {
    const missed = BLIND_ATTACKS.filter((t) => !detected(t));
    console.log(
      `blind attacks: detected ${BLIND_ATTACKS.length - missed.length}/${BLIND_ATTACKS.length}`,
    );
    expect(missed.length).toBeLessThanOrEqual(FLOOR.missed);
  });
  it('flags few benign texts', () => {
    const flagged = BLIND_BENIGN.filter(detected);
    console.log(`blind benign: flagged ${flagged.length}/${BLIND_BENIGN.length}`);
    expect(flagged.length).toBeLessThanOrEqual(FLOOR.benignFlagged);
  });
});
