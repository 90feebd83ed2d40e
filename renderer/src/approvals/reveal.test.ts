import { describe, expect, it } from 'vitest';
import { hasHidden, reveal, revealPlain } from './reveal';

describe('reveal', () => {
  it('names a right-to-left override instead of letting it reorder the text', () => {
    expect(revealPlain('pay \u202e0009 :dna')).toBe('pay ⟦RLO⟧0009 :dna');
    expect(hasHidden('plain text')).toBe(false);
  });

  it('folds 20,000 non-breaking spaces into one mark, so the end of the value stays in sight', () => {
    const parts = reveal('a' + '\u00a0'.repeat(20_000) + 'the end');
    expect(parts).toEqual([
      { text: 'a' },
      { mark: 'NBSP×20000', title: expect.stringContaining('20000 × U+00A0') },
      { text: 'the end' },
    ]);
  });

  it('shows zero-width characters and long runs of spaces, keeps newlines and tabs', () => {
    expect(revealPlain('a\u200bb')).toBe('a⟦ZWSP⟧b');
    expect(revealPlain('x' + ' '.repeat(50) + 'y')).toBe('x⟦␠×50⟧y');
    expect(revealPlain('line 1\n\tline 2')).toBe('line 1\n\tline 2');
    expect(revealPlain('bell\u0007')).toBe('bell⟦U+0007⟧');
  });
});

describe('clipParts', () => {
  it('counts a folded run as its mark, so the text after 20,000 blanks stays in the head', async () => {
    const { clipParts } = await import('./Revealed');
    const c = clipParts(reveal('pay' + '\u00a0'.repeat(20_000) + 'THE-END' + '\nx'.repeat(100)));
    const head = c.head.map((p) => ('mark' in p ? `[${p.mark}]` : p.text)).join('');
    expect(head.startsWith('pay[NBSP×20000]THE-END\nx')).toBe(true);
    expect(c.hiddenChars).toBeGreaterThan(0);
    expect(c.hiddenLines).toBeGreaterThan(1);
  });
});
