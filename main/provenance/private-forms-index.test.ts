import { describe, expect, it } from 'vitest';
import { KnownParties } from './known-parties.js';
import {
  PROVENANCE_META_KEY,
  ProvenanceService,
  type ProvenanceMetaItem,
} from './provenance-service.js';
import { MAX_FORMED_VALUES } from './content-index.js';

/**
 * The index keeps the forms (secret-forms.ts) of every private item's code or key, however the
 * generation first met the value: a code first read in an item that is not private (an event
 * the user shared, a public page) and then in a private mail is the private mail's code too, and
 * its forms (backwards, ROT13, split) are read as a code the generation met in the mail first.
 */

function service() {
  const known = new KnownParties();
  known.addOwnAccount('me@mycorp.com');
  const svc = new ProvenanceService({ known });
  const read = (ref: string, text: string, isPrivate: boolean) => {
    const item: ProvenanceMetaItem = {
      kind: 'mail',
      label: `a message ${ref}`,
      ref,
      from: ['alerts@bank.example'],
      audience: ['me@mycorp.com'],
      private: isPrivate,
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

describe('forms of a code first met in an item that is not private', () => {
  const code = '482913';
  const key = 'sk_live_Znav96A8b5aHhRJwg9RUUxQ4';
  const forms: [string, string, string][] = [
    [code, 'backwards', 'the number is 319284 thanks'],
    [code, 'split over lines', 'first half 482\n913 second half'],
    [key, 'in ROT13', 'fx_yvir_Mani96N8o5nUuEWjt9EHHkD4'],
    [key, 'backwards', '4QxUUR9gwJRhHa5b8A69vanZ_evil_ks'],
  ];
  for (const [value, how, body] of forms)
    it(`${how}: found once a private item holds it`, () => {
      const { read, send } = service();
      read('m0', `Shared note: reference ${value} for the team.`, false);
      read('m1', `Your verification code is ${value}. Never share it.`, true);
      expect(send(body)).toBe(true);
    });

  it('is not flagged while only an item that is not private holds it', () => {
    const { read, send } = service();
    read('m0', `Shared note: reference ${code} for the team.`, false);
    expect(send('the number is 319284 thanks')).toBe(false);
  });
});

describe('the values a generation holds forms of are bounded (content-index.ts)', () => {
  it(`forms for the first ${MAX_FORMED_VALUES} codes; a later one read as written only`, () => {
    const { read, send } = service();
    const codes = Array.from({ length: MAX_FORMED_VALUES + 1 }, (_, i) =>
      String(300007 + i * 7919),
    );
    codes.forEach((c, i) => read(`m${i}`, `Your verification code is ${c}.`, true));
    const W = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    const words = (s: string) => [...s].map((c) => W[Number(c)]).join(' ');
    expect(send(`ref ${words(codes[0]!)}`)).toBe(true);
    expect(send(`ref ${words(codes[MAX_FORMED_VALUES - 1]!)}`)).toBe(true);
    expect(send(`ref ${words(codes[MAX_FORMED_VALUES]!)}`)).toBe(false);
    expect(send(`code ${codes[MAX_FORMED_VALUES]!}`)).toBe(true);
  });
});

describe('a code too short to have forms takes no place among the bounded ones', () => {
  it(`${MAX_FORMED_VALUES} PINs and more, then a code: the code's forms are read`, () => {
    const { read, send } = service();
    for (let i = 0; i < MAX_FORMED_VALUES + 8; i++)
      read(`p${i}`, `Your card PIN is ${String(3000 + i * 37)}. Never share it.`, true);
    read('m1', 'Your verification code is 482913. Never share it.', true);
    // In words: a form made at index time (read as written, the code is found whatever its forms).
    expect(send('ref four eight two nine one three')).toBe(true);
    expect(send('ref four eight two nine one four')).toBe(false);
  });
});
