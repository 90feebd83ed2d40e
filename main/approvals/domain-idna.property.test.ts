import fc from 'fast-check';
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { BadInput, buildMime } from '../google/gmail/compose.js';
import { gmailGrantShape } from '../google/gmail/grant-shape.js';
import { SeenMessages } from '../google/gmail/cache.js';
import { describeCompose, parseCompose } from '../google/gmail/send.js';
import { canonicalAddress, canonicalHost } from '../provenance/identity.js';
import { authVerdict } from '../provenance/mail-auth.js';
import { addressesOf } from '../google/gmail/provenance.js';
import { emails, guestKey } from '../google/calendar/args.js';
import { patchFields } from '../google/calendar/event-input.js';
import { guestsOf } from '../google/calendar/event-guests.js';
import { eventItem } from '../google/calendar/provenance.js';
import { addressDomain, deliveredDomain, inDomain, readDomain } from './addresses.js';
import { constraintHolds } from './grant-scope.js';
import { grantOptions } from './grant-options.js';

// An outside audit (wave 3 session 36): the grant check and the taint check lower-cased a domain
// before IDNA read it, while the composer (nodemailer's normalizeDomain) hands IDNA the domain as
// written. IDNA folds case itself (UTS #46 §4, "Processing", the mapping step), but not as
// toLowerCase does: "ẞ" maps to "ss" where toLowerCase gives "ß", which IDNA keeps (a deviation
// character); a word-final "Σ" maps to "σ" where toLowerCase gives "ς". So `bob@evil-busineẞ.com`
// read as xn--evil-busine-56a.com to both checks and went to evil-business.com.
//
// The property, decided by the thing that acts: for generated recipient domains, the domain the
// grant and the taint check read equals the domain in the To header of the message the real
// composer builds (read back by postal-mime), and an offered domain grant holds for the call. Tuned
// on the TUNING generator and seed; HELD_OUT is a second generator (any letter of any script, any
// case, drawn from the whole code space) and other seeds, never tuned on, reported apart.

const shape = gmailGrantShape('gmail_send')!;

/** Letters where case and IDNA part ways, and their neighbours. */
const TRICKY = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-',
  'ß',
  'ẞ',
  'Σ',
  'σ',
  'ς',
  'İ',
  'ı',
  'K', // KELVIN SIGN
  'Å', // ANGSTROM SIGN
  'ǅ',
  'Ａ',
  'ａ',
  'А', // Cyrillic
  'а',
  'Ꭰ', // Cherokee: case folding maps small letters to capitals
  'ꭰ',
  'Ü',
  'ü',
  'Ω',
  'Ω', // OHM SIGN
];
const TUNING_SEED = 36;
const HELD_OUT_SEEDS = [7_036, 1_234_567];

const label = (chars: fc.Arbitrary<string>) =>
  fc.array(chars, { minLength: 1, maxLength: 8 }).map((cs) => cs.join(''));
const domainOf = (chars: fc.Arbitrary<string>) =>
  fc
    .tuple(
      fc.array(label(chars), { minLength: 1, maxLength: 2 }),
      fc.constantFrom('de', 'com', 'GR'),
    )
    .map(([labels, tld]) => [...labels, tld].join('.'));

const TUNING = domainOf(fc.constantFrom(...TRICKY));
// Held out: every cased letter Unicode has (not the two the audit named), in any position of a
// label, and now and then a local part that is not ASCII (the composer then writes the domain in
// Unicode: SMTPUTF8, nodemailer normalizeDomain(…, true)).
const CASED: string[] = [];
for (let cp = 0x80; cp <= 0x1ffff; cp++) {
  const c = String.fromCodePoint(cp);
  if (/[\p{Lu}\p{Ll}\p{Lt}]/u.test(c)) CASED.push(c);
}
const HELD_OUT = domainOf(
  fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(...'abcxyz-'.split('')) },
    { weight: 2, arbitrary: fc.constantFrom(...CASED) },
  ),
);
const LOCALS = fc.constantFrom('bob', 'bob', 'bob', 'jürgen', 'ΒΟΒ');

interface Tally {
  runs: number;
  refused: number;
  checked: number;
}

/** The first To address of the message the composer builds for these arguments, as postal-mime reads it. */
async function deliveredTo(args: Record<string, unknown>): Promise<string> {
  const input = parseCompose(args);
  const raw = await buildMime({
    from: 'alice@example.com',
    to: input.to,
    cc: input.cc,
    bcc: input.bcc,
    subject: input.subject ?? '',
    body: input.body,
  });
  const m = await PostalMime.parse(raw.toString('utf8'));
  return m.to?.[0]?.address ?? '';
}

