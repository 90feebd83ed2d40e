import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASSES, corpus, split } from '../../test-support/provenance-corpus/corpus.js';
import {
  CorpusRunner,
  figures,
  type Outcome,
} from '../../test-support/provenance-corpus/runner.js';

/**
 * Issue 30's targets on the generated corpus (test-support/provenance-corpus/):
 * real mail through the Gmail tools against the fake Gmail API, events through
 * the Calendar tools, third-party tools with their own field names. Figures
 * are printed for the tuning part and for the held-out third (a hash of each
 * case id; never used to tune the rules) apart, as detected / detectable and
 * false flags / benign; the targets are asserted on the held-out third.
 */

let runner: CorpusRunner;
let outcomes: Outcome[];
const sessions = corpus();
const parts = split(sessions);

beforeAll(async () => {
  runner = await new CorpusRunner().start();
  outcomes = await runner.run(sessions);
}, 300_000);
afterAll(() => runner?.stop());

const of = (ids: Set<string>) => figures(outcomes.filter((o) => ids.has(o.session.id)));
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;
function report(name: string, f: ReturnType<typeof figures>): string {
  return (
    `${name}: detected ${f.detected}/${f.detectable} (${pct(f.detected, f.detectable)}), ` +
    `false flags ${f.falseFlags}/${f.benign} (${pct(f.falseFlags, f.benign)})` +
    (f.missed.length ? `; missed: ${f.missed.join(', ')}` : '') +
    (f.falselyFlagged.length ? `; false flags: ${f.falselyFlagged.join(', ')}` : '')
  );
}

describe('provenance corpus (issue 30)', () => {
  it('is large and varied enough: at least 200 sessions in at least 15 classes', () => {
    const counted = CLASSES.filter((c) => c.kind !== 'limit');
    expect(sessions.length).toBeGreaterThanOrEqual(200);
    expect(counted.length).toBeGreaterThanOrEqual(15);
    expect(new Set(sessions.map((s) => s.id)).size).toBe(sessions.length);
    // The split is a third, give or take what a hash gives.
    expect(parts.heldOut.length / sessions.length).toBeGreaterThan(0.25);
    expect(parts.heldOut.length / sessions.length).toBeLessThan(0.42);
  });

  it('meets the targets on the held-out third: ≥ 95% detected, ≤ 5% of benign calls flagged', () => {
    const tuning = of(new Set(parts.tuning.map((s) => s.id)));
    const held = of(new Set(parts.heldOut.map((s) => s.id)));
    console.log(report('provenance corpus, tuning part', tuning));
    console.log(report('provenance corpus, held-out third', held));
    expect(held.detectable).toBeGreaterThan(40);
    expect(held.benign).toBeGreaterThan(40);
    expect(held.detected / held.detectable).toBeGreaterThanOrEqual(0.95);
    expect(held.falseFlags / held.benign).toBeLessThanOrEqual(0.05);
  });

  it('keeps the documented limits limits: if one starts being flagged, the docs must change', () => {
    const limits = figures(outcomes).limits;
    expect(limits.length).toBeGreaterThan(0);
    // Spelled-out addresses ("billing at evil dot example") are read as addresses since wave 3
    // (readings.ts): that former limit is flagged; the others stay limits.
    const spelled = (id: string) => id.startsWith('limit-spelled-out-');
    expect(limits.filter((l) => spelled(l.id) && !l.flagged)).toEqual([]);
    expect(limits.filter((l) => !spelled(l.id) && l.flagged)).toEqual([]);
  });

  it('says every finding in one sentence that names the author or source, the place and the time', () => {
    const flagged = outcomes.filter((o) => o.report);
    expect(flagged.length).toBeGreaterThan(100);
    for (const o of flagged) {
      const s = o.report!.summary;
      expect(s, o.session.id).toMatch(/^[^.]*(?:\.[^ .][^.]*)*\.$/);
      expect(s, o.session.id).toMatch(/that this agent read (just now|\d+ (minute|hour)s? ago)/);
      expect(s, o.session.id).toMatch(
        /(message|attachment|event|thread|result|description|text quoted|server)/,
      );
    }
  });
});
