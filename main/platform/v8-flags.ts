/**
 * What the process was started with, as V8 reads a flag's name: one or two leading dashes, and
 * `_` and `-` alike, and a negation with or without a dash after its "no" (V8's flags.cc,
 * `NormalizeChar` and its argument parser). Read by tier-up.ts and young-generation.ts, which must not override a user's
 * own choice, and by serve.ts, which under frozen flags starts no young-generation cap.
 */

/** A flag's name as V8 reads it (`--a-b` for `-a_b=1`); '' for what is not a flag. */
export function flagName(arg: string): string {
  const m = /^--?([^=]+)/.exec(arg);
  if (!m) return '';
  const name = m[1]!.replaceAll('_', '-');
  // V8's negation: a leading "no", then one optional `-` or `_` (flags.cc, `SplitArgument`), so
  // `--noopt` turns optimization off as `--no-opt` does; read both as `--no-opt`.
  return name.startsWith('no') ? `--no-${name.slice(name.startsWith('no-') ? 3 : 2)}` : `--${name}`;
}

/**
 * The process's own flags: the command line's, and NODE_OPTIONS' (which Node applies without
 * listing them in process.execArgv; doc/api/cli.md, "NODE_OPTIONS").
 */
export function startFlags(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS,
): string[] {
  return [...execArgv, ...(nodeOptions ?? '').split(/\s+/).filter(Boolean)];
}

/** Was the process started with any of these flags (names as `--a-b`)? */
export function startedWith(names: readonly string[], flags: readonly string[]): boolean {
  return flags.some((f) => names.includes(flagName(f)));
}

/**
 * `--freeze-flags-after-init` makes every later `v8.setFlagsFromString` end the process
 * (V8: "Check failed: !IsFrozen()"), so nothing may set a flag at run time under it.
 */
export const FREEZES_FLAGS = '--freeze-flags-after-init';