async function check(domain: string, tally: Tally, local = 'bob'): Promise<void> {
  tally.runs++;
  const args = { to: [`${local}@${domain}`], subject: 'Plan', body: 'See the plan.' };
  let written: string;
  try {
    written = shape.destinations(args)[0]!;
  } catch {
    tally.refused++; // the composer's own parser refuses it: nothing is sent
    return;
  }
  const read = readDomain(addressDomain(written));
  // A domain IDNA cannot read is refused by the composer's own parser (compose.ts parseAddresses):
  // nodemailer would otherwise lower-case and punycode it, a name no check reads so.
  expect(read, `${domain}: taken, though IDNA cannot read it`).not.toBe('');
  tally.checked++;
  // The composer writes an A-label when the local part is ASCII, the Unicode form else
  // (nodemailer normalizeDomain): read back by IDNA, the same domain either way.
  const sent = readDomain(addressDomain(await deliveredTo(args)));
  expect(read, `${domain}: the grant reads ${read}, the mail goes to ${sent}`).toBe(sent);
  expect(canonicalHost(addressDomain(written)), `${domain}: the taint check's key`).toBe(sent);
  expect(canonicalAddress(written).endsWith(`@${sent}`)).toBe(true);
  expect(inDomain(addressDomain(written), sent)).toBe(true);
  // The domain grant Airlock offers for this call holds for it, and reads as where the mail goes.
  const offer = grantOptions(args, shape).find((o) => o.constraint?.op === 'domain');
  expect(offer, `${domain}: a domain grant is offered`).toBeDefined();
  const value = String(offer!.constraint!.value);
  expect(readDomain(value)).toBe(sent);
  expect(constraintHolds(offer!.constraint!, args, shape)).toBe(true);
}

async function runProperty(
  arb: fc.Arbitrary<string>,
  seed: number,
  numRuns: number,
  locals: fc.Arbitrary<string> = fc.constant('bob'),
) {
  const tally: Tally = { runs: 0, refused: 0, checked: 0 };
  await fc.assert(
    fc.asyncProperty(arb, locals, (d, l) => check(d, tally, l)),
    { seed, numRuns },
  );
  return tally;
}

