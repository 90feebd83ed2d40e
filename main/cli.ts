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
import { parseVaultChoice } from './platform/vault/select.js';
import { appVersion } from './platform/version.js';
import { setCliVaultChoice } from './cli/context.js';
import { commandWords, helpFor } from './cli/help.js';
import { vaultMigrate } from './cli/vault.js';
import type { ToolSource } from './tools/types.js';

const COMMANDS = `  serve [--port N] [--data-dir DIR] [--vault keychain|file]
                                           run the gateway headless (approvals in the browser)
  status [--json]                          is Airlock running, where, and which vault holds secrets
  agent add NAME [--json]                  create an agent token and print client setup
  agent list [--json]                      list agents
  agent revoke NAME                        revoke an agent's token at once
  agent tools NAME --only T1,T2 | --all    limit an agent to some tools, or lift the limit
  tools list [--agent NAME] [--json]       tools with their approval policy
  tools set NAME [--approval auto|ask] [--enabled true|false] [--agent NAME] [--confirm-destructive]
                                           change a tool's policy (for everyone, or one agent)
  vault migrate --to file|keychain         move every secret between the OS keychain and the file vault
${REMOTE_USAGE}${CLIENTS_USAGE}${GOOGLE_USAGE}  help [COMMAND…]                          this text, or one command's (also: airlock COMMAND --help)
`;

const FOOTER = `Every command takes --data-dir DIR (or AIRLOCK_DATA_DIR); the default is the per-OS app-data folder.
Secrets live in the OS keychain; where there is none, in an encrypted file vault (--vault file or
AIRLOCK_VAULT=file forces it; key: AIRLOCK_VAULT_PASSPHRASE or an owner-only key file).
airlock --version prints the version.
`;

const USAGE = `Usage: airlock <command> [options]

${COMMANDS}
${FOOTER}`;

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
  vault: { type: 'string' },
  to: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

/**
 * What a test's own entry passes in (test-support/airlock-test-cli.mjs): `airlock` itself never
 * loads code named by the environment (issue 31); bin/airlock.js passes nothing.
 */
export interface CliInjections {
  /** Extra tool sources for `serve` (the e2e suite's counting and blocking tools). */
  sources?: ToolSource[];
}

export async function main(argv: string[], inject: CliInjections = {}): Promise<number> {
  if (argv[0] === '--version' || argv[0] === '-V' || argv[0] === 'version') {
    process.stdout.write(`airlock ${appVersion()}\n`);
    return 0;
  }
  const google = argv[0] === 'google' || (argv[0] === 'connect' && argv[1] === 'google');
  // `google` prints its own help: the whole Google story, connect included (issue 18.6).
  if (argv[0] === 'help' && argv[1] !== 'google') return help(argv.slice(1));
  if (argv[0] === 'help') return run(() => googleCommand(['google', 'help']));
  // --help anywhere (before a `--`) is help for the command path before it, for every command.
  const end = argv.indexOf('--');
  if (!google && (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h'))
    return help(commandWords(argv));
  const vaultFlag = argv.findIndex((a) => a === '--vault' || a.startsWith('--vault='));
  if (vaultFlag >= 0) {
    const value = argv[vaultFlag]!.includes('=')
      ? argv[vaultFlag]!.split('=')[1]
      : argv[vaultFlag + 1];
    try {
      setCliVaultChoice(parseVaultChoice(value));
    } catch (err) {
      process.stderr.write(`airlock: ${(err as Error).message}\n`);
      return 2;
    }
    // remote/google parse their own flags and do not know --vault.
    if (['remote', 'clients', 'google', 'connect'].includes(argv[0] ?? ''))
      argv = argv.filter(
        (_, i) => i !== vaultFlag && (argv[vaultFlag]!.includes('=') || i !== vaultFlag + 1),
      );
  }
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
  if (!command) {
    process.stderr.write(USAGE);
    return 2;
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
          ...(v.vault ? { vault: parseVaultChoice(v.vault) } : {}),
          ...(inject.sources ? { sources: inject.sources } : {}),
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
      case 'vault':
        if (sub === 'migrate')
          return await vaultMigrate({
            ...(dataDir ? { dataDir } : {}),
            ...(v.to ? { to: v.to } : {}),
          });
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

function help(words: string[]): number {
  if (words.length === 0) {
    process.stdout.write(USAGE);
    return 0;
  }
  const text = helpFor(words, COMMANDS, FOOTER);
  if (text) {
    process.stdout.write(text);
    return 0;
  }
  process.stderr.write(`airlock: no command "${words.join(' ')}"\n\n${USAGE}`);
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
