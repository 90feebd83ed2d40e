/**
 * What the process was started with, as V8 reads a flag's name: one or two leading dashes, `_`
 * and `-` alike, and a leading "no" as a negation with or without a `-` or `_` after it (V8's
 * flags.cc, `NormalizeChar` and `SplitArgument`; no V8 flag's name begins with "no"). Node's own
 * options are not V8's: `--node-memory-debug` would read as `--no-de-memory-debug`, so no list
 * here should hold a Node option that begins with "no". Read by tier-up.ts and
 * young-generation.ts, which must not override a user's own choice, and by serve.ts, which under
 * frozen flags starts no young-generation cap.
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
  return [...execArgv, ...nodeOptionsArgs(nodeOptions ?? '')];
}

/**
 * NODE_OPTIONS split as Node splits it (src/node_options.cc, `ParseNodeOptionsEnvVar`): at each
 * space outside double quotes; a `"` only toggles quoting, and inside quotes a backslash takes the
 * next character as it is (`"--max-semi-space-size=2"` is that flag). Node refuses to start on an
 * unterminated quote or a trailing escape, so those never reach here.
 */
export function nodeOptionsArgs(value: string): string[] {
  const args: string[] = [];
  let quoted = false;
  let newArg = true;
  for (let i = 0; i < value.length; i++) {
    let c = value[i]!;
    if (c === '\\' && quoted && i + 1 < value.length) c = value[++i]!;
    else if (c === ' ' && !quoted) {
      newArg = true;
      continue;
    } else if (c === '"') {
      quoted = !quoted;
      continue;
    }
    if (newArg) args.push(c);
    else args[args.length - 1] += c;
    newArg = false;
  }
  return args;
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
