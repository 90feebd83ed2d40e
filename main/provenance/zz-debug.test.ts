import { it } from 'vitest';
import { OUTSIDE_CHAIN_ALL, outsideSessions } from '../../test-support/provenance-corpus/outside-cases.js';
import { CorpusRunner } from '../../test-support/provenance-corpus/runner.js';
const IDS = (process.env.IDS ?? '').split(',');
const VALS = (process.env.VALS ?? '').split(',');
it('debug', async () => {
  const runner = await new CorpusRunner(undefined, { judgedMayFail: true }).start();
  const cases = OUTSIDE_CHAIN_ALL.filter((c) => IDS.includes(c.id));
  const out = await runner.run(outsideSessions(cases));
  for (const o of out) {
    console.log(o.session.id, o.flagged, JSON.stringify(o.report?.findings?.map((f) => f.text)));
    const idx = (runner.svc as any).agents.get(o.session.id);
    for (const v of VALS) {
      const [kind, value] = v.split('=');
      console.log(v, JSON.stringify(idx.itemsWithValue({ kind, value }).map((i: any) => ({ l: i.label, t: i.tool, u: i.untrusted, o: i.own, f: i.from, a: i.audience }))));
    }
  }
  await runner.stop();
}, 60000);
