import fc from 'fast-check';

/**
 * Generated recipients for the grant property tests (issue 27 item 1): addresses in and out of
 * example.com, and the syntax address parsers disagree on.
 */

/**
 * In the domain, decided apart from the code under test: the WHATWG URL parser's host, when that
 * host is the whole domain. The parser ends a host at "/", "\\", "?" or "#" (and a port at ":")
 * and reads the rest as path, query or fragment: `http://example.com/.evil.test/` has the host
 * example.com, while the address `x@example.com/.evil.test` names a domain under evil.test.
 */
export function allowed(address: string): boolean {
  const domain = address.slice(address.lastIndexOf('@') + 1);
  if (/[/\\?#:]/.test(domain)) return false;
  let host: string;
  try {
    host = new URL(`http://${domain}/`).hostname;
  } catch {
    return false;
  }
  return host === 'example.com' || host.endsWith('.example.com');
}

// Building blocks: addresses inside and outside the domain (look-alikes, IDN, trailing dots),
// and the pieces address parsers disagree on — names, quotes, comments, angle brackets, groups,
// tabs, commas and semicolons, RFC 2047 encoded words. Addresses lean to the domain so that many
// generated calls fit the grant, with one outside it hidden somewhere in the rest.
export const domains = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom('example.com', 'sub.example.com', 'EXAMPLE.COM', 'ｅxample.com'),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'evil.test',
      'example.com.evil.test',
      'evilexample.com',
      'exämple.com',
      'example.co',
      'example.com.',
    ),
  },
);
const locals = fc.constantFrom('carol', 'dave', 'evil', 'a.b', 'x+y', 'über', "o'hara", 'x%y');
export const address = fc.tuple(locals, domains).map(([l, d]) => `${l}@${d}`);
export const evil = fc.constantFrom('evil@evil.test', 'x@example.com.evil.test');
const b64 = (s: string) => `=?utf-8?B?${Buffer.from(s).toString('base64')}?=`;
const qp = (s: string) =>
  `=?utf-8?Q?${s.replace(/[@<>=?_ ]/g, (c) => `=${c.charCodeAt(0).toString(16).toUpperCase()}`)}?=`;
const piece = fc.oneof(
  fc.constantFrom(
    'Carol',
    'Smith, Erin',
    'a;b',
    'x:y',
    '"',
    '(',
    ')',
    '<',
    '>',
    '\\',
    '\t',
    ' ',
    ',',
    ';',
    ':',
  ),
  evil,
  evil.map((a) => `<${a}>`),
  evil.map(b64),
  evil.map((a) => qp(`<${a}>`)),
  fc.string({ maxLength: 6 }),
);
const name = fc.array(piece, { minLength: 1, maxLength: 3 }).map((p) => p.join(''));
export const mailbox = fc.oneof(
  { weight: 3, arbitrary: address },
  { weight: 1, arbitrary: address.map((a) => `<${a}>`) },
  { weight: 3, arbitrary: fc.tuple(name, address).map(([n, a]) => `${n} <${a}>`) },
  {
    weight: 2,
    arbitrary: fc.tuple(name, address).map(([n, a]) => `"${n.replace(/["\\]/g, '')}" <${a}>`),
  },
  { weight: 2, arbitrary: fc.tuple(address, name).map(([a, n]) => `${a} (${n})`) },
  { weight: 2, arbitrary: fc.tuple(name, address).map(([n, a]) => `(${n}) ${a}`) },
  { weight: 1, arbitrary: fc.tuple(name, address).map(([n, a]) => `${n} ${a}`) },
  { weight: 1, arbitrary: fc.tuple(evil, address).map(([a, b]) => `${a} ${b}`) },
  { weight: 1, arbitrary: fc.tuple(address, evil).map(([a, b]) => `<${b}> <${a}>`) },
  { weight: 1, arbitrary: fc.tuple(address, address).map(([a, b]) => `team: ${a}, ${b};`) },
  { weight: 1, arbitrary: fc.array(piece, { minLength: 1, maxLength: 5 }).map((p) => p.join('')) },
);
export const separator = fc.constantFrom(', ', ',', '; ', ';', ' ', '\t', '');
export const field = fc
  .array(fc.tuple(mailbox, separator), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.map(([m, s]) => m + s).join(''));