describe('a recipient domain reads the same to the grant, the taint check and the composer (IDNA on the name as written)', () => {
  it('the audit’s cases: ẞ, a final Σ, mixed case', async () => {
    const tally: Tally = { runs: 0, refused: 0, checked: 0 };
    for (const d of ['evil-busineẞ.com', 'STRAẞE.de', 'straße.de', 'example.ΕΛΛΑΣ', 'ÉCOLE.fr'])
      await check(d, tally);
    expect(tally.checked).toBe(5);
    // A domain IDNA cannot read is refused, not sent to what nodemailer's fallback makes of it.
    for (const d of ['aႠ.com', 'aאb.com', 'a⒈b.com'])
      expect(() => parseCompose({ to: `bob@${d}`, subject: 's', body: 'x' }), d).toThrow(BadInput);
    // The card says where such mail goes; a name that reads as written gets no note.
    const card = (to: string) =>
      describeCompose(
        'send',
        'alice@example.com',
        { to, subject: 's', body: 'x' },
        new SeenMessages(),
      );
    expect(card('bob@STRAẞE.de')).toContain('bob@STRAẞE.de (goes to strasse.de)');
    expect(card('Bob <bob@ｅxample.com>')).toContain('<bob@ｅxample.com> (goes to example.com)');
    // A deviation character shows where IDNA2008 sends it (IDNA2003 software reads strasse.de).
    expect(card('bob@straße.de')).toContain('bob@straße.de (goes to xn--strae-oqa.de)');
    for (const plain of [
      'bob@EXAMPLE.com',
      'bob@jõgeva.ee',
      'bob@JÕGEVA.ee',
      'bob@xn--jgeva-dua.ee',
    ])
      expect(card(plain)).not.toContain('goes to');
    // The audit's exfiltration: the stranger names evil-business.com; the agent writes ẞ.
    expect(canonicalHost('evil-busineẞ.com')).toBe(canonicalHost('evil-business.com'));
    // A grant on straße.de (its own domain, xn--strae-oqa.de) does not cover mail to strasse.de.
    expect(inDomain('STRAẞE.de', 'straße.de')).toBe(false);
    expect(inDomain('STRAẞE.de', 'strasse.de')).toBe(true);
  });

  it(`tuning generator, seed ${TUNING_SEED}`, async () => {
    const t = await runProperty(TUNING, TUNING_SEED, 400);
    console.log(`[idna tuning] ${JSON.stringify(t)}`);
    expect(t.checked).toBeGreaterThan(100);
  });

  it.each(HELD_OUT_SEEDS)(
    'held-out generator (every cased letter, any position), seed %i',
    async (seed) => {
      const t = await runProperty(HELD_OUT, seed, 300, LOCALS);
      console.log(
        `[idna held-out ${seed}] ${JSON.stringify(t)} first: ${fc.sample(HELD_OUT, { seed, numRuns: 2 }).join(' ')}`,
      );
      expect(t.checked).toBeGreaterThan(50);
    },
  );

  it('every other place that keys a domain reads it as written', () => {
    // A stranger's From, as the taint check reads it (gmail/provenance.ts addressesOf).
    expect(addressesOf('Bob <bob@STRAẞE.de>').map(canonicalAddress)).toEqual(['bob@strasse.de']);
    // Mail authentication: a verified strasse.de speaks for a From written STRAẞE.de.
    expect(authVerdict(['mx.google.com; dkim=pass header.d=strasse.de'], ['bob@STRAẞE.de'])).toBe(
      'pass',
    );
    // Calendar sends a guest's domain as IDNA reads it: what the grant and taint check read.
    expect(emails(['Bob@STRAẞE.de', 'ann@Jõgeva.ee'], 'attendees')).toEqual([
      'bob@strasse.de',
      'ann@xn--jgeva-dua.ee',
    ]);
    // A trailing ideographic full stop is a trailing dot once IDNA has read it.
    expect(canonicalHost('example.com\u3002')).toBe('example.com');
    // NFKC before IDNA read ϲ (U+03F2) as ς; IDNA maps it to σ, as fetch and the composer do.
    expect(canonicalHost('aϲb.com')).toBe(new URL('http://aϲb.com/').hostname);
  });

  it('an update names a guest Google holds in Unicode by the form Airlock sends (guestKey)', () => {
    const existing = { attendees: [{ email: 'ann@jõgeva.ee', responseStatus: 'accepted' }] };
    // Removing her removes her.
    expect(patchFields({ remove_attendees: ['ann@jõgeva.ee'] }, existing).patch.attendees).toEqual(
      [],
    );
    // The same list changes nothing: her entry (and her answer) is kept.
    const same = patchFields({ attendees: ['Ann@Jõgeva.ee'] }, existing);
    expect(same.patch.attendees).toEqual(existing.attendees);
    expect(same.changes.join(' ')).not.toMatch(/added|removed/);
    // Adding her again adds no one.
    expect(
      patchFields({ add_attendees: ['ann@xn--jgeva-dua.ee'] }, existing).patch.attendees,
    ).toEqual(existing.attendees);
    expect(guestKey('Ann@JÕGEVA.ee')).toBe('ann@xn--jgeva-dua.ee');
  });

  it("an event's organiser is keyed as written, not lower-cased first (calendar/provenance.ts)", () => {
    const item = eventItem({ organizer: { email: 'Bob@STRAẞE.de' } }, 'x', false);
    expect((item.from ?? []).map(canonicalAddress)).toEqual(['bob@strasse.de']);
  });

  it('an offered domain grant: one domain however it is written, a look-alike shown in ASCII', () => {
    const offer = (to: string[]) =>
      grantOptions({ to, subject: 's', body: 'x' }, shape).find(
        (o) => o.constraint?.op === 'domain',
      )?.constraint?.value;
    expect(offer(['a@bücher.de', 'b@xn--bcher-kva.de'])).toBe('bücher.de');
    for (const [d, shown] of [
      ['аpple.com', 'xn--pple-43d.com'], // Cyrillic а
      ['pɑypal.com', 'xn--pypal-0jc.com'], // Latin alpha
      ['ɡoogle.com', 'xn--oogle-qmc.com'], // script g
      ['straße.de', 'xn--strae-oqa.de'], // a deviation character
      ['jõgeva.ee', 'jõgeva.ee'], // a letter with a mark reads as itself
    ])
      expect(offer([`bob@${d}`]), d).toBe(shown);
  });

  it('the guests Google holds are read in the form an update names them (event-guests.ts guestsOf)', () => {
    const held = guestsOf({
      attendees: [{ email: 'Ann@jõgeva.ee' }, { email: 'bob@example.com', self: true }],
    });
    expect(held).toEqual(emails(['ann@jõgeva.ee'], 'attendees'));
  });

  it('a letter with a mark stays, a label mixing Latin with another script shows in ASCII', () => {
    for (const d of ['ísland.is', 'jardín.es', 'naïve.fr', 'bücher.de'])
      expect(deliveredDomain(d), d).toBe(d);
    for (const d of ['pa੦pal.com', 'ⲣaypal.com'])
      expect(deliveredDomain(d), d).toMatch(/^[a-z.-]*xn--[a-z0-9-]+\.com$/);
  });
});
