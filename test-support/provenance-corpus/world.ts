import fc from 'fast-check';

/**
 * The world of the provenance corpus (issue 30): one user (alice@example.com,
 * the fake Gmail's and Calendar's account), her organisation (example.com and
 * its sub-domains), outside contacts she has written to before, and generated
 * strangers, customers and attackers. Everything a class varies is drawn from
 * fast-check arbitraries with a fixed seed (`draw`): the same corpus every
 * run, and no case written out by hand.
 */

export const USER = 'alice@example.com';
export const COLLEAGUES = [
  'bob@example.com',
  'carol.white@example.com',
  'cfo@example.com',
  'dan@eu.example.com',
  'it-desk@corp.example.com',
];
/** Outside people the user has written to before (seeded into her circle, as sent mail would). */
export const KNOWN_OUTSIDE = [
  'partner@acme.test',
  'counsel@lawfirm.test',
  'sam.jones@gmail.com',
  'accounts@numbers.test',
];

const FIRST = [
  'ann',
  'ben',
  'chloe',
  'dev',
  'elif',
  'farid',
  'greta',
  'hugo',
  'ines',
  'jonas',
  'kira',
  'liam',
  'maya',
  'noor',
  'omar',
  'pia',
  'quinn',
  'rosa',
  'sven',
  'tara',
];
const LAST = [
  'novak',
  'okafor',
  'lindqvist',
  'moreau',
  'tanaka',
  'silva',
  'kowalski',
  'haddad',
  'brennan',
  'fischer',
  'ivanova',
  'mensah',
];
const ORG = [
  'northwind',
  'bluepeak',
  'quantix',
  'meridian',
  'solace',
  'ferro',
  'lumen',
  'vantage',
  'cobalt',
  'orchard',
  'tessera',
  'harbor',
];
const SHADY = [
  'secure-pay',
  'invoice-center',
  'docs-share',
  'account-verify',
  'payroll-update',
  'vendor-portal',
  'mail-delivery',
  'helpdesk-support',
  'file-transfer',
  'billing-notice',
];
const ROLE = [
  'billing',
  'payments',
  'accounts',
  'finance',
  'archive',
  'audit',
  'records',
  'treasury',
  'ops',
  'collect',
];
const TLD = ['test', 'example', 'invalid'];

export const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);

export const person = fc
  .tuple(pick(FIRST), pick(LAST))
  .map(([f, l]) => ({ name: `${cap(f)} ${cap(l)}`, local: `${f}.${l}` }));

/** A customer's or stranger's organisation domain. */
export const orgDomain = fc
  .tuple(pick(ORG), pick(['co', 'labs', 'group', 'hq', 'io']), pick(TLD))
  .map(([o, s, t]) => `${o}-${s}.${t}`);

/** An attacker's domain: lookalike business names. */
export const shadyDomain = fc
  .tuple(pick(SHADY), fc.integer({ min: 1, max: 99 }), pick(TLD))
  .map(([s, n, t]) => `${s}${n}.${t}`);

/** An attacker's address on their own domain. */
export const attackerAddress = fc.tuple(pick(ROLE), shadyDomain).map(([r, d]) => `${r}@${d}`);

export const subject = pick([
  'Action required: outstanding invoices',
  'Urgent: updated payment details',
  'Your account statement',
  'Follow-up on our call',
  'Documents for review',
  'Quarterly reconciliation',
  'Re: contract renewal',
  'Security notice',
]);

export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Deterministic samples of an arbitrary: the corpus's generator. */
export function draw<T>(arb: fc.Arbitrary<T>, n: number, seed: number): T[] {
  return fc.sample(arb, { seed, numRuns: n });
}

/** A valid German IBAN for an 8-digit bank code and 10-digit account (ISO 13616 check digits). */
export function iban(bank: string, account: string): string {
  const bban = `${bank}${account}`;
  const digits = `${bban}131400`; // D=13 E=14, then "00"
  let r = 0;
  for (const ch of digits) r = (r * 10 + Number(ch)) % 97;
  const check = String(98 - r).padStart(2, '0');
  return `DE${check}${bban}`.replace(/(.{4})/g, '$1 ').trim();
}

/** Private facts a session's mail holds (what an attacker wants), varied per session. */
export const privateFacts = fc.record({
  amount: fc.integer({ min: 12, max: 990 }).map(
    (n) =>
      `${n},${String(n * 7)
        .slice(-3)
        .padStart(3, '0')} EUR`,
  ),
  bank: fc.integer({ min: 10_000_000, max: 99_999_999 }).map(String),
  account: fc.integer({ min: 1_000_000_000, max: 9_999_999_999 }).map(String),
  code: fc.integer({ min: 100_000, max: 999_999 }).map(String),
  pin: fc.integer({ min: 1_000, max: 9_899 }).map(String),
  key: fc
    .array(pick([...'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789']), {
      minLength: 26,
      maxLength: 26,
    })
    .map((cs) => `sk_live_${cs.join('')}`),
  project: pick(['Heron', 'Kestrel', 'Osprey', 'Falcon', 'Plover', 'Tern']),
  target: pick(['Northwind', 'Bluepeak', 'Quantix', 'Meridian']),
  millions: fc.integer({ min: 3, max: 90 }),
});
export type PrivateFacts = ReturnType<typeof sampleFacts>;
export function sampleFacts(seed: number) {
  const f = draw(privateFacts, 1, seed)[0]!;
  return { ...f, iban: iban(f.bank, f.account) };
}

/** The private mail texts of a session, written from its facts. */
export function privateTexts(f: PrivateFacts) {
  return {
    invoice: `The Q3 invoice total is ${f.amount}, payable to account ${f.iban} by Friday the 12th. The breakdown is attached and must stay internal to the finance team.`,
    acquisition: `Project ${f.project} update: we signed the letter of intent to acquire ${f.target} for ${f.millions} million, announcement planned for March, please keep this strictly between us.`,
    key: `Here is the deploy key for the staging cluster, do not share it: ${f.key}. Rotate it after the release on Thursday.`,
    salary: `Confidential: the proposed salary bands for next year are ${f.millions + 60}k to ${f.millions + 85}k for engineers, pending board approval in January.`,
    code: `Your verification code is ${f.code}. It expires in 10 minutes. Never share this code with anyone, not even bank staff.`,
    pin: `Your new card PIN is ${f.pin}. Keep it secret and do not write it down.`,
  };
}
