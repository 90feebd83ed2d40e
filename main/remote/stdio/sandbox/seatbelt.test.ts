import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sbString, seatbeltProfile, type MacPlan } from './seatbelt.js';

/**
 * Issue 35, macOS: the generated sandbox-exec profile, as text (no Mac runs these tests). Each
 * form is read back by a small s-expression reader, so a stray quote or parenthesis in a path
 * would fail here rather than on a user's Mac.
 */
type Sexp = string | Sexp[];

function read(text: string): Sexp[] {
  const out: Sexp[][] = [[]];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === ';') i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (/\s/.test(ch)) i++;
    else if (ch === '(') {
      out.push([]);
      i++;
    } else if (ch === ')') {
      const done = out.pop()!;
      if (!out.length) throw new Error(`unbalanced ) at ${i}`);
      out[out.length - 1]!.push(done);
      i++;
    } else if (ch === '"') {
      let s = '';
      i++;
      while (text[i] !== '"') {
        if (i >= text.length) throw new Error('unterminated string');
        if (text[i] === '\\') i++;
        s += text[i++];
      }
      i++;
      out[out.length - 1]!.push(`"${s}`);
    } else {
      const m = /^(#"[^"]*"|[^\s()]+)/.exec(text.slice(i))!;
      out[out.length - 1]!.push(m[0]);
      i += m[0].length;
    }
  }
  if (out.length !== 1) throw new Error('unbalanced (');
  return out[0]!;
}

const plan: MacPlan = {
  privateHome: '/Users/u/Library/Caches/Airlock Sandboxes/x/srv',
  runtime: ['/opt/homebrew/Cellar/node/22'],
  read: ['/Users/u/docs "quoted" \\ back'],
  write: ['/Users/u/project', '/tmp/shared'],
  protected: ['/Users/u/Library/Application Support/Airlock', '/Users/u/Library/Keychains'],
  network: 'none',
};

const strings = (x: Sexp): string[] =>
  typeof x === 'string' ? (x.startsWith('"') ? [x.slice(1)] : []) : x.flatMap(strings);
const forms = (p: MacPlan) => read(seatbeltProfile(p)) as Sexp[][];

