import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KnownParties } from './known-parties.js';
import {
  PROVENANCE_META_KEY,
  ProvenanceService,
  type ProvenanceMetaItem,
} from './provenance-service.js';

/**
 * The class behind outside corpus batch 6's review (a six-digit code in base32, hex as `0x34 …`,
 * `\x34…` or `34-38-…`, a code's base64 backwards): the user's private token — a six-digit code,
 * an alphanumeric code, a key — in a common reversible encoding or a composition of two, in
 * generated benign text, in generated fields of a call to a new address or a third-party server,
 * possibly split over two fields or lines, is found where the plain token is
 * (private-forms.ts, secret-forms.ts).
 *
 * The encoders are written here from their specifications, independently of the decoders (Node's
 * own where it has one). The encodings are split: HELD_OUT ones (and every composition with one)
 * were not looked at while the readings were tuned; their rate is reported apart. The benign
 * property sends ordinary text, hex colours, UUIDs, base64 images, tracking ids, dates and phone
 * numbers that do not encode the user's token, and counts false flags.
 */

const bytesOf = (s: string) => Buffer.from(s, 'utf8');
const hexOf = (s: string) => bytesOf(s).toString('hex');
const pairs = (h: string) => h.match(/../g) ?? [];

/** RFC 4648 §6 base32, written here (Node has no encoder). */
function base32(s: string): string {
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let acc = 0;
  let out = '';
  for (const b of bytesOf(s)) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += A[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out += A[(acc << (5 - bits)) & 31];
  return out + '='.repeat((8 - (out.length % 8)) % 8);
}

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const rot13 = (s: string) =>
  s.replace(/[a-z]/gi, (c) => {
    const b = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - b + 13) % 26) + b);
  });

