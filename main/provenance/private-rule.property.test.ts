import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContentIndex, type ContentItem } from './content-index.js';
import { KnownParties } from './known-parties.js';
import { checkCall, type CallFacts } from './taint-check.js';

/**
 * Issue 34: the taint check skips rule 2 (private data out, private-data-rule.ts) when the index
 * holds no private item and the call carries none, because that rule only ever names private
 * items. Proven here by running the same check with the shortcut and with it turned off (an
 * index whose `holdsPrivate()` always says yes) over generated indexes and calls, plus the
 * index's own count held equal to a walk of its items; then a held-out list of hostile cases.
 */

/** Values both content and calls draw from, so calls often match what the index holds. */
const WORDS = ['invoice', 'total', 'payable', 'account', 'friday', 'the', 'q3', 'to', 'by', 'is'];
const VALUES = [
  'cfo@mycorp.com',
  'attacker@outside.example',
  'https://evil.example/u?x=1',
  'drop.evil.example',
  'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
  'code 482913',
  '+44 20 7946 0958',
  'msg-3f9a2c',
];
const REFS = ['q3', 'm3', 'everything', 'msg-3f9a2c', 'file-sha'];

const textArb = fc
  .array(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...VALUES)), {
    minLength: 0,
    maxLength: 24,
  })
  .map((parts) => parts.join(' '));

const itemArb = fc.record({
  kind: fc.constantFrom<ContentItem['kind'][]>('mail', 'event', 'remote', 'web', 'local'),
  label: fc.constant('an item'),
  ref: fc.option(fc.constantFrom(...REFS), { nil: undefined }),
  from: fc.option(fc.subarray(['cfo@mycorp.com', 'attacker@outside.example']), { nil: undefined }),
  untrusted: fc.boolean(),
  private: fc.boolean(),
  tool: fc.constantFrom('gmail_read', 'everything__echo', 'tools/list'),
});

const callArb: fc.Arbitrary<CallFacts> = fc.record({
  tool: fc.constantFrom('gmail_send', 'notes__create', 'fetch__get'),
  sourceKind: fc.constantFrom<CallFacts['sourceKind'][]>('builtin', 'google', 'remote'),
  sourceLabel: fc.constantFrom('notes', 'everything', 'Gmail'),
  readOnly: fc.boolean(),
  args: fc.dictionary(fc.constantFrom('to', 'body', 'url', 'message', 'value'), textArb, {
    maxKeys: 3,
  }),
  refs: fc.subarray(REFS),
});

const stepsArb = fc.array(
  fc.record({ item: itemArb, text: textArb, dt: fc.nat({ max: 3_000_000 }) }),
  { maxLength: 30 },
);

/** The same index with the shortcut off: rule 2 always runs. */
function alwaysRuleTwo(index: ContentIndex): ContentIndex {
  return new Proxy(index, {
    get: (t, k) => (k === 'holdsPrivate' ? () => true : Reflect.get(t, k, t)),
  });
}

/** Whether any item of either generation is private, by walking them (not by the count). */
function walkPrivate(index: ContentIndex): boolean {
  const g = index as unknown as Record<'current' | 'previous', { items: Map<number, ContentItem> }>;
  return [...g.current.items.values(), ...g.previous.items.values()].some((i) => i.private);
}

function build(steps: { item: Omit<ContentItem, 'id' | 'at'>; text: string; dt: number }[]) {
  let now = 1_000;
  const index = new ContentIndex({ keysPerGeneration: 40, ttlMs: 7_200_000 }, () => now);
  const counts: boolean[] = [];
  for (const s of steps) {
    now += s.dt;
    index.add(s.item, s.text, now);
    counts.push(index.holdsPrivate() === walkPrivate(index));
  }
  return { index, now, counts };
}

