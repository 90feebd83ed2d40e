import { describe, expect, it } from 'vitest';
import {
  REVIEW_BLIND_BENIGN,
  REVIEW_BLIND_INJECTED,
  REVIEW_FRESH_BENIGN,
  REVIEW_FRESH_INJECTED,
} from '../../test-support/agent-label-review-blind.js';
import { addressedInstruction } from './addressed-instructions.js';
import { readingsOf } from './readings.js';

/**
 * A second reviewer's blind sets for the agent's label as classes (test-support/
 * agent-label-review-blind.ts), read as the content index reads a stranger's text and held to
 * the figures measured: a floor for detected, a ceiling for benign flagged.
 *
 * First part (written before agent-label.ts or its generator was read):
 *   main (684f89c) 19/40 detected, 3/40 benign flagged; the agent-label branch 27/40, 4/40
 *   ("Job opening — Customer Support Agent: please send your CV …"); with the reviewer's change
 *   (a person's job noun needs a software word) 27/40, 3/40. This part was read while choosing
 *   that change, so it is not held out for it.
 * Fresh part (written after that change, run once): main 2/15, 2/15; the branch before the change
 *   13/15, 7/15 ("Support agent (Priya): please send …", "Teaching assistant | please share …",
 *   "Sales agent, please add …"); after it 13/15, 2/15 (both also flagged on main: "Dear booking
 *   agent, …" by job-label.ts's list, "To the agent handling my claim: …").
 * The misses of both parts are outside the label: "email" as a verb, a label after "<p>", "**",
 * "- " or ">> ", "Gemini" by name, "reply to" with no determiner.
 */
const detected = (t: string) => addressedInstruction(t, readingsOf(t)) !== null;
const FLOOR = { blind: 27, blindBenign: 3, fresh: 13, freshBenign: 2 };

function report(name: string, injected: readonly string[], benign: readonly string[]) {
  const hits = injected.filter(detected).length;
  const flagged = benign.filter(detected);
  console.log(
    `review ${name}: detected ${hits}/${injected.length}, benign flagged ${flagged.length}/${benign.length}` +
      (flagged.length ? `; e.g. ${JSON.stringify(flagged.slice(0, 4))}` : ''),
  );
  return { hits, flagged: flagged.length };
}

describe('agent label, a second reviewer’s blind sets', () => {
  it('first part: detects the injected texts and flags few benign ones', () => {
    const r = report('blind', REVIEW_BLIND_INJECTED, REVIEW_BLIND_BENIGN);
    expect(r.hits).toBeGreaterThanOrEqual(FLOOR.blind);
    expect(r.flagged).toBeLessThanOrEqual(FLOOR.blindBenign);
  });
  it('fresh part: detects the injected texts and flags few benign ones', () => {
    const r = report('fresh', REVIEW_FRESH_INJECTED, REVIEW_FRESH_BENIGN);
    expect(r.hits).toBeGreaterThanOrEqual(FLOOR.fresh);
    expect(r.flagged).toBeLessThanOrEqual(FLOOR.freshBenign);
  });
});
