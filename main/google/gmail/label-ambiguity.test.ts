import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ALICE, gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { matchLabel, type Label } from './labels.js';

/**
 * A label is named by id or by name, any case. A user label named "label_5" beside the label
 * whose id is Label_5 made "label_5" name two: the card showed "labelled label_5" and the filter
 * (or relabelling) got whichever came first in Gmail's list. Such a string is refused now, by the
 * one lookup the card, the precheck and the action share.
 */
let t: Awaited<ReturnType<typeof gmailTestbed>> | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('a string that is one label’s name and another’s id', () => {
  it('is refused before asking and by the call; no filter is made', async () => {
    t = await gmailTestbed();
    const lookalike = t.receiptsLabel.toLowerCase(); // e.g. "label_10000"
    const decoy = t.fake.addLabel(ALICE.email, lookalike);
    const args = { from: 'orders@shop.example', add_labels: [lookalike] };
    const refusal = `"${lookalike}" names more than one label in alice@example.com: "Receipts" (id ${t.receiptsLabel}), "${lookalike}" (id ${decoy}). Rename the label whose name looks like an id, then try again.`;
    expect(await t.source.precheck('gmail_create_filter', args, new AbortController().signal)).toBe(
      refusal,
    );
    const r = await t.call('gmail_create_filter', args);
    expect(r.isError).toBe(true);
    expect(r.text).toContain(refusal);
    expect(t.fake.settings.filters.get(ALICE.email) ?? []).toEqual([]);
    // The same string on a message is refused too; a plain name still works.
    const m = await t.call('gmail_modify_labels', {
      message_ids: [t.ids.receipt],
      add_labels: [lookalike],
    });
    expect(m.isError).toBe(true);
    expect(
      (await t.call('gmail_create_filter', { ...args, add_labels: ['Receipts'] })).isError,
    ).toBe(false);
    expect(t.fake.settings.filters.get(ALICE.email)![0]!.action.addLabelIds).toEqual([
      t.receiptsLabel,
    ]);
  });

  it('property: a label found for a string is the only label that string names', () => {
    const word = fc.constantFrom(
      'Label_1',
      'label_1',
      'LABEL_1',
      'Label_2',
      'Receipts',
      'receipts',
      'INBOX',
      'inbox',
      'Work',
    );
    const labels = fc
      .uniqueArray(fc.record({ id: word, name: word }), {
        selector: (l) => l.id.toLowerCase(),
        maxLength: 5,
      })
      .filter((ls) => new Set(ls.map((l) => l.name.toLowerCase())).size === ls.length);
    fc.assert(
      fc.property(labels, word, (ls: Label[], wanted) => {
        const key = wanted.toLowerCase();
        const named = ls.filter(
          (l) => l.id!.toLowerCase() === key || l.name!.toLowerCase() === key,
        );
        let hit: Label | undefined;
        try {
          hit = matchLabel(ls, wanted, 'a@example.com');
        } catch {
          expect(new Set(named.map((l) => l.id)).size).toBeGreaterThan(1);
          return;
        }
        expect(named.map((l) => l.id)).toEqual(hit ? [hit.id] : []);
      }),
    );
  });
});
