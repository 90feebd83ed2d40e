/**
 * `--help` on every command and subcommand, and `airlock help [COMMAND…]`
 * (issue 18, item 6). The usage text is the one source: a command's help is
 * its lines of it (an entry is a line indented by two spaces, plus the lines
 * indented deeper that follow it), so a new command documents itself by being
 * in the usage.
 */
export interface UsageEntry {
  /** The command words, e.g. "agent add". */
  words: string[];
  text: string;
}

export function usageEntries(usage: string): UsageEntry[] {
  const entries: UsageEntry[] = [];
  for (const line of usage.split('\n')) {
    if (/^ {2}\S/.test(line)) {
      const words: string[] = [];
      for (const w of line.trim().split(/\s+/)) {
        // Command words are lower-case; arguments are NAME, [--flag], URL, …
        if (!/^[a-z][a-z-]*$/.test(w)) break;
        words.push(w);
      }
      entries.push({ words, text: line });
    } else if (/^ {3,}\S/.test(line) && entries.length > 0) {
      entries[entries.length - 1]!.text += '\n' + line;
    }
  }
  return entries;
}

/** The commands matching the first words of `words` (the longest prefix that names any). */
function matching(words: string[], entries: UsageEntry[]): { want: string[]; hits: UsageEntry[] } {
  for (let n = words.length; n > 0; n--) {
    const want = words.slice(0, n);
    const hits = entries.filter(
      (e) => e.words.length >= n && want.every((w, i) => e.words[i] === w),
    );
    if (hits.length > 0) return { want, hits };
  }
  return { want: [], hits: [] };
}

/** "Example:" lines for these commands (examples.ts), once per command. */
function examplesOf(hits: UsageEntry[], examples: Record<string, string[]>): string {
  const lines = [...new Set(hits.map((h) => h.words.join(' ')))].flatMap((w) => examples[w] ?? []);
  if (lines.length === 0) return '';
  return `\n${lines.length === 1 ? 'Example' : 'Examples'}:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}

/**
 * The help for `words` (the positionals before --help): the usage lines of the
 * command (or of a group's subcommands) and their examples. Tries the longest
 * prefix that names a command: `agent add "Claude Code" --help` is `agent add`.
 */
export function helpFor(
  words: string[],
  usage: string,
  footer: string,
  examples: Record<string, string[]> = {},
): string | null {
  const { want, hits } = matching(words, usageEntries(usage));
  if (hits.length === 0) return null;
  const single = new Set(hits.map((h) => h.words.join(' '))).size === 1;
  return `Usage: airlock ${single ? hits[0]!.words.join(' ') + ' …' : want.join(' ') + ' <subcommand>'}\n\n${hits.map((h) => h.text).join('\n')}\n${examplesOf(hits, examples)}\n${footer}`;
}

/**
 * Why `words` (a command line's positionals) is not a command, said as a user needs it
 * (issue 29.7): a known command with an argument missing ("agent add" needs NAME), a group
 * without or with a mistyped subcommand ("agent ad": did you mean "agent add"?), or an
 * unknown command with the closest one, if one is close.
 */
export function whatIsWrong(
  words: string[],
  usage: string,
  examples: Record<string, string[]>,
  didYouMean: (word: string, candidates: string[], prefix?: string) => string,
): string {
  const entries = usageEntries(usage);
  const [first = '', second] = words;
  const group = entries.filter((e) => e.words[0] === first);
  if (group.length === 0)
    return `unknown command "${first}".${didYouMean(
      first,
      entries.map((e) => e.words[0]!),
    )} Run "airlock help" for the list.`;
  const exact = group.filter((e) => e.words.length === 1 || e.words[1] === second);
  const subs = [...new Set(group.filter((e) => e.words.length > 1).map((e) => e.words[1]!))];
  if (exact.length > 0) {
    const cmd = exact[0]!.words.join(' ');
    const needs = exact[0]!.text
      .split('\n')[0]!
      .trim()
      .split(/\s+/)
      .slice(exact[0]!.words.length)
      .filter((t) => /^[A-Z][A-Z0-9_.,…-]*$/.test(t));
    // Words past the command are its arguments (cli.ts passes them for remote and clients): more
    // than it takes is the problem then, and "needs NAME" would be untrue (remote update a b).
    const given = words.slice(exact[0]!.words.length);
    const problem =
      needs.length > 0 && given.length > needs.length
        ? `takes ${needs.join(' ')}, not ${given.map((g) => JSON.stringify(g)).join(' ')}`
        : `needs ${needs.length ? needs.join(' ') : 'more arguments'}`;
    return `"airlock ${cmd}" ${problem}.\n\n${exact.map((e) => e.text).join('\n')}\n${examplesOf(exact, examples)}`;
  }
  if (second === undefined)
    return `"airlock ${first}" needs a subcommand: ${subs.join(', ')}. See "airlock ${first} --help".`;
  return `unknown command "${first} ${second}".${didYouMean(second, subs, `${first} `)} Subcommands of ${first}: ${subs.join(', ')}.`;
}

/** The positionals before the first flag: the command path a --help refers to. */
export function commandWords(argv: string[]): string[] {
  const words: string[] = [];
  for (const a of argv) {
    if (a.startsWith('-')) break;
    words.push(a);
  }
  return words;
}
