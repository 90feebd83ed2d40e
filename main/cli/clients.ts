import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type {
  ClientId,
  ConnectResult,
  ImportItem,
  ImportResult,
} from '../../common/contract/index.js';
import { CLIENT_IDS, ControlError } from '../../common/contract/index.js';
import { withControl } from './context.js';
import { didYouMean } from './suggest.js';
import { out } from './terminal.js';
import { CLIENTS_USAGE } from './usage.js';

const OPTIONS = {
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  'remove-imported': { type: 'boolean' },
  project: { type: 'string' },
} as const;

function clientId(raw: string): ClientId {
  if ((CLIENT_IDS as readonly string[]).includes(raw)) return raw as ClientId;
  throw new ControlError(
    'INVALID',
    `Unknown client "${raw}".${didYouMean(raw, CLIENT_IDS)} Use one of: ${CLIENT_IDS.join(', ')}.`,
  );
}

/** `airlock clients …` (issue 15). */
export async function clientsCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  const [sub, ...rest] = positionals;
  const dataDir = v['data-dir'];
  const projectDir = v.project === undefined ? undefined : resolve(v.project);
  const project = projectDir ? { projectDir } : {};
  switch (sub) {
    case 'list':
      return withControl(dataDir, async ({ api }) => {
        const clients = await api.listClients(projectDir);
        if (v.json) return (out(JSON.stringify(clients)), 0);
        for (const c of clients) {
          const state = c.connected
            ? 'connected'
            : c.stale
              ? `stale: ${c.stale}`
              : c.installed
                ? 'installed'
                : 'not found';
          out(`${c.id}\t${c.label}\t${state}`);
          for (const f of c.files)
            out(
              `  ${f.path}\t${f.error ? `error: ${f.error}` : f.exists ? `${f.servers} server${f.servers === 1 ? '' : 's'}` : 'no file'}`,
            );
        }
        return 0;
      });
    case 'import': {
      const clients = rest.map(clientId);
      return withControl(dataDir, async ({ api }) => {
        const r = await api.importClients({
          ...(clients.length ? { clients } : {}),
          dryRun: v['dry-run'] === true,
          ...project,
        });
        if (v.json) out(JSON.stringify(r));
        else printImport(r);
        return Object.keys(r.failed).length ? 1 : 0;
      });
    }
    case 'connect': {
      if (rest.length !== 1) break;
      const id = clientId(rest[0]!);
      return withControl(dataDir, async ({ api }) => {
        const r = await api.connectClient(id, {
          dryRun: v['dry-run'] === true,
          removeImported: v['remove-imported'] === true,
          ...project,
        });
        if (v.json) out(JSON.stringify(r));
        else printConnect(r);
        return 0;
      });
    }
  }
  throw new ControlError('INVALID', `usage:\n${CLIENTS_USAGE}`);
}

function printImport(r: ImportResult): void {
  if (r.items.length === 0) {
    out('No servers found in the clients’ config files.');
    return;
  }
  const verb = r.dryRun ? 'would add' : 'added';
  for (const i of r.items) out(line(i, verb));
  if (r.dryRun) out('\nDry run: nothing was changed. Run again without --dry-run to import.');
  else out(`\nImported ${r.added.length} server${r.added.length === 1 ? '' : 's'}.`);
  for (const [name, why] of Object.entries(r.failed)) out(`  ${name}: ${why}`);
}

function line(i: ImportItem, verb: string): string {
  const what =
    i.action === 'add'
      ? `${verb} as "${i.as}"${i.secretNames.length ? ` (to the keychain: ${i.secretNames.join(', ')})` : ''}`
      : `skipped: ${i.reason ?? ''}`;
  const warn = i.warnings.map((w) => `\n    note: ${w}`).join('');
  return `${i.client}\t${i.name}\t${i.kind}\t${i.summary}\n    ${what}${warn}`;
}

function printConnect(r: ConnectResult): void {
  const would = r.dryRun ? 'would be ' : '';
  for (const f of r.files) {
    if (!f.changed) {
      if (f.entry) out(`${f.path}: already set up; nothing to change.`);
      continue;
    }
    const parts = [
      f.entry && f.entry !== 'unchanged' ? `Airlock entry ${would}${f.entry}` : '',
      f.removed.length ? `${would}removed: ${f.removed.join(', ')}` : '',
    ].filter(Boolean);
    out(`${f.path}: ${parts.join('; ')}${f.backup ? `\n  backup: ${f.backup}` : ''}`);
  }
  if (r.dryRun) out('Dry run: nothing was written.');
  else out(`${r.client} uses the agent "${r.agent}" at ${r.url}. ${r.note}`);
}
