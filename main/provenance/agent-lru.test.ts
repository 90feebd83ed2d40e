import { describe, expect, it } from 'vitest';
import { ProvenanceService } from './provenance-service.js';

/**
 * Which agents' indexes are kept (maxAgents, least recently active forgotten first) and what
 * `forget` drops, with the most-recent-agent shortcut of indexFor (issue 34): agents that
 * interleave, an agent forgotten while it is the most recent, and one that comes back.
 */
describe('indexes per agent, most recently active kept', () => {
  const see = (svc: ProvenanceService, agent: string, host = 'x') =>
    svc.observe({
      agent,
      tool: 't',
      sourceKind: 'remote',
      sourceLabel: 's',
      result: { content: [{ type: 'text', text: `see https://${host}.example/` }] },
    });
  const flags = (svc: ProvenanceService, agent: string, host: string) =>
    svc.check(agent, {
      tool: 'mail_send',
      sourceKind: 'builtin',
      sourceLabel: 'Airlock',
      readOnly: false,
      args: { to: `https://${host}.example/` },
    }) !== null;
  const agents = (svc: ProvenanceService) => Object.keys(svc.sizes()).sort();

  it('interleaved agents: the one touched longest ago is forgotten first', () => {
    const svc = new ProvenanceService({ maxAgents: 3 });
    for (const a of ['a', 'b', 'a', 'b', 'c']) {
      see(svc, a);
      svc.drain(); // one result at a time, as calls come
    }
    see(svc, 'd');
    expect(agents(svc)).toEqual(['b', 'c', 'd']);
    // Touched again in one drain, in a batch: the order is the order of the results.
    for (const a of ['c', 'b', 'c', 'e']) see(svc, a);
    expect(agents(svc)).toEqual(['b', 'c', 'e']);
  });

  it('an agent forgotten while it is the most recent starts again empty, and its order is right', () => {
    const svc = new ProvenanceService({ maxAgents: 2 });
    see(svc, 'a', 'old-a');
    see(svc, 'b', 'old-b');
    svc.forget('b');
    expect(agents(svc)).toEqual(['a']);
    see(svc, 'b', 'new-b');
    expect(flags(svc, 'b', 'old-b')).toBe(false);
    expect(flags(svc, 'b', 'new-b')).toBe(true);
    // a was touched before b came back: a new agent pushes a out, not b.
    see(svc, 'c');
    expect(agents(svc)).toEqual(['b', 'c']);
    // The newest forgotten, then an older one touched: that one is the most recent now.
    svc.forget('c');
    see(svc, 'a');
    see(svc, 'b');
    see(svc, 'a');
    see(svc, 'd');
    expect(agents(svc)).toEqual(['a', 'd']);
    expect(flags(svc, 'a', 'old-a')).toBe(false); // pushed out before: content gone
  });
});