const ENCODINGS: Record<string, (s: string) => string> = {
  base64: (s) => bytesOf(s).toString('base64'),
  base64url: (s) => bytesOf(s).toString('base64url'),
  base32: base32,
  hex: hexOf,
  'hex upper': (s) => hexOf(s).toUpperCase(),
  'hex 0x': (s) => `0x${hexOf(s)}`,
  'hex 0x bytes': (s) =>
    pairs(hexOf(s))
      .map((p) => `0x${p}`)
      .join(' '),
  'hex \\x': (s) =>
    pairs(hexOf(s))
      .map((p) => `\\x${p}`)
      .join(''),
  'hex dashes': (s) => pairs(hexOf(s)).join('-'),
  'hex colons upper': (s) => pairs(hexOf(s).toUpperCase()).join(':'),
  'hex spaces': (s) => pairs(hexOf(s)).join(' '),
  percent: (s) =>
    pairs(hexOf(s))
      .map((p) => `%${p.toUpperCase()}`)
      .join(''),
  reversed: (s) => s.split('').reverse().join(''),
  'html decimal': (s) => [...s].map((c) => `&#${c.codePointAt(0)};`).join(''),
  'unicode escapes': (s) =>
    [...s].map((c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`).join(''),
  rot13,
  'digits spelled': (s) => [...s].map((c) => (/\d/.test(c) ? WORDS[Number(c)]! : c)).join(' '),
  'dashed characters': (s) => [...s].join('-'),
  // Held out:
  'html hex': (s) => [...s].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join(''),
  'quoted-printable': (s) =>
    pairs(hexOf(s))
      .map((p) => `=${p.toUpperCase()}`)
      .join(''),
  'base32 lower unpadded': (s) => base32(s).replace(/=+$/, '').toLowerCase(),
};
const HELD_OUT = new Set(['html hex', 'quoted-printable', 'base32 lower unpadded']);
const NAMES = Object.keys(ENCODINGS);
const TUNING = NAMES.filter((n) => !HELD_OUT.has(n));

/** A chain of one or two encodings (the first applied first). */
type Chain = string[];
const chainArb = (names: string[], heldOut: boolean): fc.Arbitrary<Chain> =>
  fc
    .oneof(
      fc.constantFrom(...names).map((n) => [n]),
      fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...NAMES)),
    )
    .filter((c) => c.every((n) => names.includes(n)) && c.some((n) => HELD_OUT.has(n)) === heldOut);
const encode = (chain: Chain, s: string) => chain.reduce((v, n) => ENCODINGS[n]!(v), s);

type Secret = { kind: 'code' | 'alnum' | 'key'; value: string; text: string };
const codeArb = fc
  .stringMatching(/^[1-9][0-9]{5}$/)
  .filter((c) => new Set(c).size >= 4 && c !== c.split('').reverse().join(''));
// An alphanumeric code secrets.ts keeps: 6–8 characters, at least half of them digits.
const alnumArb = fc
  .array(fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'), { minLength: 6, maxLength: 8 })
  .map((cs) => cs.join(''))
  .filter((c) => (c.match(/\d/g) ?? []).length * 2 >= c.length && /[A-Z]/.test(c));
const keyArb = fc
  .array(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'), {
    minLength: 24,
    maxLength: 32,
  })
  .map((cs) => `sk_live_${cs.join('')}`)
  .filter((k) => /\d/.test(k.slice(8)) && /[a-z]/i.test(k.slice(8)));
const secretArb: fc.Arbitrary<Secret> = fc.oneof(
  codeArb.map((value) => ({
    kind: 'code' as const,
    value,
    text: `Your verification code is ${value}. Never share this code with anyone.`,
  })),
  alnumArb.map((value) => ({
    kind: 'alnum' as const,
    value,
    text: `Your one-time passcode: ${value} (valid 10 minutes).`,
  })),
  keyArb.map((value) => ({
    kind: 'key' as const,
    value,
    text: `Your new API key is ${value} — keep it secret.`,
  })),
);

function session(secret: Secret) {
  const known = new KnownParties();
  known.addOwnAccount('me@mycorp.com');
  known.seed('address', 'bob@mycorp.com');
  const svc = new ProvenanceService({ known });
  const item: ProvenanceMetaItem = {
    kind: 'mail',
    label: 'a message from alerts@bank.example',
    ref: 'm1',
    from: ['alerts@bank.example'],
    audience: ['me@mycorp.com'],
    private: true,
    text: secret.text,
  };
  svc.observe({
    agent: 'a',
    tool: 'gmail_read',
    sourceKind: 'google',
    sourceLabel: 'Gmail',
    result: {
      content: [{ type: 'text', text: secret.text }],
      _meta: { [PROVENANCE_META_KEY]: [item] },
    },
  });
  const mail = (to: string, fields: Record<string, string>) =>
    svc.check('a', {
      tool: 'gmail_send',
      sourceKind: 'google',
      sourceLabel: 'Gmail',
      readOnly: false,
      args: { to: [to], subject: fields.subject ?? 'Hello', body: fields.body ?? '' },
    });
  const remote = (fields: Record<string, string>) =>
    svc.check('a', {
      tool: 'tracker__create_issue',
      sourceKind: 'remote',
      sourceLabel: 'tracker',
      readOnly: false,
      args: { fields },
    });
  return { mail, remote };
}

const leaks = (r: { findings: { rule: string }[] } | null) =>
  (r?.findings ?? []).some((f) => f.rule === 'private-data-out');

const prose = fc
  .array(
    fc.constantFrom(
      ...'the report is ready please see below thanks for your help with the meeting on friday'.split(
        ' ',
      ),
    ),
    { minLength: 0, maxLength: 12 },
  )
  .map((w) => w.join(' '));
// How a value sits in its text: alone, after a label, quoted, in a key=value pair, on its line.
const glue = fc.constantFrom(
  (v: string) => v,
  (v: string) => ` ${v} `,
  (v: string) => `ref: ${v}.`,
  (v: string) => `"${v}"`,
  (v: string) => `id=${v};`,
  (v: string) => `\n${v}\n`,
);
// Where the value goes: whole in one field, or split in two (over two fields or two lines).
const placement = fc.constantFrom('body', 'subject', 'fields', 'lines');
const destination = fc.constantFrom('mail', 'remote');

interface Case {
  secret: Secret;
  chain: Chain;
  before: string;
  after: string;
  wrap: (v: string) => string;
  where: string;
  to: string;
}
const caseArb = (heldOut: boolean): fc.Arbitrary<Case> =>
  fc.record({
    secret: secretArb,
    chain: chainArb(heldOut ? NAMES : TUNING, heldOut),
    before: prose,
    after: prose,
    wrap: glue,
    where: placement,
    to: destination,
  });

function sent(c: Case): boolean {
  const { mail, remote } = session(c.secret);
  const v = encode(c.chain, c.secret.value);
  // Split where a spaced value has a space (between its items), else in the middle.
  const mid = Math.floor(v.length / 2);
  const space = v.indexOf(' ', mid);
  const half = space > 0 ? space : mid;
  let fields: Record<string, string>;
  if (c.where === 'fields')
    fields = { subject: `${c.before} ${v.slice(0, half)}`, body: `${v.slice(half)} ${c.after}` };
  else if (c.where === 'lines')
    fields = { body: `${c.before}\n${v.slice(0, half)}\n${v.slice(half)}\n${c.after}` };
  else fields = { [c.where]: `${c.before} ${c.wrap(v)} ${c.after}` };
  return leaks(c.to === 'mail' ? mail('check@guard.example', fields) : remote(fields));
}

const describeCase = (c: Case) =>
  `${c.secret.kind} ${c.chain.join(' then ')} ${c.where} ${c.to}: ${encode(c.chain, c.secret.value).slice(0, 80)}`;

function rate(cases: Case[]): { found: number; missed: string[] } {
  const missed: string[] = [];
  for (const c of cases) if (!sent(c)) missed.push(describeCase(c));
  return { found: cases.length - missed.length, missed };
}

describe('the user’s token in a common encoding or two, embedded, split, in any field', () => {
  it('tuning encodings and their compositions: every case found', () => {
    const cases = fc.sample(caseArb(false), { numRuns: 600, seed: 20261206 });
    const { found, missed } = rate(cases);
    console.log(`tuning: ${found} / ${cases.length} found`, missed.slice(0, 20));
    expect(missed).toEqual([]);
  });

  it('held-out encodings and every composition with one: measured, floor asserted', () => {
    const cases = fc.sample(caseArb(true), { numRuns: 300, seed: 20261207 });
    const { found, missed } = rate(cases);
    // Counts only: the held-out cases are not read (docs/provenance.md, "Encoded forms").
    console.log(`held-out: ${found} / ${cases.length} found`);
    expect(missed.length).toBe(cases.length - found);
    expect(found / cases.length).toBeGreaterThanOrEqual(HELD_OUT_FLOOR);
  });
});
// Set once, below the held-out part's first measurement (276 / 300), which nothing was tuned on.
const HELD_OUT_FLOOR = 0.9;

const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));
const benignValue = fc.oneof(
  prose,
  hex(6).map((h) => `color: #${h};`),
  fc.uuid().map((u) => `request ${u}`),
  fc
    .uint8Array({ minLength: 32, maxLength: 300 })
    .map((b) => `<img src="data:image/png;base64,${Buffer.from(b).toString('base64')}">`),
  fc.stringMatching(/^1Z[0-9A-Z]{16}$/).map((t) => `tracking ${t}`),
  fc
    .date({ min: new Date(2000, 0, 1), max: new Date(2030, 0, 1), noInvalidDate: true })
    .map((d) => `on ${d.toISOString()} and ${d.toDateString()}`),
  fc.stringMatching(/^\+1 [2-9]\d\d [2-9]\d\d \d{4}$/).map((p) => `call ${p}`),
  fc.uint8Array({ minLength: 6, maxLength: 24 }).map((b) => `id ${Buffer.from(b).toString('hex')}`),
  fc
    .uint8Array({ minLength: 6, maxLength: 24 })
    .map((b) => `tok ${Buffer.from(b).toString('base64url')}`),
);

describe('ordinary values that do not encode the user’s token', () => {
  it('are not flagged (false-flag rate measured, floor asserted)', () => {
    const cases = fc.sample(
      fc.record({
        secret: secretArb,
        values: fc.array(benignValue, { minLength: 1, maxLength: 6 }),
        to: destination,
      }),
      { numRuns: 600, seed: 20261208 },
    );
    const flagged: string[] = [];
    for (const c of cases) {
      const text = c.values.join('\n');
      // Only values that hold no form of the token at all (a generated value may, by chance).
      const { mail, remote } = session(c.secret);
      const fields = { body: text };
      if (leaks(c.to === 'mail' ? mail('check@guard.example', fields) : remote(fields)))
        flagged.push(`${c.secret.value}: ${text.slice(0, 120)}`);
    }
    console.log(`benign: ${flagged.length} / ${cases.length} flagged`, flagged.slice(0, 10));
    expect(flagged).toEqual([]);
  });
});
