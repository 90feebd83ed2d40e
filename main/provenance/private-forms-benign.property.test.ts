import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KnownParties } from './known-parties.js';
import {
  PROVENANCE_META_KEY,
  ProvenanceService,
  type ProvenanceMetaItem,
} from './provenance-service.js';

function service() {
  const known = new KnownParties();
  known.addOwnAccount('me@mycorp.com');
  const svc = new ProvenanceService({ known });
  const read = (ref: string, text: string) => {
    const item: ProvenanceMetaItem = {
      kind: 'mail',
      label: `a message ${ref}`,
      ref,
      from: ['alerts@bank.example'],
      audience: ['me@mycorp.com'],
      private: true,
      text,
    };
    svc.observe({
      agent: 'a',
      tool: 'gmail_read',
      sourceKind: 'google',
      sourceLabel: 'Gmail',
      result: { content: [{ type: 'text', text }], _meta: { [PROVENANCE_META_KEY]: [item] } },
    });
  };
  const send = (body: string) =>
    (
      svc.check('a', {
        tool: 'gmail_send',
        sourceKind: 'google',
        sourceLabel: 'Gmail',
        readOnly: false,
        args: { to: ['check@guard.example'], subject: 'Hello', body },
      })?.findings ?? []
    ).some((f) => f.rule === 'private-data-out');
  return { read, send };
}
const hex = (n: number) =>
  fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString('hex'));
const kinds: Record<string, fc.Arbitrary<string>> = {
  commits: fc
    .array(hex(20), { minLength: 5, maxLength: 40 })
    .map((a) => a.map((h) => `commit ${h}`).join('\n')),
  base64: fc
    .uint8Array({ minLength: 1000, maxLength: 8000 })
    .map((b) => `attachment: data:image/png;base64,${Buffer.from(b).toString('base64')}`),
  uuids: fc.array(fc.uuid(), { minLength: 5, maxLength: 50 }).map((a) => a.join(', ')),
  invoices: fc
    .array(fc.bigInt(10n ** 9n, 10n ** 15n), { minLength: 5, maxLength: 40 })
    .map((a) => a.map((n, i) => `Invoice ${i}: no. ${n}`).join('\n')),
  query: fc
    .array(
      fc.tuple(
        fc.string({ minLength: 1, maxLength: 8 }),
        fc.string({ unit: 'grapheme', maxLength: 30 }),
      ),
      { minLength: 2, maxLength: 10 },
    )
    .map((a) => `https://shop.example/s?${new URLSearchParams(a).toString()}`),
  amounts: fc
    .array(fc.tuple(fc.integer({ min: 1, max: 99999 }), fc.integer({ min: 0, max: 99 })), {
      minLength: 20,
      maxLength: 100,
    })
    .map((a) =>
      a.map(([x, c]) => `${x.toLocaleString('en-US')}.${String(c).padStart(2, '0')}`).join(', '),
    ),
  phones: fc
    .array(fc.integer({ min: 2000000, max: 9999999 }), { minLength: 5, maxLength: 30 })
    .map((a) => a.map((n) => `+1 415 ${String(n).slice(0, 3)} ${String(n).slice(3)}`).join('; ')),
};

/**
 * Benign outgoing texts while the index holds 64 private six-digit codes (the cap of
 * MAX_FORMED_VALUES): commit hashes, base64 attachments, UUIDs, invoice numbers, URL-encoded
 * queries, amounts and phone numbers are flagged at most 0.5% of the time (review of the encoded
 * forms). Seed 11 was looked at while writing this; seed 2027 is held out.
 * Not here: timestamps (`2027-03-28 04:42:09`): their digit groups read across `-`, `:` and ` `
 * are six-digit windows, and 64 codes are found in 8.5% of lists of 10-60 of them (5% before the
 * stream, by the backwards and joined readings; docs/provenance.md).
 */
const codes = fc.sample(fc.integer({ min: 100000, max: 999999 }), { numRuns: 64, seed: 7 });
for (const seed of [11, 2027])
  describe(`benign texts, seed ${seed}${seed === 2027 ? ' (held out)' : ''}`, () => {
    const { read, send } = service();
    codes.forEach((c, i) => read(`m${i}`, `Your verification code is ${c}. Never share it.`));
    for (const [name, arb] of Object.entries(kinds))
      it(`${name}: at most 0.5% flagged`, () => {
        const samples = fc.sample(arb, { numRuns: 200, seed });
        expect(samples.filter(send).length).toBeLessThanOrEqual(1);
      });
  });
