import { corpus, split } from '../provenance-corpus/corpus.js';
import { CorpusRunner, figures } from '../provenance-corpus/runner.js';
import { corpusService, rates, runCorpusDirect } from './run-direct.js';

export { corpusService, rates, runCorpusDirect };

/**
 * Issue 30's corpus (test-support/provenance-corpus/) run `rounds` times through one service
 * (the index fills as it would over a working day): each outbound check's duration, and the
 * figures of the first round for the tuning part and the held-out third.
 */
export async function provenanceCorpus(rounds = 3) {
  const runner = await new CorpusRunner().start();
  const checks: number[] = [];
  try {
    const sessions = corpus();
    const first = await runner.run(sessions, (ms) => checks.push(ms));
    for (let i = 1; i < rounds; i++) await runner.run(sessions, (ms) => checks.push(ms));
    const parts = split(sessions);
    const of = (list: typeof sessions) => {
      const ids = new Set(list.map((s) => s.id));
      return figures(first.filter((o) => ids.has(o.session.id)));
    };
    return {
      checks,
      sessions: sessions.length,
      tuning: of(parts.tuning),
      heldOut: of(parts.heldOut),
    };
  } finally {
    await runner.stop();
  }
}

/**
 * A long session for the memory figure: one agent reads `reads` distinct mails of ~2 KB from
 * strangers (every one adds new addresses, links and phrases). Returns index sizes and heap
 * after GC at four points; bounded when the last two are within 10% of each other.
 */
export async function longSession(reads = 8000) {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const baseline = process.memoryUsage().heapUsed;
  const svc = corpusService();
  const keysAt: number[] = [];
  const heapAt: number[] = [];
  let bytesRead = 0;
  let observeMs = 0;
  for (let i = 1; i <= reads; i++) {
    const text = Array.from(
      { length: 40 },
      (_, j) =>
        `note ${i} line ${j} from sender${i}@host${i}.example see https://h${i}.example/p${j}`,
    ).join('\n');
    bytesRead += text.length;
    const t0 = performance.now();
    svc.observe({
      agent: 'long',
      tool: 'gmail_read',
      sourceKind: 'google',
      sourceLabel: 'Gmail',
      result: {
        content: [{ type: 'text', text }],
        _meta: {
          'airlock/provenance': [
            {
              kind: 'mail',
              label: `m${i}`,
              ref: `m${i}`,
              from: [`sender${i}@host${i}.example`],
              text,
            },
          ],
        },
      },
    });
    svc.drain(); // indexing runs off the answer path; time it here all the same
    observeMs += performance.now() - t0;
    if (i % (reads / 4) === 0) {
      gc?.();
      keysAt.push(svc.sizes().long ?? 0);
      heapAt.push(process.memoryUsage().heapUsed);
    }
  }
  const [a, b] = [heapAt[2]!, heapAt[3]!];
  return {
    reads,
    bytesRead,
    observeMsPerRead: observeMs / reads,
    keysAt,
    heapAt,
    baseline,
    bounded: Math.abs(b - a) / a < 0.1,
  };
}
