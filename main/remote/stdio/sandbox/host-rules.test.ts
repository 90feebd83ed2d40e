import { createServer, connect, type Server } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { HostProxy } from './host-proxy.js';
import { allows, parseHostRule, parseTarget, ruleText } from './host-rules.js';
import { tempDir } from '../../../../test-support/temp-dir.js';

/**
 * Issue 35: the host list is decided on the same normalized target the proxy connects to. The
 * property tests spell one address many ways (IPv4 as one number, hex, short forms; names in
 * other cases, with a trailing dot) and check that the decision depends only on the address;
 * the proxy test checks what a real CONNECT reaches.
 */
const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));

/** Ways WHATWG URL (and so inet_aton-style parsers) accept an IPv4 address. */
function spellings([a, b, c, d]: [number, number, number, number]): string[] {
  const n = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
  return [
    `${a}.${b}.${c}.${d}`,
    String(n),
    `0x${n.toString(16)}`,
    `${a}.${(b << 16) | (c << 8) | d}`,
    `${a}.${b}.${(c << 8) | d}`,
    `0x${a.toString(16)}.${b}.${c}.${d}`,
    `${a}.${b}.${c}.${d}.`,
  ];
}

// A label starting "xn--" declares punycode (RFC 5891 §4.2.3.1); a random tail is not valid
// punycode and WHATWG URL refuses the whole name — checked on its own below, not generated here.
const label = fc
  .stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/)
  .filter((l) => !l.startsWith('xn--'));
const domain = fc.array(label, { minLength: 2, maxLength: 4 }).map((l) => l.join('.'));
const caseFlip = (s: string, mask: number) =>
  [...s].map((ch, i) => ((mask >> (i % 31)) & 1 ? ch.toUpperCase() : ch)).join('');

describe('host rules', () => {
  it('an IPv4 rule allows every spelling of its address and of no other (property)', () => {
    fc.assert(
      fc.property(ipv4, ipv4, fc.integer({ min: 1, max: 65535 }), (mine, other, port) => {
        const rule = parseHostRule(`${mine.join('.')}:${port}`);
        for (const s of spellings(mine))
          expect(allows([rule], parseTarget(`${s}:${port}`)!)).toBe(true);
        const same = mine.join('.') === other.join('.');
        for (const s of spellings(other))
          expect(allows([rule], parseTarget(`${s}:${port}`)!)).toBe(same);
        // Another port of the same address: never.
        expect(allows([rule], parseTarget(`${mine.join('.')}:${(port % 65535) + 1}`)!)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('names match whatever their case or trailing dot; subdomains only with *.; default ports 80 and 443 (property)', () => {
    fc.assert(
      fc.property(domain, label, fc.integer(), (name, sub, mask) => {
        const exact = parseHostRule(name);
        const wild = parseHostRule(`*.${name}`);
        const spelled = caseFlip(name, mask);
        for (const port of [80, 443]) {
          expect(allows([exact], parseTarget(`${spelled}:${port}`)!)).toBe(true);
          expect(allows([exact], parseTarget(`${spelled}.:${port}`)!)).toBe(true);
          expect(allows([wild], parseTarget(`${sub}.${spelled}:${port}`)!)).toBe(true);
          expect(allows([wild], parseTarget(`${spelled}:${port}`)!)).toBe(false);
          expect(allows([exact], parseTarget(`${sub}.${name}:${port}`)!)).toBe(false);
          // A name that merely ends the same way is not a subdomain.
          expect(allows([wild], parseTarget(`${sub}${name}:${port}`)!)).toBe(false);
        }
        expect(allows([exact], parseTarget(`${name}:8443`)!)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('a name with an invalid punycode label is refused on both sides, never allowed', () => {
    // Found by the property above with seed 710254125 before its labels left "xn--" out.
    expect(parseTarget('xn--0.aa.a0:80')).toBeUndefined();
    expect(() => parseHostRule('xn--0.aa.a0')).toThrow(/not a valid host/);
    expect(() => parseHostRule('*.xn--0.aa.a0')).toThrow(/not a valid host/);
  });

  it('normalizes entries and refuses what is not a host', () => {
    expect(ruleText(parseHostRule('API.GitHub.com.'))).toBe('api.github.com');
    expect(ruleText(parseHostRule('bücher.example:8080'))).toBe('xn--bcher-kva.example:8080');
    expect(ruleText(parseHostRule('[::1]:3000'))).toBe('[::1]:3000');
    expect(ruleText(parseHostRule('0x7f.1:5432'))).toBe('127.0.0.1:5432');
    for (const bad of [
      '',
      'https://x.com',
      'x.com/path',
      'user@x.com',
      '*',
      '*.com',
      'a.*.b',
      '::1',
      'x.com:0',
      'x.com:70000',
    ])
      expect(() => parseHostRule(bad), bad).toThrow();
    expect(parseTarget('example.com')).toBeUndefined();
    expect(parseTarget('example.com', 80)).toEqual({ host: 'example.com', port: 80 });
  });
});

describe('the host-list proxy (real sockets)', () => {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  async function target(): Promise<{ port: number; hits: () => number }> {
    let hits = 0;
    const s: Server = createServer((c) => {
      hits++;
      c.on('error', () => {}); // a client hanging up first is not a failure
      c.end('hi\n');
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise((r) => s.close(r)));
    return { port: (s.address() as { port: number }).port, hits: () => hits };
  }

  /** Sends one proxy request and returns the status line and what followed. */
  function ask(socketPath: string, request: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const c = connect(socketPath);
      let buf = '';
      c.on('data', (d) => (buf += d));
      c.on('end', () => resolve(buf));
      c.on('error', reject);
      c.write(request);
    });
  }

  it('tunnels to a listed host:port, refuses every other spelling and port with 403, forwards plain HTTP only when listed', async () => {
    const allowed = await target();
    const other = await target();
    const refused: string[] = [];
    const proxy = new HostProxy({
      rules: [parseHostRule(`127.0.0.1:${allowed.port}`)],
      onRefused: (t) => refused.push(t),
    });
    const path = join(tempDir('airlock-proxy-test-'), 'p.sock');
    await proxy.listen({ path });
    cleanup.push(() => proxy.close());

    const ok = await ask(path, `CONNECT 2130706433:${allowed.port} HTTP/1.1\r\n\r\n`);
    expect(ok).toMatch(/^HTTP\/1\.1 200 .*\r\n\r\nhi\n$/s);
    expect(allowed.hits()).toBe(1);

    for (const t of [
      `127.0.0.1:${other.port}`,
      `localhost:${allowed.port}`,
      `127.0.0.2:${allowed.port}`,
      `[::1]:${allowed.port}`,
    ])
      expect(await ask(path, `CONNECT ${t} HTTP/1.1\r\n\r\n`), t).toMatch(/^HTTP\/1\.1 403 /);
    expect(
      await ask(path, `GET http://127.0.0.1:${other.port}/ HTTP/1.1\r\nHost: x\r\n\r\n`),
    ).toMatch(/^HTTP\/1\.1 403 /);
    expect(await ask(path, 'GET /relative HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 403 /,
    );
    expect(other.hits()).toBe(0);
    expect(refused).toEqual(
      expect.arrayContaining([
        `127.0.0.1:${other.port}`,
        `localhost:${allowed.port}`,
        `[::1]:${allowed.port}`,
      ]),
    );
  });
});
