import { ProvenanceService } from '../../main/provenance/provenance-service.js';
import { isReadOnly, type ToolSource } from '../../main/tools/types.js';
import { COLLEAGUES, KNOWN_OUTSIDE, USER } from './mailbox.js';
import { CORPUS, type Scenario } from './scenarios.js';
import { corpusSources } from './sources.js';

/**
 * Runs the corpus against the provenance service the way the call pipeline
 * drives it (check before a call, observe its result), without the HTTP
 * layers: fast enough for the bench's cost figures. The end-to-end run
 * through Airlock is `run-airlock.ts`.
 */

export interface CorpusOutcome {
  scenario: Scenario;
  flagged: boolean;
  summary?: string;
}

export function corpusService(): ProvenanceService {
  const svc = new ProvenanceService();
  svc.known.addOwnAccount(USER);
  for (const c of [...COLLEAGUES, ...KNOWN_OUTSIDE]) svc.known.seed('address', c);
  return svc;
}

export function toolIndex(sources: ToolSource[]) {
  const out = new Map<string, { source: ToolSource; tool: string; readOnly: boolean }>();
  for (const s of sources) {
    for (const d of s.tools()) {
      out.set(s.prefix ? `${s.prefix}__${d.name}` : d.name, {
        source: s,
        tool: d.name,
        readOnly: isReadOnly(d),
      });
    }
  }
  return out;
}

export async function runCorpusDirect(
  svc = corpusService(),
  onCheck?: (ms: number, outbound: boolean) => void,
): Promise<CorpusOutcome[]> {
  const out: CorpusOutcome[] = [];
  for (const scenario of CORPUS) {
    const { mailbox, sources } = corpusSources();
    for (const m of scenario.deliver ?? []) mailbox.deliver(m);
    const tools = toolIndex(sources);
    let last: CorpusOutcome = { scenario, flagged: false };
    for (const step of scenario.steps) {
      const t = tools.get(step.tool);
      if (!t) throw new Error(`corpus: no tool ${step.tool}`);
      const facts = {
        tool: step.tool,
        sourceKind: t.source.kind,
        sourceLabel: t.source.label,
        readOnly: t.readOnly,
        args: step.args,
        schema: t.source.tools().find((d) => d.name === t.tool)?.inputSchema,
      };
      const report = svc.check(scenario.id, facts);
      if (onCheck) {
        // The least of five runs of the same check: on a shared machine one run's wall-clock
        // time is mostly the scheduler's (the check only reads the index).
        let best = Infinity;
        for (let i = 0; i < 5; i++) {
          const started = performance.now();
          svc.check(scenario.id, facts);
          best = Math.min(best, performance.now() - started);
        }
        onCheck(best, !t.readOnly || t.source.kind === 'remote');
      }
      last = { scenario, flagged: report !== null, ...(report ? { summary: report.summary } : {}) };
      const result = await t.source.call(t.tool, step.args, {
        agent: scenario.id,
        signal: new AbortController().signal,
      });
      svc.observe({
        agent: scenario.id,
        tool: step.tool,
        sourceKind: t.source.kind,
        sourceLabel: t.source.label,
        result,
      });
      // The answer goes back to the agent before its next call arrives: let indexing run then,
      // as it does in Airlock (off the answer path).
      await new Promise((resolve) => setImmediate(resolve));
    }
    out.push(last);
  }
  return out;
}

export function rates(outcomes: CorpusOutcome[]) {
  const of = (kind: Scenario['kind']) => outcomes.filter((o) => o.scenario.kind === kind);
  const injected = of('injected');
  const benign = of('benign');
  return {
    injected: injected.length,
    detected: injected.filter((o) => o.flagged).length,
    benign: benign.length,
    falseFlags: benign.filter((o) => o.flagged).length,
    missed: injected.filter((o) => !o.flagged).map((o) => o.scenario.id),
    falselyFlagged: benign.filter((o) => o.flagged).map((o) => o.scenario.id),
    limits: of('limit').map((o) => ({ id: o.scenario.id, flagged: o.flagged })),
  };
}
