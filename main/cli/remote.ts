import { parseArgs } from 'node:util';
import type { RemoteView } from '../../preload/api.js';
import { ControlError } from '../../preload/api.js';
import { appVersion } from '../core/version.js';
import { probeRemote } from '../remote/probe.js';
import { parseHeaderArg, validateHeaders, validateRemoteUrl, validateToken } from '../remote/validate.js';
import { withControl } from './context.js';

export const REMOTE_USAGE = `  remote add NAME URL [--header 'K: V']... [--bearer-stdin]   add a remote MCP server (token read from stdin)
  remote list [--json]                     remote servers and their state
  remote remove NAME                       remove a server and its stored credentials
  remote refresh [NAME]                    reconnect and re-read tools now
  remote probe URL [--header 'K: V']... [--bearer-stdin] [--call TOOL [--args JSON]] [--timeout S] [--json]
                                           connect without saving, list (and call) tools; exit 1 on failure
`;

const OPTIONS = {
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  header: { type: 'string', multiple: true },
  'bearer-stdin': { type: 'boolean' },
  call: { type: 'string' },
  args: { type: 'string' },
  timeout: { type: 'string' },
} as const;

const out = (line: string) => process.stdout.write(line + '\n');

/** `airlock remote …` (issue 4). Returns the exit code; throws for the caller to print. */
export async function remoteCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [sub, a, b] = positionals;
  const dataDir = v['data-dir'];
  switch (sub) {
    case 'add': {
      if (!a || !b) break;
      const headers = headersFrom(v.header);
      const bearerToken = v['bearer-stdin'] ? validateToken(await readStdin()) : undefined;
      return withControl(dataDir, async ({ api }) => {
        const view = await api.addRemote({ name: a, url: b, headers, ...(bearerToken ? { bearerToken } : {}) });
        if (v.json) out(JSON.stringify(view));
        else out(`Added "${view.name}".\n${formatRemote(view)}`);
        return 0;
      });
    }
    case 'list':
      return withControl(dataDir, async ({ api }) => {
        const remotes = await api.listRemotes();
        if (v.json) out(JSON.stringify(remotes));
        else if (remotes.length === 0) out('No remote servers. Add one with: airlock remote add NAME URL');
        else for (const r of remotes) out(formatRemote(r));
        return 0;
      });
    case 'remove':
      if (!a) break;
      return withControl(dataDir, async ({ api }) => {
        await api.removeRemote(a);
        out(`Removed "${a}" and its stored credentials.`);
        return 0;
      });
    case 'refresh':
      return withControl(dataDir, async ({ api }) => {
        const remotes = await api.refreshRemote(a);
        if (v.json) out(JSON.stringify(remotes));
        else for (const r of remotes) out(formatRemote(r));
        return remotes.every((r) => r.state !== 'error') ? 0 : 1;
      });
    case 'probe':
      if (!a) break;
      return probe(a, v);
  }
  throw new ControlError('INVALID', `usage:\n${REMOTE_USAGE}`);
}

async function probe(rawUrl: string, v: { header?: string[]; 'bearer-stdin'?: boolean; call?: string; args?: string; timeout?: string; json?: boolean }): Promise<number> {
  const url = validateRemoteUrl(rawUrl);
  const headers = headersFrom(v.header);
  if (v['bearer-stdin']) headers.Authorization = `Bearer ${validateToken(await readStdin())}`;
  const timeoutS = v.timeout === undefined ? 15 : Number(v.timeout);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0) throw new ControlError('INVALID', '--timeout must be a number of seconds.');
  let args: Record<string, unknown> = {};
  if (v.args !== undefined) {
    try {
      args = JSON.parse(v.args) as Record<string, unknown>;
    } catch {
      throw new ControlError('INVALID', `--args must be a JSON object, got ${JSON.stringify(v.args)}.`);
    }
  }
  const outcome = await probeRemote({
    url,
    headers,
    timeoutMs: timeoutS * 1000,
    version: appVersion(),
    ...(v.call ? { call: { name: v.call, arguments: args } } : {}),
  });
  if (v.json) {
    out(JSON.stringify(outcome));
    return outcome.ok ? 0 : 1;
  }
  if (outcome.transport) {
    const who = outcome.server ? `${outcome.server.name} ${outcome.server.version}` : 'the server';
    out(`Connected to ${who} at ${url.href} over ${outcome.transport}, protocol ${outcome.protocolVersion ?? 'unknown'}.`);
  }
  if (outcome.ok || outcome.tools.length) {
    out(`${outcome.tools.length} tool${outcome.tools.length === 1 ? '' : 's'}:`);
    for (const t of outcome.tools) out(`  ${t.name}${t.readOnlyHint ? '  (read-only hint)' : ''}  ${t.description.split('\n')[0]?.slice(0, 100) ?? ''}`);
  }
  if (outcome.callResult) {
    out(`${v.call} →${outcome.callResult.isError ? ' (error)' : ''}`);
    for (const c of outcome.callResult.content ?? []) out(c.type === 'text' ? `  ${c.text}` : `  [${c.type}]`);
  }
  if (!outcome.ok) process.stderr.write(`airlock: probe failed: ${outcome.detail ?? 'unknown error'}\n`);
  return outcome.ok ? 0 : 1;
}

function headersFrom(list: string[] | undefined): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const h of list ?? []) {
    const [k, val] = parseHeaderArg(h);
    raw[k] = val;
  }
  return validateHeaders(raw);
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Paste the bearer token, then press Enter and Ctrl-D: ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

function formatRemote(r: RemoteView): string {
  const state = r.state === 'error' ? `error: ${r.detail ?? ''}` : r.state;
  const extras = [r.hasToken ? 'token' : '', r.headerNames.length ? `headers: ${r.headerNames.join(', ')}` : ''].filter(Boolean).join('; ');
  return `${r.name}\t${r.url}\t${state}\t${r.toolCount} tools${extras ? `\t(${extras})` : ''}`;
}
