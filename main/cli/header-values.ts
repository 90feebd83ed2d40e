import { ControlError } from '../../common/contract/index.js';
import { parseHeaderArg, validateHeaders } from '../remote/validate.js';

/**
 * Header values for `airlock remote add|probe` (issue 17, item 8). A value on
 * the command line is visible to every process on the machine (`ps`, /proc),
 * so `--header 'K: V'` is refused; values come from the environment
 * (`--header-env K=VAR`) or from stdin (`--headers-stdin`, one `K: V` a line).
 */
export interface HeaderOptions {
  header?: string[];
  'header-env'?: string[];
  'headers-stdin'?: boolean;
  'bearer-stdin'?: boolean;
}

export async function headerValues(
  v: HeaderOptions,
  readStdin: (prompt: string) => Promise<string>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, string>> {
  if (v.header?.length) {
    const name = v.header[0]!.split(':')[0]!.trim() || 'NAME';
    throw new ControlError(
      'INVALID',
      `--header puts the value on the command line, where other processes can read it (ps). ` +
        `Use --header-env '${name}=ENV_VAR' (the value in an environment variable) or ` +
        `--headers-stdin (lines "${name}: value" on standard input).`,
    );
  }
  const raw: Record<string, string> = {};
  for (const spec of v['header-env'] ?? []) {
    const eq = spec.indexOf('=');
    const name = eq > 0 ? spec.slice(0, eq).trim() : '';
    const variable = eq > 0 ? spec.slice(eq + 1).trim() : '';
    if (!name || !variable)
      throw new ControlError(
        'INVALID',
        `--header-env expects NAME=ENV_VAR, got ${JSON.stringify(spec)}.`,
      );
    const value = env[variable];
    if (value === undefined || value === '')
      throw new ControlError(
        'INVALID',
        `--header-env ${name}=${variable}: ${variable} is empty or not set.`,
      );
    raw[name] = value;
  }
  if (v['headers-stdin']) {
    if (v['bearer-stdin'])
      throw new ControlError(
        'INVALID',
        '--headers-stdin and --bearer-stdin both read standard input: pass the token as a line ' +
          '"Authorization: Bearer …" with --headers-stdin, or the headers with --header-env.',
      );
    const text = await readStdin('Paste the headers, one "Name: value" a line');
    for (const line of text.split(/\r?\n/)) {
      if (line.trim() === '') continue;
      const [k, val] = parseHeaderArg(line);
      raw[k] = val;
    }
  }
  return validateHeaders(raw);
}
