/**
 * InflightCalls on a RenewingMap (issue 34): past several renewals (64 new keys each), a lost
 * connection still cuts off exactly its own calls still running, `abortAll` every call but the
 * spared connection's, and a retired connection closes after its last call. Generated: which
 * connection each call runs on and which calls end: 70–200 calls on a tuning seed, 130–300 on a
 * held-out seed.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { Upstream } from '../upstream/upstream.js';
import { InflightCalls } from './inflight.js';

const upstream = () => ({ close: vi.fn(async () => {}) }) as unknown as Upstream;

function check(calls: { on: number; ends: boolean }[], lost: number, spared: number): void {
  const ups = [upstream(), upstream(), upstream()];
  const inflight = new InflightCalls();
  const acs = calls.map(({ on }) => {
    const ac = new AbortController();
    inflight.add(ac, ups[on]!);
    return ac;
  });
  calls.forEach(({ on, ends }, i) => ends && inflight.end(acs[i]!, ups[on]!));
  inflight.abortOn(ups[lost]!, 'lost');
  const running = (i: number) => !calls[i]!.ends;
  expect(acs.map((ac) => ac.signal.aborted)).toEqual(
    calls.map(({ on }, i) => running(i) && on === lost),
  );
  inflight.abortAll('stopped', ups[spared]);
  expect(acs.map((ac) => ac.signal.aborted)).toEqual(
    calls.map(({ on }, i) => running(i) && (on === lost || on !== spared)),
  );
  // A retired connection closes at once only if none of its calls is still running.
  inflight.retire(ups[spared]!);
  const busy = calls.some(({ on }, i) => running(i) && on === spared);
  expect(vi.mocked(ups[spared]!.close).mock.calls.length).toBe(busy ? 0 : 1);
}

const property = (min: number, max: number) =>
  fc.property(
    fc.array(fc.record({ on: fc.integer({ min: 0, max: 2 }), ends: fc.boolean() }), {
      minLength: min,
      maxLength: max,
    }),
    fc.integer({ min: 0, max: 2 }),
    fc.integer({ min: 0, max: 2 }),
    check,
  );

describe('InflightCalls past renewals', () => {
  it('cuts off the right calls (tuning seed)', () => {
    fc.assert(property(70, 200), { seed: 32, numRuns: 200 });
  });

  it('held out: its own seed, more calls', () => {
    fc.assert(property(130, 300), { seed: 20261207, numRuns: 100 });
  });
});
