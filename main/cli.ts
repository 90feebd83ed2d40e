import { parseArgs } from 'node:util';
import { ControlError } from '../common/contract/index.js';
import {
  agentAdd,
  agentList,
  agentRevoke,
  agentTools,
  status,
  toolsList,
  toolsSet,
} from './cli/commands.js';
import { serve } from './cli/serve.js';
import { REMOTE_USAGE, remoteCommand } from './cli/remote.js';
import { GOOGLE_USAGE, googleCommand } from './cli/google.js';
import { CLIENTS_USAGE, clientsCommand } from './cli/clients.js';
import { isVaultError } from './platform/vault/vault.js';

const USAGE = `Usage: airlock <command> [options]

  serve [--port N] [--data-dir DIR]        run the gateway headless (approvals in the browser)
  status [--json]                          is Airlock running, and where
  agent add NAME [--json]                  create an agent token and print client setup
  agent list [--json]                      list agents
  agent revoke NAME                        revoke an agent's token at once
  agent tools NAME --only T1,T2 | --all    limit an agent to some tools, or lift the limit
  tools list [--agent NAME] [--json]       tools with their approval policy
  tools set NAME [--approval auto|ask] [--enabled true|false] [--agent NAME] [--confirm-destructive]
${REMOTE_USAGE}${CLIENTS_USAGE}${GOOGLE_USAGE}
Every command takes --data-dir DIR (or AIRLOCK_DATA_DIR); the default is the per-OS app-data folder.
`;

const OPTIONS = {
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  agent: { type: 'string' },
  approval: { type: 'string' },
  only: { type: 'string' },
  all: { type: 'boolean' },
  enabled: { type: 'string' },
  'confirm-destructive': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

export async function main(argv: string[]): Promise<number> {
  // `remote` parses its own flags (repeatable --header, --bearer-stdin, …); errors print as below.
  if (argv[0] === 'remote') return run(() => remoteCommand(argv.slice(1)));
  if (argv[0] === 'clients') return run(() => clientsCommand(argv.slice(1)));
  if (argv[0] === 'google' || (argv[0] === 'connect' && argv[1] === 'google'))
    return run(() => googleCommand(argv));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    process.stderr.write(`airlock: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const {
    values: v,
    positionals: [command, sub, arg],
  } = parsed;
  const dataDir = v['data-dir'];
  const common = { ...(dataDir ? { dataDir } : {}), ...(v.json ? { json: true } : {}) };
  if (v.help || !command) {
    process.stdout.write(USAGE);
    return v.help ? 0 : 2;
  }
  try {
    switch (command) {
      case 'serve': {
        const port = v.port === undefined ? undefined : Number(v.port);
        if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
          throw new Error('--port must be 0–65535 (0 = any free port).');
        return await serve({
          ...(port !== undefined ? { port } : {}),
          ...(dataDir ? { dataDir } : {}),
        });
      }
      case 'status':
        return await status(common);
      case 'agent':
        if (sub === 'add' && arg) return await agentAdd(arg, common);
        if (sub === 'list') return await agentList(common);
        if (sub === 'revoke' && arg) return await agentRevoke(arg, common);
        if (sub === 'tools' && arg)
          return await agentTools(arg, {
            ...common,
            ...(v.only ? { only: v.only } : {}),
            ...(v.all ? { all: true } : {}),
          });
        break;
      case 'tools':
        if (sub === 'list')
          return await toolsList({ ...common, ...(v.agent ? { agent: v.agent } : {}) });
        if (sub === 'set' && arg) {
          return await toolsSet(arg, {
            ...common,
            ...(v.agent ? { agent: v.agent } : {}),
            ...(v.approval ? { approval: v.approval } : {}),
            ...(v.enabled ? { enabled: v.enabled } : {}),
            ...(v['confirm-destructive'] ? { confirmDestructive: true } : {}),
          });
        }
        break;
    }
  } catch (err) {
    const code = err instanceof ControlError || isVaultError(err) ? `${err.code}: ` : '';
    process.stderr.write(`airlock: ${code}${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  process.stderr.write(
    `airlock: unknown command "${[command, sub].filter(Boolean).join(' ')}"\n\n${USAGE}`,
  );
  return 2;
}

async function run(fn: () => Promise<number>): Promise<number> {
  try {
    return await fn();
  } catch (err) {
    const code = err instanceof ControlError || isVaultError(err) ? `${err.code}: ` : '';
    process.stderr.write(`airlock: ${code}${err instanceof Error ? err.message : String(err)}\n`);
    return err instanceof ControlError && err.code === 'INVALID' ? 2 : 1;
  }
}
