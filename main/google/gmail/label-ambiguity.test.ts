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
    const refusal = `"${lookalike}" names more than one label in alice@example.com: "Receipts" (id ${t.receiptsLabel}), "${lookalike}" (id ${decoy}). To say which, use "Receipts" or "${decoy}" (each names only that label), or rename the label whose name looks like an id.`;
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
    // The other handle the refusal offers names the look-alike, and only it.
    expect((await t.call('gmail_create_filter', { ...args, add_labels: [decoy] })).isError).toBe(
      false,
    );
    expect(t.fake.settings.filters.get(ALICE.email)![1]!.action.addLabelIds).toEqual([decoy]);
  });

  it('a new name that is a label’s id is refused as that, not as "already a label"', async () => {
    t = await gmailTestbed();
    const lookalike = t.receiptsLabel.toLowerCase();
    const asId = `"${lookalike}" is the id of the label "Receipts" in alice@example.com: a label of that name could not be told from it. Choose another name.`;
    const made = await t.call('gmail_create_label', { name: lookalike });
    expect(made.isError).toBe(true);
    expect(made.text).toContain(asId);
    // Made in Gmail anyway: creating it again is "already a label", not "names more than one".
    t.fake.addLabel(ALICE.email, lookalike);
    await t.call('gmail_list_labels'); // read afresh
    const again = await t.call('gmail_create_label', { name: lookalike });
    expect(again.text).toContain(`There is already a label "${lookalike}" in alice@example.com.`);
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
        } catch (err) {
          const ids = new Set(named.map((l) => l.id));
          expect(ids.size).toBeGreaterThan(1);
          // Each string the refusal offers names exactly one of those labels, each a different one.
          const offer = /To say which, use (.*) \(each/.exec((err as Error).message)?.[1] ?? '';
          const offered = [...offer.matchAll(/"([^"]+)"/g)].map(
            (m) => matchLabel(ls, m[1]!, 'a@example.com')?.id,
          );
          for (const id of offered) expect(ids.has(id)).toBe(true);
          expect(new Set(offered).size).toBe(offered.length);
          // A label is left out only when no string names it alone (its name and id both taken).
          for (const l of named)
            if (!offered.includes(l.id))
              for (const h of [l.name!, l.id!])
                expect(
                  ls.filter((x) => [x.id, x.name].some((v) => v!.toLowerCase() === h.toLowerCase()))
                    .length,
                ).toBeGreaterThan(1);
          return;
        }
        expect(named.map((l) => l.id)).toEqual(hit ? [hit.id] : []);
      }),
    );
  });
});
