import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type {
  ClientId,
  ClientsApi,
  ClientView,
  ConnectFileChange,
  ConnectOptions,
  ConnectResult,
  ImportOptions,
  ImportResult,
  RemoteInput,
  RemoteView,
} from '../../common/contract/index.js';
import { CLIENT_IDS, ControlError } from '../../common/contract/index.js';
import { writeFileAtomic } from '../platform/atomic-file.js';
import type { Logger } from '../platform/log.js';
import { clientDefs, type ClientDef, type ClientsEnv } from './client-defs.js';
import { AIRLOCK_ENTRY, ClientEditError, editFile } from './clients-edit.js';
import { entryState } from './entry-state.js';
import { airlockName, isAirlockEntry, planImport } from './import-plan.js';
import { normalizeEntry, parseText, readSource, serversAt, type ReadFile } from './read-config.js';

export interface ClientsDeps {
  env: ClientsEnv;
  logger: Logger;
  /** The URL agents use: the one this Airlock's server answers on (issue 29.1). */
  mcpUrl: () => string;
  /** False when no server listens on `mcpUrl` (the CLI's short-lived core); default true. */
  live?: () => boolean;
  /** Whether a token is a current agent token (an entry with a revoked one is stale). */
  isAgentToken?: (token: string) => boolean;
  listServers: () => Promise<RemoteView[]>;
  addServer: (input: RemoteInput) => Promise<RemoteView>;
  /**
   * The token of the agent a client connects as (named after the client),
   * created when missing; with `create: false`, null when there is none yet.
   */
  agentToken: (agent: string, create: boolean) => Promise<string | null>;
  /** The clock a backup's name is stamped with; default the wall clock (tests pass a fixed one). */
  now?: () => Date;
}

/**
 * The clients part of ControlApi (issue 15): reads the six clients' MCP
 * configs, imports their servers, and writes Airlock's entry into them — a
 * backup first, idempotent, comments and formatting kept (clients-edit.ts).
 * It never touches a file of a client the user did not name.
 */
export class ClientsControl implements ClientsApi {
  constructor(private readonly d: ClientsDeps) {}

  private defs(): ClientDef[] {
    return clientDefs(this.d.env);
  }

  private def(id: ClientId): ClientDef {
    const def = this.defs().find((c) => c.id === id);
    if (!def)
      throw new ControlError(
        'INVALID',
        `Unknown client ${JSON.stringify(id)}. Use one of: ${CLIENT_IDS.join(', ')}.`,
      );
    return def;
  }

  async listClients(projectDir?: string): Promise<ClientView[]> {
    const url = this.d.mcpUrl();
    const reach = {
      mcpUrl: url,
      live: this.d.live?.() ?? true,
      ...(this.d.isAgentToken ? { isAgentToken: this.d.isAgentToken } : {}),
    };
    return this.defs().map((def) => {
      const target = readSource(def.target);
      const raw = serversAt(target.data, def.target.keyPath)[AIRLOCK_ENTRY];
      return {
        id: def.id,
        label: def.label,
        installed: existsSync(def.installDir) || target.exists,
        ...entryState(def, raw, reach),
        target: def.target.path,
        files: def.sources(projectDir).map((src) => {
          const f = readSource(src);
          const servers = Object.entries(serversAt(f.data, src.keyPath)).filter(([n, raw]) => {
            const s = normalizeEntry(n, raw);
            return s !== null && !isAirlockEntry(n, s, url);
          }).length;
          return {
            path: src.path,
            scope: src.scope,
            exists: f.exists,
            ...(f.error ? { error: f.error } : {}),
            servers,
          };
        }),
      };
    });
  }

  async importClients(o: ImportOptions = {}): Promise<ImportResult> {
    const ids = o.clients ?? [...CLIENT_IDS];
    const defs = ids.map((id) => this.def(id));
    const items = planImport(defs, await this.d.listServers(), this.d.mcpUrl(), o.projectDir);
    const result: ImportResult = {
      dryRun: o.dryRun === true,
      items: items.map(({ input: _input, ...item }) => item),
      added: [],
      failed: {},
    };
    if (o.dryRun) return result;
    // In parallel: each add waits for its server's first connection (a local one may download first).
    const outcomes = await Promise.allSettled(
      items.flatMap((i) => (i.input ? [this.d.addServer(i.input)] : [])),
    );
    for (const [n, out] of outcomes.entries()) {
      const name = items.filter((i) => i.input)[n]!.as;
      if (out.status === 'rejected') {
        result.failed[name] = (out.reason as Error).message;
        continue;
      }
      result.added.push(name);
      if (out.value.state === 'error') result.failed[name] = out.value.detail ?? 'error';
    }
    this.d.logger.info('servers imported from clients', {
      clients: ids,
      added: result.added.length,
      failed: Object.keys(result.failed).length,
    });
    return result;
  }

