import type { StdioInput, RemoteView } from '../../../../common/contract';

/** One environment variable row of the "local server" form; `secret` values go to the keychain. */
export interface EnvRow {
  name: string;
  value: string;
  secret: boolean;
}

/**
 * The form's fields as a StdioInput: arguments one per line (so a path with
 * spaces stays one argument — Airlock never splits a command line the way a
 * shell would), blank lines dropped.
 */
export function stdioFrom(
  command: string,
  argsText: string,
  cwd: string,
  rows: EnvRow[],
): { ok: true; stdio: StdioInput } | { ok: false; error: string } {
  if (!command.trim())
    return { ok: false, error: 'Type the program to run, such as npx, uvx or a full path.' };
  const args = argsText
    .split(/\r?\n/)
    .map((a) => a.trim())
    .filter((a) => a !== '');
  const env: Record<string, string> = {};
  const secretEnv: Record<string, string> = {};
  for (const [i, r] of rows.entries()) {
    const name = r.name.trim();
    if (!name && !r.value) continue;
    if (!name) return { ok: false, error: `Variable ${i + 1} has a value but no name.` };
    if (name in env || name in secretEnv)
      return { ok: false, error: `Variable ${name} is given twice.` };
    (r.secret ? secretEnv : env)[name] = r.value;
  }
  return {
    ok: true,
    stdio: {
      command: command.trim(),
      args,
      ...(cwd.trim() ? { cwd: cwd.trim() } : {}),
      env,
      ...(Object.keys(secretEnv).length ? { secretEnv } : {}),
    },
  };
}

/** The command line as one readable string (display only; never run). */
export function commandLine(s: Pick<NonNullable<RemoteView['stdio']>, 'command' | 'args'>): string {
  return [s.command, ...s.args]
    .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a)))
    .join(' ');
}

/** "pid 123 · started 3 times · last: exited with code 1". */
export function processText(r: RemoteView): string {
  const p = r.process;
  if (!p) return '';
  return [
    p.pid !== undefined ? `pid ${p.pid}` : 'not running',
    p.starts > 1 ? `started ${p.starts} times` : '',
    p.lastExit && r.state !== 'ready' ? `last process ${p.lastExit}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}
