import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { validateRemoteName } from '../remote/validate.js';
import { assignNames, baseName, MAX_NAME_LENGTH, NAME_PATTERN } from './naming.js';

describe('public tool names', () => {
  it('prefix__tool, sanitised to the Claude/OpenAI pattern', () => {
    const names = assignNames([
      { key: 'remote:gh/create.issue', prefix: 'gh', tool: 'create.issue' },
    ]);
    expect(names.get('remote:gh/create.issue')).toBe('gh__create_issue');
  });

  it('long names stay ≤ 50 (so mcp__airlock__ + name ≤ 64), distinct and deterministic', () => {
    const long = 'a'.repeat(80);
    const reqs = [
      { key: 'remote:x/' + long + '1', prefix: 'x', tool: long + '1' },
      { key: 'remote:x/' + long + '2', prefix: 'x', tool: long + '2' },
    ];
    const a = assignNames(reqs);
    const b = assignNames([...reqs].reverse());
    const values = [...a.values()];
    expect(new Set(values).size).toBe(2);
    for (const v of values) {
      expect(v.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
      expect(('mcp__airlock__' + v).length).toBeLessThanOrEqual(64);
      expect(v).toMatch(NAME_PATTERN);
    }
    expect([...b.entries()].sort()).toEqual([...a.entries()].sort());
  });

  it('collisions after sanitising are resolved, first key keeps the plain name', () => {
    const names = assignNames([
      { key: 'remote:a/b.c', prefix: 'a', tool: 'b.c' },
      { key: 'remote:a/b_c', prefix: 'a', tool: 'b_c' },
    ]);
    expect(names.get('remote:a/b.c')).toBe('a__b_c');
    expect(names.get('remote:a/b_c')).toMatch(/^a__b_c_[0-9a-f]{6}$/);
  });
});

describe('two servers never share a public tool name', () => {
  // The first "__" of a public name must be where the prefix ends. A server name ending in "_"
  // broke that: "a_"'s tool "b" and "a"'s tool "_b" (or ".b") were both "a___b", and assignNames
  // gave the plain name to whichever key sorted first, so a server could take another's tool name
  // by listing a tool (the agent's next call of "a___b" went to it).
  it('over every pair of valid server names and any tool names', () => {
    const valid = (n: string) => {
      try {
        validateRemoteName(n);
        return true;
      } catch {
        return false;
      }
    };
    const tool = fc.string({ unit: fc.constantFrom('a', 'b', '_', '.', '-'), maxLength: 5 });
    const name = fc.string({
      unit: fc.constantFrom('a', 'b', '_', '-'),
      minLength: 1,
      maxLength: 4,
    });
    // Two names at random, or one and a longer one that starts with it (where a collision sits).
    const pair = fc.oneof(
      fc.tuple(name, name),
      fc
        .tuple(
          name,
          fc.string({ unit: fc.constantFrom('a', '_', '-'), minLength: 1, maxLength: 2 }),
        )
        .map(([a, tail]) => [a, a + tail] as [string, string]),
    );
    fc.assert(
      fc.property(pair, tool, tool, ([p1, p2], t1, t2) => {
        fc.pre(valid(p1) && valid(p2) && p1.toLowerCase() !== p2.toLowerCase());
        expect(baseName(p1, t1)).not.toBe(baseName(p2, t2));
      }),
      { seed: 34, numRuns: 2000 },
    );
  });
});
