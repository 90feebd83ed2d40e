import { describe, expect, it } from 'vitest';
import { destinationsOf } from './destinations.js';
import { canonicalHost, hostAndParents, organisationOf } from './identity.js';
import { linkPayloads } from './link-payloads.js';
import { contentValues } from './readings.js';
import { extractValues } from './values.js';

const hosts = (text: string) =>
  extractValues(text)
    .filter((v) => v.kind === 'domain')
    .map((v) => v.value);

describe('IP hosts (ip-hosts.ts)', () => {
  it('reads an IP address written alone in text as a host', () => {
    expect(hosts('Post "ok" to our collector at 203.0.113.77, path /in.')).toEqual([
      '203.0.113.77',
    ]);
    expect(hosts('collector: 203.0.113.77.')).toEqual(['203.0.113.77']);
    expect(hosts('ssh to 203.0.113.77:2222 tonight')).toEqual(['203.0.113.77']);
    expect(hosts('(203.0.113.77)')).toEqual(['203.0.113.77']);
    expect(hosts('the box at [2001:DB8:0:0:0:0:0:1] is up')).toEqual(['[2001:db8::1]']);
    expect(hosts('mapped: [::FFFF:203.0.113.77]')).toEqual(['203.0.113.77']);
    // Zero-padded parts are octal to WHATWG (and to inet_aton): the host fetch would reach.
    expect(hosts('at 192.168.001.010 today')).toEqual(['192.168.1.8']);
  });

  it('does not read version numbers, dates, phone numbers or times as hosts', () => {
    for (const text of [
      'Upgrade to 1.2.3.4.5 now',
      'release v1.2.3.4 is out',
      'build 10.0.19045.3803',
      'Chrome 120.0.6099.129',
      'due 04.12.2026 at 10:30',
      'meeting on 2026.12.04',
      'call 555.123.4567 or +1.800.555.0199',
      'the ratio was 3.14 and 2.5.1',
      'at 10:30:45 on the dot',
      'MAC 00:1a:2b:3c:4d:5e',
      'see std::vector and a::b',
      'array [1.5, 2.5] and [0:3]',
      'section 256.1.1.1 of the contract',
    ])
      expect(hosts(text), text).toEqual([]);
  });

  it('keys IP hosts as WHATWG URL reaches them, and rejects what it rejects', () => {
    expect(canonicalHost('3405803853')).toBe('203.0.113.77');
    expect(canonicalHost('0XCB00714D')).toBe('203.0.113.77');
    expect(canonicalHost('0313.0.0161.0115')).toBe('203.0.113.77');
    expect(canonicalHost('203.0.29517')).toBe('203.0.115.77');
    expect(canonicalHost('::ffff:cb00:714d')).toBe('203.0.113.77');
    expect(canonicalHost('[0:0:0:0:0:FFFF:CB00:714D]')).toBe('203.0.113.77');
    // NAT64's well-known prefix reaches the embedded IPv4 address (RFC 6052 §2.1).
    expect(canonicalHost('[64:ff9b::203.0.113.77]')).toBe('203.0.113.77');
    // Not mapped: an IPv4-compatible address (deprecated, RFC 4291 §2.5.5.1) is IPv6 only.
    expect(canonicalHost('[::203.0.113.77]')).toBe('[::cb00:714d]');
    expect(canonicalHost('[2001:0DB8::0:1]')).toBe('[2001:db8::1]');
    // A host that ends in a number but is no IPv4 address is no host for fetch either.
    expect(canonicalHost('1.2.3.4.5')).toBe('');
    expect(canonicalHost('foo.123')).toBe('');
    expect(canonicalHost('1.2.3.256')).toBe('');
    expect(canonicalHost('[1.2]')).toBe('');
    expect(canonicalHost('a@1.2.3.4')).toBe('');
    // Domains are untouched.
    expect(canonicalHost('Evil.Example')).toBe('evil.example');
    expect(canonicalHost('123.example')).toBe('123.example');
  });

  it("reads a stranger's zero-padded IPv4 address decimal too, as well as WHATWG's octal", () => {
    const keys = contentValues('collector at 203.000.113.077 now')
      .filter((v) => v.kind === 'domain')
      .map((v) => v.value);
    expect(keys).toEqual(['203.0.113.63', '203.0.113.77']);
    // Nothing padded: no other reading.
    expect(
      contentValues('collector at 203.0.113.77 now')
        .filter((v) => v.kind === 'domain')
        .map((v) => v.value),
    ).toEqual(['203.0.113.77']);
  });

  it('gives an IP address no parent domains', () => {
    expect(hostAndParents('203.0.113.77')).toEqual(['203.0.113.77']);
    expect(organisationOf('203.0.113.77')).toBe('203.0.113.77');
    expect(hostAndParents('[2001:db8::1]')).toEqual(['[2001:db8::1]']);
  });

  it('reads links with an IPv6 host whole, as values, destinations and payloads', () => {
    const link = 'http://u@[::ffff:cb00:714d]:8080/c?q=the-invoice-total';
    const values = extractValues(`post to ${link} now`);
    expect(values.filter((v) => v.kind === 'url').map((v) => v.value)).toEqual([
      'http://203.0.113.77:8080/c?q=the-invoice-total',
    ]);
    const d = destinationsOf({ webhook: 'http://[2001:db8::1]:8080/hook' });
    expect(d.map((x) => [x.kind, x.host])).toEqual([['url', '[2001:db8::1]']]);
    expect(linkPayloads(`![](${link})`)).toContain('the-invoice-total');
  });
});
