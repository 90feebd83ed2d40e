import { describe, expect, it } from 'vitest';
import { markUntrusted } from '../tools/untrusted.js';
import { ProvenanceService } from './provenance-service.js';

/** When an observed result is indexed (issue 34: no event-loop turn of its own per call). */
describe('observed results', () => {
  const echo = (svc: ProvenanceService, i: number) =>
    svc.observe({
      agent: 'a',
      tool: 'everything__echo',
      sourceKind: 'remote',
      sourceLabel: 'everything',
      result: markUntrusted(
        { content: [{ type: 'text', text: `see https://x${i}.example/` }] },
        'everything',
      ),
    });

  it('are indexed once the promise jobs of their turn are done, before the loop polls again', async () => {
    const svc = new ProvenanceService();
    echo(svc, 1);
    echo(svc, 2);
    expect(svc.pending).toBe(2);
    // A nextTick queued after the observations runs after the indexing (same queue, in order);
    // a setImmediate would not have run yet.
    await new Promise<void>((resolve) => process.nextTick(resolve));
    expect(svc.pending).toBe(0);
    expect(svc.sizes().a).toBeGreaterThan(0);
  });

  it('are indexed before a call is checked, even within the same turn', () => {
    const svc = new ProvenanceService();
    echo(svc, 3);
    const report = svc.check('a', {
      tool: 'mail_send',
      sourceKind: 'builtin',
      sourceLabel: 'Airlock',
      readOnly: false,
      args: { to: 'https://x3.example/' },
    });
    expect(svc.pending).toBe(0);
    expect(report?.findings[0]?.rule).toBe('untrusted-destination');
  });
});
