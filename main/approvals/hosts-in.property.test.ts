import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GrantConstraint } from '../../common/contract/index.js';
import { destinationsOf } from '../provenance/destinations.js';
import { inDomain } from './addresses.js';
import { constraintHolds } from './grant-scope.js';

const DOMAIN: GrantConstraint = { path: 'to', op: 'domain', value: 'example.com' };

/**
 * A third-party tool's domain grant reads every address anywhere in its arguments (addresses.ts
 * hostsIn), and the taint check reads the same arguments with its own normaliser (identity.ts
 * unveil: NFKC, invisible characters dropped, `%2e` and `&#46;` decoded, then domainToASCII).
 * Over addresses whose host is followed by characters some reader takes into it — an escaped
 * dot or "_", a soft hyphen or zero-width space (IDNA maps them to nothing), a one-dot leader
 * (NFKC "."), "、" or "—" (lenient IDNA keeps them in a label), "!" or ")" (postal-mime keeps
 * them in a domain) — and plain separators, a grant on example.com may hold only when every
 * address the taint check reads there is in example.com or in no domain anyone can hold:
 * `a@example.com%2eevil.test` is a@example.com.evil.test to it, and to a server that decodes
 * its input.
 */
const at = fc.constantFrom('@', '＠', '%40', '&#64;');
const host = fc.constantFrom(
  'example.com',
  'EXAMPLE.com',
  'sub.example.com',
  'my_team.example.com',
  'ｅxample.com',
);
const joiner = fc.constantFrom(
  ...['', '%2e', '%2E', '%5f', '%2d', '&#46;', '&period;', '&lowbar;', '&#95;', '&#x2e;'],
  ...['\u00AD', '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u2024', '\u180E'],
  ...['\u3002', '\uFF0E', '\uFF61', '_', '.', '-', ' ', ', ', ',', ';', '\n', ':', '>', '"'],
  ...['!', '?', '/', '\\', ')', "'", '=', '#', '%', '&', '+', '~', '|', '[', ']', '{', '*', '`'],
  ...['\u2014', '\u2026', '\u3001', '\u2122'],
);
const tail = fc.constantFrom('x.evil.test', 'evil.test', 'evil', '');
const text = fc
  .tuple(
    fc.constantFrom('', 'cc ', 'see '),
    fc.constantFrom('a', 'a.b', 'x+y'),
    at,
    host,
    joiner,
    tail,
  )
  .map((parts) => parts.join(''));

describe('property: a third-party domain grant reads the hosts the taint check reads', () => {
  it('holds on example.com only when every address the taint check reads in the arguments is in example.com', () => {
    let held = 0;
    fc.assert(
      fc.property(text, (cc) => {
        const args = { to: 'ann@example.com', cc };
        if (!constraintHolds(DOMAIN, args, undefined)) return;
        held++;
        const read = destinationsOf({ cc }).filter((d) => d.kind === 'address');
        // Outside example.com, only a name no one can hold: its last label no top-level domain.
        for (const d of read)
          expect(
            inDomain(d.host, 'example.com') || !/^[a-z0-9-]+$/.test(d.host.split('.').at(-1)!),
            `${cc} → ${d.value}`,
          ).toBe(true);
      }),
      { numRuns: 3000 },
    );
    console.log(`held: ${held}`);
    expect(held).toBeGreaterThan(300);
  });

  it('escapes, invisible characters and what a mail parser keeps in a domain make the grant ask', () => {
    for (const cc of [
      'a@example.com%2eevil.test',
      'a@example.com%5fx.evil.test',
      'a@example.com&#46;evil.test',
      'a@example.com&period;evil.test',
      'a@example.com\u00ADx.evil.test',
      'a@example.com\u200Bx.evil.test',
      'a@example.com\u2024evil.test',
      // Characters the taint check's mail parser (and lenient IDNA) takes into the domain.
      'a@example.com\u3001x.evil.test',
      'a@example.com)x.evil.test',
      'a@example.com!x.evil.test',
      'https://a@example.com!x.evil.test/', // the URL parser's host
    ])
      expect(constraintHolds(DOMAIN, { to: 'ann@example.com', cc }, undefined), cc).toBe(false);
    // What stays in the domain still holds: separators, a sentence's end, escapes inside it.
    for (const cc of [
      'a@example.com, b@sub.example.com',
      'mail a@example.com)',
      'a%40example.com',
      'a@example.com,b@example.com',
      'write to a@example.com! or (a@example.com). Thanks',
      'see https://ann@example.com/docs/file.html', // a link's user-info, then its path
    ])
      expect(constraintHolds(DOMAIN, { to: 'ann@example.com', cc }, undefined), cc).toBe(true);
  });
});
