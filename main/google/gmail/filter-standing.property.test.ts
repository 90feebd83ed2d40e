import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';

/**
 * "Always asks" for a filter that forwards or trashes is decided by
 * standingEffect; what Gmail is then told is built by createFilter. Over
 * generated arguments — label names in any case, TRASH by name or by flag,
 * flags that are not booleans, addresses with names, lists, bad ones — every
 * call that passes the checks and reaches Gmail forwards or trashes exactly
 * when alwaysAsk said so.
 */
let t: Awaited<ReturnType<typeof gmailTestbed>>;
beforeAll(async () => {
  t = await gmailTestbed();
  t.fake.settings.forwarding.set(ALICE.email, [
    { forwardingEmail: 'books@accounting.example', verificationStatus: 'accepted' },
  ]);
});
afterAll(() => t.stop());

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const flag = maybe(fc.constantFrom<unknown>(true, false, 'true', 1, null));
const labels = fc.subarray(
  [
    'receipts',
    'Receipts',
    'STARRED',
    'starred',
    'trash',
    'TRASH',
    'Trash',
    'spam',
    'INBOX',
    'IMPORTANT',
    'Label_1',
    'nosuch',
  ],
  { maxLength: 3 },
);

const args = fc.record(
  {
    from: maybe(fc.constantFrom('orders@shop.example', '', ' ', 'x')),
    subject: maybe(fc.constantFrom('invoice', 'a\r\nb', '')),
    has_attachment: flag,
    add_labels: labels,
    remove_labels: fc.subarray(['INBOX', 'UNREAD', 'receipts', 'SPAM', 'trash'], { maxLength: 2 }),
    archive: flag,
    trash: flag,
    star: flag,
    mark_read: flag,
    forward_to: maybe(
      fc.constantFrom(
        '',
        'books@accounting.example',
        'Books <books@accounting.example>',
        'BOOKS@Accounting.example',
        'books@accounting.example, eve@evil.example',
        'eve@evil.example',
        'x@y',
      ),
    ),
  },
  { requiredKeys: [] },
);

describe('a filter that forwards or trashes always asks (issue 33 item 3)', () => {
  it('alwaysAsk agrees with what createFilter sends to Gmail', async () => {
    let reached = 0;
    await fc.assert(
      fc.asyncProperty(args, async (a) => {
        const input = JSON.parse(JSON.stringify(a)) as Record<string, unknown>;
        if (t.source.validateArgs('gmail_create_filter', input) !== null) return;
        if (
          (await t.source.precheck('gmail_create_filter', input, new AbortController().signal)) !==
          null
        )
          return;
        const before = t.fake.settings.filters.get(ALICE.email)?.length ?? 0;
        const r = await t.call('gmail_create_filter', input);
        const list = t.fake.settings.filters.get(ALICE.email) ?? [];
        if (r.isError) {
          expect(list.length).toBe(before);
          return;
        }
        reached++;
        const action = list.at(-1)!.action;
        const standing = !!action.forward || (action.addLabelIds ?? []).includes('TRASH');
        expect(t.source.alwaysAsk('gmail_create_filter', input) !== null).toBe(standing);
        list.length = 0; // stay far from Gmail's 1,000-filter limit
      }),
      { numRuns: 150, seed: 33 },
    );
    expect(reached).toBeGreaterThan(20);
  });
});