  async connectClient(id: ClientId, o: ConnectOptions = {}): Promise<ConnectResult> {
    const def = this.def(id);
    const dryRun = o.dryRun === true;
    if (!existsSync(def.installDir) && !existsSync(def.target.path))
      throw new ControlError(
        'NOT_FOUND',
        `${def.label} does not seem to be installed: ${def.installDir} does not exist. Install it (or create that folder), then connect again.`,
      );
    const agent = def.label;
    const token = (await this.d.agentToken(agent, !dryRun)) ?? '<a new token>';
    const url = this.d.mcpUrl();
    const entry = def.entry(url, token);
    const imported = o.removeImported ? await this.importedFrom(id) : new Set<string>();

    // Files in order; one file may hold several server objects (~/.claude.json: user and project).
    const texts = new Map<string, ReadFile>();
    const changes = new Map<string, ConnectFileChange>();
    const sources = [
      def.target,
      ...def.sources(o.projectDir).filter((s) => !sameSource(s, def.target)),
    ];
    for (const src of sources) {
      const isTarget = sameSource(src, def.target);
      const prev = texts.get(src.path);
      const f: ReadFile = prev ? { ...prev, source: src } : readSource(src);
      if (!isTarget && !f.exists) continue;
      const remove = Object.keys(serversAt(f.data, src.keyPath)).filter((n) =>
        imported.has(airlockName(n)),
      );
      const edit = editFile(f, { ...(isTarget ? { entry } : {}), remove });
      const after = edit.changed
        ? { ...f, text: edit.text, exists: true, ...parseText(edit.text, src.format) }
        : f;
      texts.set(src.path, after);
      const c = changes.get(src.path) ?? { path: src.path, removed: [], changed: false };
      if (edit.entry) c.entry = edit.entry;
      c.removed.push(...edit.removed);
      c.changed ||= edit.changed;
      changes.set(src.path, c);
    }
    if (!dryRun)
      for (const c of changes.values()) {
        if (!c.changed) continue;
        const f = texts.get(c.path)!;
        const backup = this.write(c.path, f.text, c.path === def.target.path);
        if (backup) c.backup = backup;
      }
    this.d.logger.info('client connected', {
      client: id,
      dryRun,
      files: [...changes.values()].filter((c) => c.changed).map((c) => c.path),
    });
    const note =
      (this.d.live?.() ?? true)
        ? def.note
        : `${def.note} Airlock is not running: the entry points at ${url}, where "airlock serve" listens by default; if you start it on another port, connect again.`;
    return { client: id, dryRun, url, agent, files: [...changes.values()], note };
  }

  /** Airlock names of the servers imported from this client. */
  private async importedFrom(id: ClientId): Promise<Set<string>> {
    return new Set((await this.d.listServers()).filter((s) => s.origin === id).map((s) => s.name));
  }

  /**
   * Backup, then an atomic write. The file that gets the entry keeps only the owner's bits of its
   * mode: it now holds the agent's token (and a reconnect's backup the same, stable one), and an
   * app's own 0644 would let every other user of the machine read it and call the gateway, which
   * they reach on 127.0.0.1 too (docs/security.md "Owner-only files"). A project file that only
   * loses imported entries gets no token and keeps its mode (it may be shared). A file linked into
   * place (a dotfiles folder) is written where the link leads: renaming over the link would
   * replace it with a plain file and leave the user's own copy behind.
   */
  private write(linkPath: string, text: string, holdsToken: boolean): string | undefined {
    let backup: string | undefined;
    let mode = 0o600;
    const path = whereLinkLeads(linkPath);
    if (existsSync(path)) {
      const was = statSync(path).mode;
      mode = was & (holdsToken ? 0o700 : 0o777);
      const stamp = (this.d.now?.() ?? new Date())
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\..*$/, '');
      backup = `${path}.airlock-backup-${stamp}`;
      for (let i = 2; present(backup); i++) backup = `${path}.airlock-backup-${stamp}-${i}`;
      // Created owner-only (never a moment at the original's mode), and never through a link.
      writeFileSync(backup, readFileSync(path), { mode: (was & 0o700) | 0o600, flag: 'wx' });
    } else mkdirSync(dirname(path), { recursive: true });
    try {
      writeFileAtomic(path, text, mode);
    } catch (err) {
      throw new ClientEditError(`Could not write ${path}: ${(err as Error).message}`);
    }
    return backup;
  }
}

/** Anything at `p`, a link that leads nowhere included (existsSync follows links). */
function present(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The file a config path names, through links. A link that leads nowhere (its target missing, or
 * a loop) is refused before anything is written: replacing it with a plain file would cut the
 * config loose from where the user keeps it.
 */
function whereLinkLeads(p: string): string {
  if (!present(p) || !lstatSync(p).isSymbolicLink()) return p;
  try {
    return realpathSync(p);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ELOOP' ? 'loops' : 'leads nowhere';
    throw new ClientEditError(
      `${p} is a symbolic link that ${why}; fix or remove the link, then connect again.`,
    );
  }
}

function sameSource(
  a: { path: string; keyPath: string[] },
  b: { path: string; keyPath: string[] },
): boolean {
  return a.path === b.path && a.keyPath.join('\0') === b.keyPath.join('\0');
}
