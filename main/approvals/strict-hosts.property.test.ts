import fc from 'fast-check';
import addressparser from 'nodemailer/lib/addressparser';
import { addressParser } from 'postal-mime';
import { describe, expect, it } from 'vitest';
import type { GrantConstraint } from '../../common/contract/index.js';
import {
  address,
  allowed,
  domains,
  mailbox,
  separator,
} from '../../test-support/recipient-arbitraries.js';
import { constraintHolds } from './grant-scope.js';

const DOMAIN: GrantConstraint = { path: 'to', op: 'domain', value: 'example.com' };

// A third-party tool's parser is unknown, so its constrained argument is read strictly
// (addresses.ts strictHosts). Whatever that reading lets through, the mail parsers at hand and
// the WHATWG URL parser must read as the same hosts, all inside the domain.
const link = fc
  .tuple(
    fc.constantFrom('https://', 'http://', 'https://x@', 'HTTPS://', 'https:\\\\', 'ftp://'),
    domains,
    fc.constantFrom(
      '',
      '/',
      '/a?b=1',
      ':8443/x',
      '@evil.test/',
      '#@evil.test',
      '\\@evil.test',
      '.evil.test',
    ),
  )
  .map(([a, d, b]) => a + d + b);
const loose = fc.oneof(
  { weight: 2, arbitrary: address },
  { weight: 1, arbitrary: link },
  { weight: 1, arbitrary: mailbox },
);
const thirdPartyValue = fc.oneof(
  fc
    .array(fc.tuple(loose, separator), { minLength: 1, maxLength: 3 })
    .map((parts) => parts.map(([m, sep]) => m + sep).join('')),
  fc.array(loose, { minLength: 1, maxLength: 3 }),
);

describe('property: a third-party domain grant lets through only what every parser places in the domain', () => {
  it('holds for 10,000 generated values', () => {
    let held = 0;
    fc.assert(
      fc.property(thirdPartyValue, (to) => {
        if (!constraintHolds(DOMAIN, { to }, undefined)) return;
        held++;
        for (const item of [to].flat())
          for (const part of item.split(',').map((p) => p.trim())) {
            if (/^https?:/i.test(part)) {
              expect(allowed(`x@${new URL(part).hostname}`)).toBe(true);
              continue;
            }
            const postal = addressParser(part, { flatten: true }).map((a) => a.address ?? '');
            const nodemailer = addressparser(part, { flatten: true }).map((a) => a.address);
            expect(postal).toEqual([part]);
            expect(nodemailer).toEqual([part]);
            expect(allowed(part)).toBe(true);
          }
      }),
      { numRuns: 10_000 },
    );
    expect(held).toBeGreaterThan(500);
  });
});
