/**
 * "Did you mean" for the CLI (issue 29.7): the closest known word by edit distance
 * (Damerau–Levenshtein, optimal string alignment: a swapped pair of letters is one edit),
 * when it is close enough to be a typo — at most one edit for words of up to four letters,
 * two for longer ones, or the word is the start of exactly one candidate.
 * A dozen lines, so no dependency (the one in node_modules, fast-levenshtein, is ESLint's).
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

export function suggest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const unique = [...new Set(candidates)];
  const prefixed = unique.filter((c) => w.length >= 2 && c.startsWith(w));
  if (prefixed.length === 1) return prefixed[0];
  let best: { c: string; d: number } | undefined;
  for (const c of unique) {
    const d = editDistance(w, c.toLowerCase());
    if (!best || d < best.d) best = { c, d };
  }
  if (!best || best.d === 0) return best?.c;
  return best.d <= (w.length <= 4 ? 1 : 2) ? best.c : undefined;
}

/** `Did you mean "x"?` or nothing. */
export function didYouMean(word: string, candidates: readonly string[], prefix = ''): string {
  const s = suggest(word, candidates);
  return s ? ` Did you mean "${prefix}${s}"?` : '';
}
