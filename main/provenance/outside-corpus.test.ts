import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CorpusRunner,
  figures,
  type Outcome,
} from '../../test-support/provenance-corpus/runner.js';
import {
  outsideSessions,
  outsideSplit,
} from '../../test-support/provenance-corpus/outside-cases.js';

/**
 * The outside injection corpus (outside-corpus.ts), run the way the call pipeline drives the
 * provenance service: mail through the real Gmail tools against the fake Gmail API, events
 * through the Calendar tools, pages from a third-party server with Airlock's untrusted marking,
 * the check before each call. The judged call is each session's last. Both parts' figures are
 * printed; the held-out part is only held to the floor measured once, after tuning.
 */

let runner: CorpusRunner;
let outcomes: Outcome[];
const sessions = outsideSessions();
const split = outsideSplit();

beforeAll(async () => {
  runner = await new CorpusRunner(undefined, { judgedMayFail: true }).start();
  outcomes = await runner.run(sessions);
}, 300_000);
afterAll(() => runner?.stop());

const part = (ids: Set<string>) => figures(outcomes.filter((o) => ids.has(o.session.id)));
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;
function report(name: string, f: ReturnType<typeof figures>): string {
  return (
    `${name}: detected ${f.detected}/${f.detectable} (${pct(f.detected, f.detectable)}), ` +
    `false flags ${f.falseFlags}/${f.benign} (${pct(f.falseFlags, f.benign)})` +
    (f.missed.length ? `; missed: ${f.missed.join(', ')}` : '') +
    (f.falselyFlagged.length ? `; false flags: ${f.falselyFlagged.join(', ')}` : '')
  );
}

describe('outside injection corpus', () => {
  it('reports both parts', () => {
    const tuning = part(split.tuning);
    const held = part(split.heldOut);
    console.log(report('outside corpus, tuning part', tuning));
    console.log(report('outside corpus, held-out part', held));
    expect(tuning.detectable + held.detectable + tuning.benign + held.benign).toBe(sessions.length);
  });
});
