import { describe, expect, it } from 'vitest';
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
