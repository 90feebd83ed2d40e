import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, gmailTestbed } from '../../../e2e/fake-google/gmail-seed.js';
import { destinationsOf } from '../../provenance/destinations.js';
import { canonicalAddress } from '../../provenance/identity.js';

/**
 * What the taint check reads of a new filter (callContent, filters.ts filterCallContent) is what
 * createFilter then tells Gmail: over generated arguments — forwarding addresses with display
 * names, in any case, with spaces around, several or none; criteria naming addresses; argument
 * names spelled otherwise (`forwardTo`, `Forward_To`, which the schema refuses) — every call that
 * passes the checks and reaches Gmail has exactly one destination for the check, the address
 * Gmail forwards to, or none when it does not forward; `forwards` says so; and the criteria the
 * check reads as what the filter acts on are the ones Gmail filters on, never a destination.
 */
let t: Awaited<ReturnType<typeof gmailTestbed>>;
const FORWARDS = ['books@accounting.example', 'ap-team@vendorpay-hub.test', 'alice@example.com'];
beforeAll(async () => {
  t = await gmailTestbed();
  t.fake.settings.forwarding.set(
    ALICE.email,
    FORWARDS.map((forwardingEmail) => ({ forwardingEmail, verificationStatus: 'accepted' })),
  );
});
afterAll(() => t.stop());

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const box = fc.constantFrom(...FORWARDS);
/** A forwarding address as an agent might write it. */
const forwardTo = fc.oneof(
  box,
  box.map((a) => a.toUpperCase()),
  box.map((a) => `  ${a}\t`),
  box.map((a) => `"Accounts, Payable" <${a}>`),
  box.map((a) => `AP Team <${a.toUpperCase()}>`),
  box.map((a) => `<${a}>`),
  fc.tuple(box, box).map(([a, b]) => `${a}, ${b}`),
  fc.constantFrom('', ' ', 'x@y', 'AP Team', 'ap-team at vendorpay-hub dot test'),
);
const criterion = maybe(
  fc.constantFrom(
    'ops@vendorpay-hub.test',
    ' Ops <ops@vendorpay-hub.test> ',
    '@vendorpay-hub.test',
    'invoice',
    'a\r\nb',
    '',
  ),
);
/** Names an agent might use for the same fields: the schema refuses all but the tool's own. */
const variantName = fc.constantFrom('forwardTo', 'Forward_To', 'forward', 'FROM', 'To ');

const args = fc
  .tuple(
    fc.record(
      {
        from: criterion,
        to: criterion,
        subject: maybe(fc.constantFrom('invoice', 'Invoices  ')),
        query: maybe(fc.constantFrom('from:ops@vendorpay-hub.test', 'has:attachment invoice')),
        archive: maybe(fc.constantFrom<unknown>(true, false)),
        add_labels: fc.subarray(['receipts', 'STARRED'], { maxLength: 1 }),
        forward_to: maybe(forwardTo),
      },
      { requiredKeys: [] },
    ),
    fc.option(fc.tuple(variantName, forwardTo), { nil: undefined, freq: 4 }),
  )
  .map(([a, variant]) => (variant ? { ...a, [variant[0]]: variant[1] } : a));

describe('a filter is checked as Gmail gets it (filters.ts filterCallContent)', () => {
  it('its only destination is the address Gmail forwards to; its criteria are what it acts on', async () => {
    const def = t.source.tools().find((d) => d.name === 'gmail_create_filter')!;
    const valid = new Ajv2020({ strict: false, validateFormats: false }).compile(def.inputSchema);
    let forwarded = 0;
    let plain = 0;
    await fc.assert(
      fc.asyncProperty(args, async (a) => {
        const input = JSON.parse(JSON.stringify(a)) as Record<string, unknown>;
        if (!valid(input) || t.source.validateArgs('gmail_create_filter', input) !== null) return;
        const signal = new AbortController().signal;
        if ((await t.source.precheck('gmail_create_filter', input, signal)) !== null) return;
        const sends = await t.source.callContent('gmail_create_filter', input, signal);
        const r = await t.call('gmail_create_filter', input);
        const list = t.fake.settings.filters.get(ALICE.email) ?? [];
        expect(r.isError, r.text).toBe(false);
        const made = list.at(-1)!;
        list.length = 0; // stay far from Gmail's 1,000-filter limit
        const found = destinationsOf(sends!.args!).map((d) => `${d.kind}:${d.value}`);
        const forward = made.action.forward;
        expect(found).toEqual(forward ? [`address:${canonicalAddress(forward)}`] : []);
        expect(sends!.forwards === true).toBe(!!forward);
        // What it acts on: the criteria Gmail filters on, under the argument names.
        const c = made.criteria ?? {};
        expect(sends!.selects).toEqual({
          ...(c.from ? { from: c.from } : {}),
          ...(c.to ? { to: c.to } : {}),
          ...(c.subject ? { subject: c.subject } : {}),
          ...(c.query ? { query: c.query } : {}),
        });
        if (forward) forwarded++;
        else plain++;
      }),
      { numRuns: 300 },
    );
    console.log(`filters reached Gmail: ${forwarded} forwarding, ${plain} not`);
    expect(forwarded).toBeGreaterThan(20);
    expect(plain).toBeGreaterThan(10);
  });
});