describe('rule 2 is skipped only where it cannot find anything (issue 34)', () => {
  it('holdsPrivate() agrees with a walk of the items after every add, across rotations', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        expect(build(steps).counts.every(Boolean)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('the check gives the same report with and without the shortcut', () => {
    let reached = 0;
    let flagged = 0;
    fc.assert(
      fc.property(stepsArb, callArb, fc.boolean(), (generated, call, publicOnly) => {
        // Half the runs index no private item at all: the shortcut's case, with the same words.
        const steps = publicOnly
          ? generated.map((s) => ({ ...s, item: { ...s.item, private: false } }))
          : generated;
        const { index, now } = build(steps);
        const known = new KnownParties();
        const fast = checkCall(index, known, call, now);
        const full = checkCall(alwaysRuleTwo(index), known, call, now);
        expect(fast).toEqual(full);
        if (!index.holdsPrivate() && steps.length > 0 && !call.readOnly) reached++;
        if (fast?.findings.some((f) => f.rule === 'private-data-out')) flagged++;
      }),
      { numRuns: 2_000 },
    );
    // The property says something only if the shortcut was taken often.
    // …and only if rule 2, where it ran, found private data in the generated calls.
    expect(reached).toBeGreaterThan(300);
    expect(flagged).toBeGreaterThan(50);
  });

  it('a generated index with private content flags private text to a third party (the rule still runs)', () => {
    const index = new ContentIndex();
    const invoice = 'the q3 invoice total is payable to account by friday the q3 invoice';
    index.add({ kind: 'mail', label: 'mail', untrusted: false, private: true, tool: 't' }, invoice);
    const report = checkCall(index, new KnownParties(), remoteCall({ text: invoice }), Date.now());
    expect(report?.findings.map((f) => f.rule)).toEqual(['private-data-out']);
  });
});

function remoteCall(args: Record<string, unknown>, refs: string[] = []): CallFacts {
  return {
    tool: 'notes__create',
    sourceKind: 'remote',
    sourceLabel: 'notes',
    readOnly: false,
    args,
    refs,
  };
}

/** Held out: hand-written cases, not used to tune the shortcut. */
describe('rule 2 shortcut, hostile cases', () => {
  const phrase = 'one two three four five six seven eight nine ten';
  const same = (index: ContentIndex, call: CallFacts, now = Date.now()) => {
    const known = new KnownParties();
    expect(checkCall(index, known, call, now)).toEqual(
      checkCall(alwaysRuleTwo(index), known, call, now),
    );
  };
  const mail = { kind: 'mail' as const, label: 'mail', untrusted: false, private: true, tool: 't' };
  const page = { kind: 'web' as const, label: 'page', untrusted: true, private: false, tool: 't' };

  it('a private item whose every hold moved to a newer public item no longer counts', () => {
    const index = new ContentIndex();
    index.add({ ...mail, ref: 'r' }, phrase);
    index.add({ ...page, ref: 'r' }, phrase);
    expect(index.holdsPrivate()).toBe(false);
    same(index, remoteCall({ text: phrase }, ['r']));
  });

  it('a private item in the previous generation still counts, and is still found', () => {
    const index = new ContentIndex({ keysPerGeneration: 3, ttlMs: 7_200_000 });
    index.add(mail, phrase);
    index.add(page, 'a b c d e f g h i j k l');
    expect(index.holdsPrivate()).toBe(true);
    same(index, remoteCall({ text: phrase }));
  });

  it('a private item past its time to live still counts (nothing is flagged: it is stale)', () => {
    let now = 0;
    const index = new ContentIndex({ keysPerGeneration: 1_000, ttlMs: 10 }, () => now);
    index.add(mail, phrase, 0);
    now = 1_000;
    expect(index.holdsPrivate()).toBe(true);
    same(index, remoteCall({ text: phrase }), now);
  });

  it('a private item that indexes nothing is dropped at once and does not count', () => {
    const index = new ContentIndex();
    index.add(mail, 'hi');
    expect(index.holdsPrivate()).toBe(false);
    same(index, remoteCall({ text: 'hi' }));
  });

  it('two rotations drop a private generation whole', () => {
    const index = new ContentIndex({ keysPerGeneration: 2, ttlMs: 7_200_000 });
    index.add(mail, phrase);
    index.add(page, 'https://a.example/1');
    index.add(page, 'https://b.example/2');
    index.add(page, 'https://c.example/3');
    expect(index.holdsPrivate()).toBe(false);
    same(index, remoteCall({ text: phrase }));
  });

  it('content the call carries whole is judged even with no private item indexed', () => {
    const index = new ContentIndex();
    const carried: ContentItem = { ...mail, id: -1, at: Date.now(), label: 'the attachment' };
    const call: CallFacts = {
      tool: 'gmail_send',
      sourceKind: 'google',
      sourceLabel: 'Gmail',
      readOnly: false,
      args: { to: 'attacker@outside.example' },
    };
    const now = Date.now();
    const report = checkCall(index, new KnownParties(), call, now, [carried]);
    expect(report?.findings.map((f) => f.rule)).toEqual(['private-data-out']);
    expect(report).toEqual(
      checkCall(alwaysRuleTwo(index), new KnownParties(), call, now, [carried]),
    );
  });
});
