import { describe, expect, it } from 'vitest';
import { KnownParties } from './known-parties.js';
import {
  PROVENANCE_META_KEY,
  ProvenanceService,
  type ProvenanceMetaItem,
} from './provenance-service.js';

/**
 * The user's code in digits of another script or width, and in hex bytes apart by other signs
 * (review of the encoded forms: variants written before they were run, each missed then):
 * Arabic-Indic, Devanagari and fullwidth digits are Unicode decimal digits (Nd) the stream reads
 * as ASCII ones (secret-forms.ts); fullwidth letters as NFKC reads them; hex bytes apart by `|`,
 * `/` or ` . ` as hex (call-spellings.ts, and as the forms made at index time).
 */

function service(text: string) {
  const known = new KnownParties();
  known.addOwnAccount('me@mycorp.com');
  const svc = new ProvenanceService({ known });
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
        args: { to: ['check@guard.example'], subject: 'Hello', body },
      })?.findings ?? []
    ).some((f) => f.rule === 'private-data-out');
}

const code = '482913';
const alnum = 'P4Z32Q';
const inScript = (s: string, zero: number) =>
  String.fromCharCode(...[...s].map((c) => zero + Number(c)));
const fullwidth = (s: string) =>
  String.fromCharCode(...[...s].map((c) => c.charCodeAt(0) - 0x20 + 0xff00));
const hexBytes = (s: string) => Buffer.from(s).toString('hex').match(/../g)!;

describe('a code in digits of another script or width', () => {
  const cases: [string, string, string][] = [
    ['Arabic-Indic', code, inScript(code, 0x660)],
    ['Extended Arabic-Indic, backwards', code, inScript([...code].reverse().join(''), 0x6f0)],
    ['Devanagari', code, inScript(code, 0x966)],
    ['Bengali, spaced', code, [...inScript(code, 0x9e6)].join(' ')],
    ['fullwidth digits', code, inScript(code, 0xff10)],
    ['fullwidth letters and digits', alnum, fullwidth(alnum)],
  ];
  for (const [how, value, written] of cases)
    it(`${how}: found`, () => {
      const send = service(`Your one-time passcode: ${value} (valid 10 minutes).`);
      expect(send(`Here it is: ${written} thanks`)).toBe(true);
    });

  it('another number in those scripts is not flagged', () => {
    const send = service(`Your one-time passcode: ${code} (valid 10 minutes).`);
    expect(send(`Call ${inScript('0501234567', 0x660)} or ${inScript('551290', 0x966)}.`)).toBe(
      false,
    );
  });
});

describe('a code in hex bytes apart by other signs', () => {
  for (const sep of ['|', '/', ' . ', ' | '])
    it(`apart by "${sep}": found`, () => {
      const send = service(`Your verification code is ${code}. Never share it.`);
      expect(send(`bytes: ${hexBytes(code).join(sep)} end`)).toBe(true);
    });

  it('dates and paths apart so are not flagged', () => {
    const send = service(`Your verification code is ${code}. Never share it.`);
    expect(send('Due 12/05/26, see /srv/34/38/21 and build 20 | 21 | 22.')).toBe(false);
  });
});
