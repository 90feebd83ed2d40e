import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../cli.js';
import { EXAMPLES } from './examples.js';
import { helpFor, usageEntries, whatIsWrong } from './help.js';
import { didYouMean, editDistance, suggest } from './suggest.js';

/** Issue 29.7: every command explains itself, with an example; near misses get "did you mean". */
describe('CLI help', () => {
  const entries = usageEntries(COMMANDS);

  it('every command in the usage has an example, and each example runs that command', () => {
    const commands = [...new Set(entries.map((e) => e.words.join(' ')))];
    expect(commands.length).toBeGreaterThan(25);
    for (const c of commands) {
      expect(EXAMPLES[c], c).toBeDefined();
      for (const ex of EXAMPLES[c]!) expect(ex.startsWith(`airlock ${c}`), ex).toBe(true);
      expect(helpFor(c.split(' '), COMMANDS, '', EXAMPLES), c).toMatch(
        /\nExamples?:\n {2}airlock /,
      );
    }
    // No example for a command that does not exist.
    for (const k of Object.keys(EXAMPLES)) expect(commands).toContain(k);
  });

  it('a missing argument, a missing or mistyped subcommand, an unknown command', () => {
    const wrong = (w: string[]) => whatIsWrong(w, COMMANDS, EXAMPLES, didYouMean);
    expect(wrong(['agent', 'add'])).toMatch(/^"airlock agent add" needs NAME\./);
    expect(wrong(['agent', 'add'])).toContain('airlock agent add "Claude Code"');
    // One argument too many is said as such, not as a missing one.
    expect(wrong(['remote', 'update', 'linear', 'extra'])).toMatch(
      /^"airlock remote update" takes NAME, not "linear" "extra"\./,
    );
    expect(wrong(['remote', 'add', 'linear'])).toMatch(/^"airlock remote add" needs NAME URL\./);
    expect(wrong(['tools', 'set'])).toMatch(/needs NAME/);
    expect(wrong(['agent'])).toBe(
      '"airlock agent" needs a subcommand: add, list, revoke, tools. See "airlock agent --help".',
    );
    expect(wrong(['agent', 'ad'])).toContain('Did you mean "agent add"?');
    expect(wrong(['stauts'])).toContain('Did you mean "status"?');
    expect(wrong(['clinets'])).toContain('Did you mean "clients"?');
    expect(wrong(['xyzzy'])).toBe('unknown command "xyzzy". Run "airlock help" for the list.');
  });

  it('edit distance counts a swapped pair as one edit; only close words are suggested', () => {
    expect(editDistance('stauts', 'status')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(suggest('--jsn', ['--json', '--port'])).toBe('--json');
    expect(suggest('cur', ['cursor', 'codex'])).toBe('cursor');
    expect(suggest('banana', ['status', 'serve'])).toBeUndefined();
    expect(suggest('gemni', ['gemini', 'zed'])).toBe('gemini');
  });
});
