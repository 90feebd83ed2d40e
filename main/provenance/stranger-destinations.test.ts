import { describe, expect, it } from 'vitest';
import type { ContentItem } from './content-index.js';
import { isDigest, StrangerDestinations } from './stranger-destinations.js';

/**
 * The stranger record's lifetime on a fake clock (stranger-destinations.ts): a generation begins
 * every TTL/2 of content time, a value is found until exactly a TTL after it was read, and a
 * clock that goes backwards neither starts nor drops a generation.
 */

const TTL = 2 * 60 * 60 * 1000;
const HALF = TTL / 2;

function record(clock: { t: number }, keys = 100) {
  return new StrangerDestinations(
    { keysPerGeneration: keys, bloomBits: 2 ** 12, ttlMs: TTL },
    () => clock.t,
  );
}

let nextId = 1;
function item(at: number, label = `m${nextId}`): ContentItem {
  return {
    id: nextId++,
    label,
    kind: 'mail',
    tool: 'gmail_read',
    untrusted: true,
    private: true,
    at,
  };
}
const email = (value: string) => [{ kind: 'email' as const, value }];
/** Nothing else names any stranger item (the phrase index let them all go). */
const none = () => false;

describe("the stranger record's lifetime", () => {
  it('keeps a value until exactly the TTL after it was read, through every rollover', () => {
    const clock = { t: 0 };
    const r = record(clock);
    r.add(item(0), email('seed@one.example'));
    const m = item(HALF - 1, 'the stranger');
    r.add(m, email('ap@evil.example'));
    // Generations begin at 0, HALF and 2·HALF (each exactly HALF after the last).
    for (const at of [HALF, 2 * HALF, 3 * HALF - 1]) r.add(item(at), email(`x${at}@other.example`));
    expect(r.shape().generations).toBe(3);
    clock.t = m.at + TTL;
    expect(r.itemsWith({ kind: 'email', value: 'ap@evil.example' }, none)).toEqual([m]);
    clock.t = m.at + TTL + 1;
    expect(r.itemsWith({ kind: 'email', value: 'ap@evil.example' }, none)).toEqual([]);
  });

  it('begins a generation exactly TTL/2 after the last began, and keeps at most three', () => {
    const clock = { t: 0 };
    const r = record(clock);
    r.add(item(0), email('a@one.example'));
    r.add(item(HALF - 1), email('b@one.example'));
    expect(r.shape().generations).toBe(1);
    r.add(item(HALF), email('c@one.example'));
    expect(r.shape().generations).toBe(2);
    for (let k = 2; k < 10; k++) r.add(item(k * HALF), email(`d${k}@one.example`));
    expect(r.shape().generations).toBe(3);
  });

  it('a clock going backwards neither starts nor drops a generation', () => {
    const clock = { t: 0 };
    const r = record(clock);
    const m = item(0, 'the stranger');
    r.add(m, email('ap@evil.example'));
    r.add(item(HALF), email('b@one.example'));
    // The clock steps back an hour and a half: read "before" the newest generation began.
    const back = item(HALF - 90 * 60 * 1000);
    r.add(back, email('c@one.example'));
    expect(r.shape().generations).toBe(2);
    clock.t = back.at;
    expect(r.itemsWith({ kind: 'email', value: 'ap@evil.example' }, none)).toEqual([m]);
    expect(r.itemsWith({ kind: 'email', value: 'c@one.example' }, none)).toEqual([back]);
  });

  it('past its budget a value already named keeps the digest in its list, and keys, codes are never looked up', () => {
    const clock = { t: 0 };
    const r = record(clock, 2);
    const first = item(0, 'first');
    r.add(first, email('ap@evil.example')); // two keys: the value and the item
    r.add(item(1, 'second'), email('ap@evil.example'));
    const found = r.itemsWith({ kind: 'email', value: 'ap@evil.example' }, none);
    expect(found.map((i) => (isDigest(i) ? 'digest' : i.label))).toEqual(['digest', 'first']);
    expect(r.has({ kind: 'token', value: 'ap@evil.example' })).toBe(false);
  });
});
