import type { ClientId, ImportItem, RemoteInput, RemoteView } from '../../common/contract/index.js';
import type { ClientDef } from './client-defs.js';
import { AIRLOCK_ENTRY } from './clients-edit.js';
import { normalizeEntry, readSource, serversAt, type ClientServer } from './read-config.js';
import { maskUrlSecrets, secretLabel, urlSecretsIn } from '../platform/url-secrets.js';

/**
 * What importing would do (issue 15): every server entry of the chosen
 * clients' files, with the Airlock name it gets, what goes to the keychain and
 * why an entry is skipped. Pure apart from reading the files.
 */
export interface PlannedItem extends ImportItem {
  input?: RemoteInput;
}

/** A client's server name made valid for Airlock (1–32 of [A-Za-z0-9_-], no "__"). */
export function airlockName(name: string): string {
  const s = name
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/_{2,}/g, '_')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 32)
    .replace(/[-_]+$/, '');
  return s || 'server';
}

export function isAirlockEntry(name: string, s: ClientServer, mcpUrl: string): boolean {
  if (name === AIRLOCK_ENTRY) return true;
  const ours = (v: string | undefined) => v !== undefined && sameEndpoint(v, mcpUrl);
  return ours(s.url) || (s.args ?? []).some(ours);
}

/** Both loopback, same port and path: `localhost` and `127.0.0.1` are the same Airlock. */
export function sameEndpoint(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    const loop = (h: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(h);
    return loop(x.hostname) && loop(y.hostname) && x.port === y.port && x.pathname === y.pathname;
  } catch {
    return false;
  }
}

function summary(s: ClientServer): string {
  // Shown in `clients list` and the import preview: a query credential or a path segment that
  // looks like a token masked (issue 29, item 5; docs/security.md, "No credentials of a server URL").
  if (s.kind === 'url') return maskUrlSecrets(s.url ?? '');
  return [s.command ?? '', ...(s.args ?? [])]
    .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a)))
    .join(' ');
}

/** What an existing or planned server is compared by. */
type Known = { url: string; stdio?: { command: string; args: string[] } };

function sameServer(s: ClientServer, v: Known): boolean {
  if (s.kind === 'url')
    // Airlock's views hold the URL with query credentials masked; compare like with like.
    return (
      !v.stdio &&
      maskUrlSecrets(v.url).replace(/\/$/, '') === maskUrlSecrets(s.url ?? '').replace(/\/$/, '')
    );
  return (
    v.stdio?.command === s.command &&
    JSON.stringify(v.stdio?.args ?? []) === JSON.stringify(s.args ?? [])
  );
}

/** The input for addRemote: every env value and header to the keychain (any of them may be a key). */
function inputOf(
  as: string,
  client: ClientId,
  s: ClientServer,
): { input: RemoteInput; secretNames: string[] } {
  if (s.kind === 'url') {
    const headers = { ...(s.headers ?? {}) };
    let bearerToken: string | undefined;
    for (const k of Object.keys(headers))
      if (k.toLowerCase() === 'authorization') {
        const m = /^Bearer\s+(.+)$/i.exec(headers[k]!.trim());
        if (m) {
          bearerToken = m[1]!;
          delete headers[k];
        }
      }
    return {
      input: {
        name: as,
        url: s.url!,
        origin: client,
        ...(Object.keys(headers).length ? { headers } : {}),
        ...(bearerToken ? { bearerToken } : {}),
      },
      secretNames: [
        ...(bearerToken ? ['Authorization'] : []),
        ...Object.keys(headers),
        ...urlSecretsIn(s.url!).map(([n]) => secretLabel(n)),
      ],
    };
  }
  return {
    input: {
      name: as,
      origin: client,
      stdio: {
        command: s.command!,
        args: s.args ?? [],
        ...(s.cwd ? { cwd: s.cwd } : {}),
        ...(s.env && Object.keys(s.env).length ? { secretEnv: s.env } : {}),
      },
    },
    secretNames: Object.keys(s.env ?? {}),
  };
}

export function planImport(
  defs: ClientDef[],
  existing: RemoteView[],
  mcpUrl: string,
  projectDir?: string,
): PlannedItem[] {
  const items: PlannedItem[] = [];
  const taken = new Map(existing.map((v) => [v.name.toLowerCase(), v as Known]));
  const plannedFrom = new Map<string, ClientId>();
  for (const def of defs)
    for (const src of def.sources(projectDir)) {
      const f = readSource(src);
      if (!f.exists || f.error) continue;
      for (const [name, raw] of Object.entries(serversAt(f.data, src.keyPath))) {
        const s = normalizeEntry(name, raw);
        const base = { client: def.id, file: src.path, name };
        if (!s) {
          items.push({
            ...base,
            as: '',
            kind: 'stdio',
            summary: '',
            secretNames: [],
            action: 'skip',
            reason: 'no command or URL Airlock understands',
            warnings: [],
          });
          continue;
        }
        const common = { ...base, kind: s.kind, summary: summary(s), warnings: s.warnings };
        const skip = (reason: string, as = '') =>
          items.push({ ...common, as, secretNames: [], action: 'skip', reason });
        if (isAirlockEntry(name, s, mcpUrl)) {
          skip('Airlock itself');
          continue;
        }
        if (s.disabled) {
          skip(`disabled in ${def.label}`);
          continue;
        }
        let as = airlockName(name);
        const clash = taken.get(as.toLowerCase());
        if (clash && sameServer(s, clash)) {
          const from = plannedFrom.get(as.toLowerCase());
          skip(from ? `the same server as ${from}'s` : 'already in Airlock', as);
          continue;
        }
        if (clash) as = unique(as, def.id, taken);
        const { input, secretNames } = inputOf(as, def.id, s);
        taken.set(
          as.toLowerCase(),
          s.kind === 'url'
            ? { url: s.url! }
            : {
                url: '',
                stdio: { command: s.command!, args: s.args ?? [] },
              },
        );
        plannedFrom.set(as.toLowerCase(), def.id);
        items.push({ ...common, as, secretNames, action: 'add', input });
      }
    }
  return items;
}

function unique(base: string, client: string, taken: Map<string, unknown>): string {
  for (let i = 1; ; i++) {
    const suffix = i === 1 ? `-${client}` : `-${client}-${i}`;
    const name = base.slice(0, 32 - suffix.length) + suffix;
    if (!taken.has(name.toLowerCase())) return name;
  }
}
