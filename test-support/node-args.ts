import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/**
 * The Node options a running process was started with: the words of its command line between the
 * executable and the script (the first word ending in `scriptEnd`). Linux: /proc/PID/cmdline (exact
 * words); elsewhere `ps -o args=` (words split on spaces: enough for flags without spaces).
 */
export function nodeOptionsOf(pid: number, scriptEnd: string): string[] {
  const proc = `/proc/${pid}/cmdline`;
  const words = existsSync(proc)
    ? readFileSync(proc, 'utf8').split('\0').filter(Boolean)
    : execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' })
        .trim()
        .split(/\s+/);
  const script = words.findIndex((w) => w.endsWith(scriptEnd));
  if (script < 1)
    throw new Error(`no ${scriptEnd} in the command line of ${pid}: ${words.join(' ')}`);
  return words.slice(1, script);
}
