import { existsSync, readFileSync } from 'node:fs';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import type { ConfigSource } from './client-defs.js';

/** A client's config file as read: its text (for editing) and its parsed value. */
export interface ReadFile {
  source: ConfigSource;
  exists: boolean;
  text: string;
  data: Record<string, unknown>;
  error?: string;
}

export function readSource(source: ConfigSource): ReadFile {
  if (!existsSync(source.path)) return { source, exists: false, text: '', data: {} };
  let text: string;
  try {
    text = readFileSync(source.path, 'utf8');
  } catch (err) {
    return { source, exists: true, text: '', data: {}, error: (err as Error).message };
  }
  const parsed = parseText(text, source.format);
  return { source, exists: true, text, ...parsed };
}

export const BOM = '\uFEFF';

export function parseText(
  withBom: string,
  format: 'json' | 'toml',
): { data: Record<string, unknown>; error?: string } {
  // Editors on Windows may save a byte-order mark; the apps read past it, so does Airlock.
  const text = withBom.startsWith(BOM) ? withBom.slice(1) : withBom;
  if (text.trim() === '') return { data: {} };
  if (format === 'toml') {
    try {
      return { data: parseToml(text) as Record<string, unknown> };
    } catch (err) {
      return { data: {}, error: `not valid TOML: ${(err as Error).message.split('\n')[0]}` };
    }
  }
  const errors: ParseError[] = [];
  // Clients accept comments and trailing commas (VS Code's files are JSONC); so does the reader.
  const data = parseJsonc(text, errors, {
    allowTrailingComma: true,
    disallowComments: false,
  }) as unknown;
  if (errors.length) {
    const e = errors[0]!;
    const line = text.slice(0, e.offset).split('\n').length;
    return { data: {}, error: `not valid JSON (${printParseErrorCode(e.error)} on line ${line})` };
  }
  return { data: isObject(data) ? data : {} };
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The servers object at `keyPath` (empty when absent or not an object). */
export function serversAt(
  data: Record<string, unknown>,
  keyPath: string[],
): Record<string, unknown> {
  let v: unknown = data;
  for (const k of keyPath) {
    if (!isObject(v)) return {};
    v = v[k];
  }
  return isObject(v) ? v : {};
}

/** One server entry of a client's config, in Airlock's terms. */
export interface ClientServer {
  name: string;
  kind: 'stdio' | 'url';
  command?: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  disabled: boolean;
  warnings: string[];
}

const PLACEHOLDER = /\$\{[^}]+\}/;

/**
 * Reads an entry of any of the clients' formats: `command`/`args`/`env`/`cwd`
 * (stdio; Zed's older `command: { path, args, env }` too), `url` (Cursor, Claude
 * Code, VS Code, Codex, Zed, Cline), `serverUrl` (Windsurf, Antigravity) or
 * `httpUrl` (Gemini CLI) with `headers` (`http_headers` in Codex). Whatever
 * Airlock cannot carry over becomes a warning, never a silent loss.
 */
export function normalizeEntry(name: string, raw: unknown): ClientServer | null {
  if (!isObject(raw)) return null;
  const warnings: string[] = [];
  const strings = (v: unknown, what: string): Record<string, string> => {
    if (!isObject(v)) return {};
    const out: Record<string, string> = {};
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'string') out[k] = x;
      else if (typeof x === 'number' || typeof x === 'boolean') out[k] = String(x);
      else warnings.push(`${what} ${k} is not a string; left out`);
    }
    return out;
  };
  const disabled = raw.disabled === true || raw.enabled === false;
  const url = [raw.url, raw.serverUrl, raw.httpUrl].find((u) => typeof u === 'string') as
    string | undefined;
  if (typeof raw.envFile === 'string')
    warnings.push('envFile is not imported; add those variables by hand');
  if (typeof raw.bearer_token_env_var === 'string')
    warnings.push(
      `its token comes from the environment variable ${raw.bearer_token_env_var}; give Airlock the token with "airlock remote update" or the Servers page`,
    );
  if (isObject(raw.env_http_headers))
    warnings.push('env_http_headers are not imported; add those headers by hand');
  if (Array.isArray(raw.env_vars))
    warnings.push('env_vars (passed-through variables) are not imported');
  if (url !== undefined && raw.type !== 'stdio') {
    const headers = strings(raw.headers ?? raw.http_headers, 'header');
    const s: ClientServer = { name, kind: 'url', url, headers, disabled, warnings };
    if (PLACEHOLDER.test(url) || Object.values(headers).some((v) => PLACEHOLDER.test(v)))
      warnings.push('contains ${…} placeholders the client expands; Airlock keeps them as written');
    return s;
  }
  // Zed's older settings nest the command: "command": { "path", "args", "env" }.
  const cmd = isObject(raw.command) ? raw.command : raw;
  const command = isObject(raw.command) ? raw.command.path : raw.command;
  if (typeof command !== 'string' || command === '') return null;
  const rawArgs = cmd.args;
  const args = Array.isArray(rawArgs)
    ? rawArgs.filter((a): a is string => typeof a === 'string')
    : [];
  if (Array.isArray(rawArgs) && args.length !== rawArgs.length)
    warnings.push('non-string args left out');
  const env = strings(cmd.env, 'env');
  const s: ClientServer = {
    name,
    kind: 'stdio',
    command,
    args,
    env,
    disabled,
    warnings,
  };
  if (typeof raw.cwd === 'string' && raw.cwd) s.cwd = raw.cwd;
  if ([command, ...args, ...Object.values(env), s.cwd ?? ''].some((v) => PLACEHOLDER.test(v)))
    warnings.push('contains ${…} placeholders the client expands; Airlock keeps them as written');
  return s;
}
