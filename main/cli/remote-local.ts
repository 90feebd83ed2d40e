import type { RemoteView, StdioInput } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import { sandboxSummary } from './remote-sandbox.js';

/**
 * `airlock remote add NAME --command CMD [--arg A]... [--cwd DIR] [--env K=V]... [--secret-env K]...`
 * or `airlock remote add NAME [--cwd DIR] [--env K=V]... [--secret-env K]... -- CMD ARG...`
 * (issue 15). The command is an argv, never parsed by a shell. A secret
 * variable's value comes from the CLI's own environment variable of that name,
 * never from the command line, where `ps` and shell history would show it.
 */
export const LOCAL_OPTIONS = {
  command: { type: 'string' },
  arg: { type: 'string', multiple: true },
  cwd: { type: 'string' },
  env: { type: 'string', multiple: true },
  'secret-env': { type: 'string', multiple: true },
} as const;

export interface LocalFlags {
  command?: string;
  arg?: string[];
  cwd?: string;
  env?: string[];
  'secret-env'?: string[];
}

/**
 * `--arg -y` as two words: node's parseArgs refuses a value that starts with
 * a dash (it looks like a flag), but `--arg` always takes the next word.
 * Joined as `--arg=-y` before parsing; nothing after `--` is touched.
 */
export function joinArgValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i]!;
    if (w === '--') return [...out, ...argv.slice(i)];
    if (w === '--arg' && i + 1 < argv.length) out.push(`--arg=${argv[++i]!}`);
    else out.push(w);
  }
  return out;
}

/** True when `add` describes a local server. */
export function isLocalAdd(v: LocalFlags, afterDashDash: string[]): boolean {
  return v.command !== undefined || afterDashDash.length > 0;
}

export function stdioFromFlags(
  v: LocalFlags,
  afterDashDash: string[],
  from: NodeJS.ProcessEnv = process.env,
): StdioInput {
  if (v.command !== undefined && afterDashDash.length > 0)
    throw new ControlError(
      'INVALID',
      'Give the command either with --command/--arg or after "--", not both.',
    );
  const [command, ...args] =
    v.command !== undefined ? [v.command, ...(v.arg ?? [])] : afterDashDash;
  if (v.command === undefined && v.arg?.length)
    throw new ControlError('INVALID', '--arg needs --command (or put the arguments after "--").');
  const env: Record<string, string> = {};
  for (const kv of v.env ?? []) {
    const eq = kv.indexOf('=');
    if (eq <= 0)
      throw new ControlError('INVALID', `--env expects NAME=value, got ${JSON.stringify(kv)}.`);
    env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  const secretEnv: Record<string, string> = {};
  for (const name of v['secret-env'] ?? []) {
    const value = from[name];
    if (value === undefined || value === '')
      throw new ControlError(
        'INVALID',
        `--secret-env ${name}: set ${name} in this shell first (e.g. read -s ${name}; export ${name}); ` +
          'Airlock reads the value from there so that it never appears on the command line.',
      );
    secretEnv[name] = value;
  }
  return {
    command: command ?? '',
    args,
    ...(v.cwd !== undefined ? { cwd: v.cwd } : {}),
    env,
    ...(Object.keys(secretEnv).length ? { secretEnv } : {}),
  };
}

/** The "where" column of `remote list`: the URL, or the command line of a local server. */
export function whereOf(r: RemoteView): string {
  if (!r.stdio) return r.url;
  return [r.stdio.command, ...r.stdio.args]
    .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a)))
    .join(' ');
}

/** Process facts for `remote list`: pid, restarts, how the last one ended. */
export function processExtras(r: RemoteView): string[] {
  const p = r.process;
  if (!p) return [];
  return [
    p.pid !== undefined ? `pid ${p.pid}` : '',
    p.starts > 1 ? `started ${p.starts} times` : '',
    p.lastExit && r.state !== 'ready' ? `last process ${p.lastExit}` : '',
    r.stdio?.secretEnvNames.length ? `secret env: ${r.stdio.secretEnvNames.join(', ')}` : '',
    r.stdio?.passedEnv ? `from Airlock's env: ${Object.keys(r.stdio.passedEnv).join(', ')}` : '',
    r.origin ? `imported from ${r.origin}` : '',
    sandboxSummary(r),
  ].filter(Boolean);
}
