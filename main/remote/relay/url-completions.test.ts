import { describe, expect, it } from 'vitest';
import type { ClientRelay } from '../../tools/relay.js';
import { inRelayScope, relayHandler } from './relay-scope.js';
import { UrlCompletions } from './url-completions.js';

const relay = () => {
  const told: string[] = [];
  const r: ClientRelay = {
    agent: 'a',
    refusal: () => null,
    request: async () => ({}),
    elicitationComplete: (id) => told.push(id),
  };
  return { r, told };
};
const never = new AbortController().signal;

describe('UrlCompletions', () => {
  it('a completion goes to the relay its elicitation went to, once', () => {
    const c = new UrlCompletions();
    const a = relay();
    const b = relay();
    c.sent('x', a.r);
    c.sent('y', b.r);
    expect(c.announces).toBe(false);
    c.complete('x');
    c.complete('x');
    expect(a.told).toEqual(['x']);
    expect(b.told).toEqual([]);
    expect(c.announces).toBe(true);
  });

  it("the server's _meta goes with the completion, also one that overtook the answer", () => {
    const c = new UrlCompletions();
    const got: [string, unknown][] = [];
    const r: ClientRelay = {
      agent: 'a',
      refusal: () => null,
      request: async () => ({}),
      elicitationComplete: (id, meta) => void got.push([id, meta]),
    };
    c.sent('x', r);
    c.complete('x', { 'example.com/k': 1 });
    c.complete('early', { 'example.com/k': 2 });
    c.complete('plain');
    c.sent('early', r);
    c.sent('plain', r);
    expect(got).toEqual([
      ['x', { 'example.com/k': 1 }],
      ['early', { 'example.com/k': 2 }],
      ['plain', undefined],
    ]);
  });

  it('a completion that overtook the agent’s answer is passed on when the elicitation is noted', () => {
    const c = new UrlCompletions();
    const a = relay();
    c.complete('early');
    c.sent('early', a.r);
    expect(a.told).toEqual(['early']);
  });

  it('keeps at most `max` open ids and forgets them after the TTL', () => {
    let now = 0;
    const c = new UrlCompletions({ now: () => now, ttlMs: 1000, max: 2 });
    const a = relay();
    c.sent('1', a.r);
    c.sent('2', a.r);
    c.sent('3', a.r); // '1' dropped
    c.complete('1');
    expect(a.told).toEqual([]);
    now = 2000; // '2' and '3' expired
    c.complete('2');
    expect(a.told).toEqual([]);
  });

  it('waitAll: true once every id completed, false on timeout, abort, or an unknown id', async () => {
    const c = new UrlCompletions();
    const a = relay();
    c.sent('p', a.r);
    c.sent('q', a.r);
    const both = c.waitAll(['p', 'q'], 5000, never);
    c.complete('p');
    c.complete('q');
    await expect(both).resolves.toBe(true);
    await expect(c.waitAll(['p'], 5000, never)).resolves.toBe(true); // already done
    await expect(c.waitAll(['nope'], 5000, never)).resolves.toBe(false);
    c.sent('p', a.r); // the server reused a finished step's id: a new step, not done
    await expect(c.waitAll(['p'], 10, never)).resolves.toBe(false);
    c.sent('r', a.r);
    await expect(c.waitAll(['r'], 10, never)).resolves.toBe(false);
    const ac = new AbortController();
    const waiting = c.waitAll(['r'], 5000, ac.signal);
    ac.abort();
    await expect(waiting).resolves.toBe(false);
  });

  it('an upstream URL elicitation the agent accepted during a call is noted; a declined one is not', async () => {
    const c = new UrlCompletions();
    const handle = relayHandler('srv', { completions: c });
    const { r, told } = relay();
    let action = 'accept';
    r.request = async () => ({ action });
    const ask = (elicitationId: string) =>
      inRelayScope({ agent: 'a', relay: r, signal: never }, () =>
        handle('elicitation/create', {
          mode: 'url',
          elicitationId,
          url: 'https://x.example/',
          message: 'm',
        }),
      );
    await ask('ok');
    action = 'decline';
    await ask('no');
    c.complete('ok');
    c.complete('no');
    expect(told).toEqual(['ok']);
  });
});
