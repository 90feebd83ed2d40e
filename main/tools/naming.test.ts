import { describe, expect, it } from 'vitest';
import { assignNames, MAX_NAME_LENGTH, NAME_PATTERN } from './naming.js';

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
