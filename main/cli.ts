import { parseArgs } from 'node:util';
import { ControlError } from '../common/contract/index.js';
import { serve } from './cli/serve.js';
import { CLIENTS_USAGE, GOOGLE_USAGE, REMOTE_USAGE } from './cli/usage.js';
import { isVaultError } from './platform/vault/vault.js';
import { parseVaultChoice } from './platform/vault/select.js';
import { appVersion } from './platform/version.js';
import { EXAMPLES } from './cli/examples.js';
import { commandWords, helpFor, usageEntries, whatIsWrong } from './cli/help.js';
import { didYouMean } from './cli/suggest.js';
import { quietWhenReaderCloses } from './cli/closed-stdout.js';
import type { ToolSource } from './tools/types.js';
import type { YoungGenerationOptions } from './platform/young-generation.js';

export const COMMANDS = `  serve [--port N] [--data-dir DIR] [--vault keychain|file]
                                           run the gateway headless (approvals in the browser)
  status [--json] [--show-control-url]     is Airlock running, where, and which vault holds secrets
                                           (--show-control-url: also the control page's URL, token included)
  open [--no-browser]                      print the control page's URL (it carries the token) and open it
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
airlock --version (or -v) prints the version.
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
  'show-control-url': { type: 'boolean' },
  'no-browser': { type: 'boolean' },
} as const;

/** Every --flag any command's usage names: what "did you mean" picks an unknown option from. */
const FLAGS = [...new Set([...(COMMANDS + FOOTER).matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]))];

/**
 * node:util parseArgs errors, said for people (issue 29.7): an unknown option with the closest
 * known one, a missing value; the raw parser text otherwise.
 */
function parseProblem(err: unknown, words: string[]): string | null {
  const e = err as { code?: string; message?: string };
  if (!e.code?.startsWith('ERR_PARSE_ARGS')) return null;
  const see = words.length ? ` See "airlock ${words.join(' ')} --help".` : ' See "airlock help".';
  const opt = /'(-{1,2}[^' ]+)/.exec(e.message ?? '')?.[1] ?? '';
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return `unknown option ${opt}.${opt.startsWith('--') ? didYouMean(opt, FLAGS) : ''}${see}`;
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `${opt} needs a value.${see}`;
  return `${e.message ?? String(err)}${see}`;
}

/**
 * What a test's own entry passes in (test-support/airlock-test-cli.mjs): `airlock` itself never
 * loads code named by the environment (issue 31); bin/airlock.js passes nothing.
 */
// Every other command loads its module when run: `airlock serve` (and so its cold start, issue 34)
// does not load the remote, clients, Google and vault commands, nor the packages they import.
const commands = () => import('./cli/commands.js');
const remoteCommand = async (a: string[]) => (await import('./cli/remote.js')).remoteCommand(a);
const clientsCommand = async (a: string[]) => (await import('./cli/clients.js')).clientsCommand(a);
const googleCommand = async (a: string[]) => (await import('./cli/google.js')).googleCommand(a);

export interface CliInjections {
  /** Extra tool sources for `serve` (the e2e suite's counting and blocking tools). */
  sources?: ToolSource[];
  /**
   * `serve`'s young-generation cap and old-generation hold (main/platform/young-generation.ts),
   * or false for neither: the memory/CPU trade-off bench's variants (bench-memory-tradeoff.mjs).
   */
  youngGeneration?: YoungGenerationOptions | false;
}

export async function main(argv: string[], inject: CliInjections = {}): Promise<number> {
  quietWhenReaderCloses();
  if (['--version', '-V', '-v', 'version'].includes(argv[0] ?? '')) {
    process.stdout.write(`airlock ${appVersion()}\n`);
    return 0;
  }
  const google = argv[0] === 'google' || (argv[0] === 'connect' && argv[1] === 'google');
  // `google` prints its own help: the whole Google story, connect included (issue 18.6).
  if (argv[0] === 'help' && (argv[1] === '--help' || argv[1] === '-h')) return help(['help']);
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
    let choice;
    try {
      choice = parseVaultChoice(value);
    } catch (err) {
      process.stderr.write(`airlock: ${(err as Error).message}\n`);
      return 2;
    }
    // The commands that talk to a profile read it from cli/context.ts, loaded only here and by
    // them: `serve` (which takes --vault as an option below) starts without it (issue 34).
    (await import('./cli/context.js')).setCliVaultChoice(choice);
    // remote/google parse their own flags and do not know --vault.
    if (['remote', 'clients', 'google', 'connect'].includes(argv[0] ?? ''))
      argv = argv.filter(
        (_, i) => i !== vaultFlag && (argv[vaultFlag]!.includes('=') || i !== vaultFlag + 1),
      );
  }
  // `remote` and `clients` parse their own flags; a missing or mistyped subcommand is said here.
  if (argv[0] === 'remote' || argv[0] === 'clients') {
    const subs = usageEntries(COMMANDS)
      .filter((e) => e.words[0] === argv[0])
      .map((e) => e.words[1]);
    if (!subs.includes(argv[1])) {
      const words = [argv[0], ...(argv[1] && !argv[1].startsWith('-') ? [argv[1]] : [])];
      process.stderr.write(`airlock: ${whatIsWrong(words, COMMANDS, EXAMPLES, didYouMean)}\n`);
      return 2;
    }
  }
  if (argv[0] === 'remote') return run(() => remoteCommand(argv.slice(1)), commandWords(argv));
  if (argv[0] === 'clients') return run(() => clientsCommand(argv.slice(1)), commandWords(argv));
  if (argv[0] === 'google' || (argv[0] === 'connect' && argv[1] === 'google'))
    return run(() => googleCommand(argv));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    const why = parseProblem(err, commandWords(argv));
    process.stderr.write(`airlock: ${why ?? (err as Error).message}\n${why ? '' : `\n${USAGE}`}`);
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
          ...(inject.youngGeneration !== undefined
            ? { youngGeneration: inject.youngGeneration }
            : {}),
        });
      }
      case 'status':
        return await (
          await commands()
        ).status({
          ...common,
          ...(v['show-control-url'] ? { showControlUrl: true } : {}),
        });
      case 'open':
        return await (
          await import('./cli/open.js')
        ).openCommand({
          ...(dataDir ? { dataDir } : {}),
          ...(v['no-browser'] ? { noBrowser: true } : {}),
        });
      case 'agent':
        if (sub === 'add' && arg) return await (await commands()).agentAdd(arg, common);
        if (sub === 'list') return await (await commands()).agentList(common);
        if (sub === 'revoke' && arg) return await (await commands()).agentRevoke(arg, common);
        if (sub === 'tools' && arg)
          return await (
            await commands()
          ).agentTools(arg, {
            ...common,
            ...(v.only ? { only: v.only } : {}),
            ...(v.all ? { all: true } : {}),
          });
        break;
      case 'tools':
        if (sub === 'list')
          return await (
            await commands()
          ).toolsList({ ...common, ...(v.agent ? { agent: v.agent } : {}) });
        if (sub === 'set' && arg) {
          return await (
            await commands()
          ).toolsSet(arg, {
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
          return await (
            await import('./cli/vault.js')
          ).vaultMigrate({
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
  const words = [command, sub].filter((w): w is string => Boolean(w));
  process.stderr.write(`airlock: ${whatIsWrong(words, COMMANDS, EXAMPLES, didYouMean)}\n`);
  return 2;
}

function help(words: string[]): number {
  if (words.length === 0) {
    process.stdout.write(USAGE);
    return 0;
  }
  const text = helpFor(words, COMMANDS, FOOTER, EXAMPLES);
  if (text) {
    process.stdout.write(text);
    return 0;
  }
  process.stderr.write(`airlock: ${whatIsWrong(words, COMMANDS, EXAMPLES, didYouMean)}\n`);
  return 2;
}

async function run(fn: () => Promise<number>, words: string[] = []): Promise<number> {
  try {
    return await fn();
  } catch (err) {
    const why = parseProblem(err, words);
    if (why) {
      process.stderr.write(`airlock: ${why}\n`);
      return 2;
    }
    // `remote` and `clients` answer an argument count they cannot use with their whole group's
    // usage (30 lines for remote); say which command wants what, with its example, as every other
    // command does (README: "a missing argument says which").
    if (
      err instanceof ControlError &&
      err.code === 'INVALID' &&
      err.message.startsWith('usage:') &&
      words.length >= 2
    ) {
      process.stderr.write(`airlock: ${whatIsWrong(words, COMMANDS, EXAMPLES, didYouMean)}\n`);
      return 2;
    }
    const code = err instanceof ControlError || isVaultError(err) ? `${err.code}: ` : '';
    process.stderr.write(`airlock: ${code}${err instanceof Error ? err.message : String(err)}\n`);
    return err instanceof ControlError && err.code === 'INVALID' ? 2 : 1;
  }
}
