import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KnownParties } from './known-parties.js';
import {
  PROVENANCE_META_KEY,
  ProvenanceService,
  type ProvenanceMetaItem,
} from './provenance-service.js';

/**
 * A six-digit code's digits inside a longer run of digits are not the code (secret-forms.ts,
 * `bounded`): the stream joins digits across separators, so before, a code turned up by chance
 * in about 2·L·10⁻⁶ of benign tables of L digits (2% at 10,000). A code apart by separators, in
 * a field of its own or glued to letters still is.
 */

const code = '482913';

function sends() {
  const known = new KnownParties();
  known.addOwnAccount('me@mycorp.com');
  const svc = new ProvenanceService({ known });
  const text = `Your verification code is ${code}. Never share it.`;
  const item: ProvenanceMetaItem = {
    kind: 'mail',
    label: 'a message from alerts@bank.example',
    ref: 'm1',
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
  return (body: string) =>
    (
      svc.check('a', {
        tool: 'gmail_send',
        sourceKind: 'google',
        sourceLabel: 'Gmail',
        readOnly: false,
        args: { to: ['export@partner.example'], subject: 'Export', body },
      })?.findings ?? []
    ).some((f) => f.rule === 'private-data-out');
}

describe('a code’s digits in a run of digits', () => {
  const send = sends();
  it.each([
    ['inside a longer number', `order 71482913 shipped`],
    ['at the start of a longer number', `total 4829130 units`],
    ['backwards inside a longer number', `id 23192845 ok`],
  ])('%s: not the code', (_, body) => expect(send(body)).toBe(false));

  it.each([
    ['apart by dashes', `4-8-2-9-1-3`],
    ['in its own field of a table', `12,${code},77`],
    ['glued to letters', `ref${code}x`],
    ['split over two cells', `48;2913`],
    ['backwards', `total 319284`],
  ])('%s: the code', (_, body) => expect(send(body)).toBe(true));

  it('benign tables of 10,000 digits are not flagged (generated)', () => {
    // Numbers of 1–9 digits apart by a separator, none of them the code or its reverse.
    const table = fc
      .array(
        fc.tuple(fc.stringMatching(/^[0-9]{1,9}$/), fc.constantFrom(',', ';', ' ', '\n', ' | ')),
        { minLength: 2600, maxLength: 2600 },
      )
      .map((cells) =>
        cells
          .map(([n, sep]) => n + sep)
          .join('')
          .slice(0, 14_000),
      )
      .filter((t) => !t.includes(code) && !t.includes('319284'));
    const tables = fc.sample(table, { numRuns: 60, seed: 20261206 });
    const flagged = tables.filter((t) => send(t)).length;
    console.log(`benign digit tables: ${flagged} / ${tables.length} flagged`);
    // Expected about 0.1% (two cells whose lengths make six, matching by chance), not 2%.
    expect(flagged).toBeLessThanOrEqual(1);
  });
});