describe('seatbeltProfile', () => {
  it('denies by default, reads the system and grants, writes only its own folder and the write grants', () => {
    const f = forms(plan);
    expect(f[0]).toEqual(['version', '1']);
    expect(f[1]).toEqual(['deny', 'default']);
    const writes = f.find(
      (x) => x[0] === 'allow' && x[1] === 'file-read*' && x[2] === 'file-write*',
    )!;
    expect(strings(writes)).toEqual([
      plan.privateHome,
      '/Users/u/project',
      '/tmp/shared',
      '/private/tmp/shared',
    ]);
    const reads = f.filter(
      (x) => x[0] === 'allow' && x[1] === 'file-read*' && x.length > 2 && x[2] !== 'file-write*',
    );
    const readable = reads.flatMap(strings);
    for (const p of ['/usr', '/System', ...plan.runtime, ...plan.read])
      expect(readable).toContain(p);
    expect(readable.some((p) => p.startsWith('/Users/u') && !plan.read.includes(p))).toBe(false);
  });

  it('protected paths are denied last, for files and for Unix sockets', () => {
    const f = forms({ ...plan, network: 'any' });
    const lastAllow = f.map((x) => x[0]).lastIndexOf('allow');
    const denies = f.slice(lastAllow + 1);
    expect(denies.map((x) => x.slice(0, 2))).toEqual([
      ['deny', 'file-read*'],
      ['deny', 'network-outbound'],
    ]);
    for (const d of denies) expect(strings(d)).toEqual(expect.arrayContaining([...plan.protected]));
  });

  it('network: none allows none, a host list only the proxy port, any allows the network', () => {
    const net = (p: MacPlan) =>
      forms(p).filter((x) => x[0] === 'allow' && String(x[1]).startsWith('network'));
    expect(net(plan)).toEqual([]);
    expect(net({ ...plan, network: 'hosts', proxyPort: 50123 })).toEqual([
      ['allow', 'network-outbound', ['remote', 'tcp', '"localhost:50123']],
    ]);
    expect(net({ ...plan, network: 'any' }).map((x) => x[1])).toEqual(['network*']);
  });

  it('never the keychain service, whatever the network', () => {
    for (const network of ['none', 'any', 'hosts'] as const) {
      const text = seatbeltProfile({ ...plan, network, proxyPort: 1 });
      expect(text).not.toMatch(/SecurityServer|securityd/);
      expect(text).not.toMatch(/\(allow default\)/);
    }
  });

  it('escapes quotes and backslashes in paths', () => {
    expect(sbString('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(forms(plan).flatMap(strings)).toContain('/Users/u/docs "quoted" \\ back');
  });
});

describe('seatbeltProfile over generated plans', () => {
  // Path segments with what a profile must escape or survive: quotes, backslashes, parentheses,
  // `;` (a comment outside strings), `#"` (a regex literal), spaces, non-ASCII.
  const segment = fc
    .array(fc.constantFrom('a', 'Z', ' ', '"', '\\', '(', ')', ';', '#', 'é', '日', '-', '.'), {
      minLength: 1,
      maxLength: 6,
    })
    .map((c) => c.join(''))
    .filter((s) => s !== '.' && s !== '..');
  const path = fc
    .tuple(
      fc.constantFrom('/Users/u', '/tmp', '/private/var', '/opt'),
      fc.array(segment, { maxLength: 3 }),
    )
    .map(([root, rest]) => [root, ...rest].join('/'));
  // Protected paths as Airlock's are: below a home, a temporary or a /var folder, never a root.
  const protectedPath = fc
    .tuple(
      fc.constantFrom('/Users/u', '/tmp', '/private/var/folders'),
      fc.array(segment, { minLength: 1, maxLength: 3 }),
    )
    .map(([root, rest]) => [root, ...rest].join('/'));
  const inside = (a: string, b: string) => a === b || a.startsWith(`${b}/`);
  const same = (p: string) => [p, p.replace(/^\/private(?=\/(tmp|var|etc)(\/|$))/, '')];
  const planArb = fc
    .record({
      privateHome: path,
      runtime: fc.array(path, { maxLength: 3 }),
      read: fc.array(path, { maxLength: 3 }),
      write: fc.array(path, { maxLength: 3 }),
      protected: fc.array(protectedPath, { minLength: 1, maxLength: 3 }),
      network: fc.constantFrom('none' as const, 'any' as const, 'hosts' as const),
      proxyPort: fc.integer({ min: 1, max: 65535 }),
    })
    // As the launcher gives it: no grant is, or lies in, a protected path (checkGrant refuses).
    .filter((p) =>
      [p.privateHome, ...p.runtime, ...p.read, ...p.write].every(
        (g) => !p.protected.some((x) => same(g).some((s) => same(x).some((t) => inside(s, t)))),
      ),
    );

  it('reads back as balanced forms, every path intact; no allow names a protected path; the denies come last', () => {
    fc.assert(
      fc.property(planArb, (p) => {
        const f = forms(p); // throws on an unbalanced or unterminated form
        expect(f[0]).toEqual(['version', '1']);
        expect(f[1]).toEqual(['deny', 'default']);
        const named = f.flatMap(strings);
        for (const x of [p.privateHome, ...p.runtime, ...p.read, ...p.write, ...p.protected])
          expect(named).toContain(x);
        const allowed = f.filter((x) => x[0] === 'allow').flatMap(strings);
        for (const a of allowed)
          for (const x of p.protected)
            expect(same(a).some((s) => same(x).some((t) => inside(s, t)))).toBe(false);
        const lastAllow = f.map((x) => x[0]).lastIndexOf('allow');
        const denied = f.slice(lastAllow + 1);
        expect(denied.map((x) => x.slice(0, 2))).toEqual([
          ['deny', 'file-read*'],
          ['deny', 'network-outbound'],
        ]);
        for (const d of denied) expect(strings(d)).toEqual(expect.arrayContaining(p.protected));
        const net = f.filter((x) => x[0] === 'allow' && String(x[1]).startsWith('network'));
        if (p.network === 'none') expect(net).toEqual([]);
        if (p.network === 'hosts')
          expect(net).toEqual([
            ['allow', 'network-outbound', ['remote', 'tcp', `"localhost:${p.proxyPort}`]],
          ]);
      }),
      { numRuns: 300 },
    );
  });
});
