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

/**
 * The help for `words` (the positionals before --help). Tries the longest
 * prefix that names a command: `agent add "Claude Code" --help` is `agent add`.
 */
export function helpFor(words: string[], usage: string, footer: string): string | null {
  const entries = usageEntries(usage);
  for (let n = words.length; n > 0; n--) {
    const want = words.slice(0, n);
    const hits = entries.filter(
      (e) => e.words.length >= n && want.every((w, i) => e.words[i] === w),
    );
    if (hits.length > 0)
      return `Usage: airlock ${hits.length === 1 ? hits[0]!.words.join(' ') + ' …' : want.join(' ') + ' <subcommand>'}\n\n${hits.map((h) => h.text).join('\n')}\n\n${footer}`;
  }
  return null;
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
