import { statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { SandboxInput, SandboxPermissions } from '../../../../common/contract/index.js';
import { ControlError } from '../../../../common/contract/index.js';
import { allows, parseHostRule, parseTarget, ruleText } from './host-rules.js';
import { checkGrant, within, type ProtectedPath } from './protected-paths.js';

/**
 * A local server's permissions (issue 35): checking what the user asks for,
 * the defaults, and what a server's own command line asks for that it was
 * not given. Settings keep `SandboxPermissions`; the sandbox builders
 * (bwrap.ts, seatbelt.ts) check every path again when they start it.
 */
export interface GrantContext {
  home: string;
  guard: readonly ProtectedPath[];
  platform: NodeJS.Platform;
}

/** Added by hand (CLI, window): its working folder read-write, if that may be granted; any network. */
export function defaultPermissions(cwd: string | undefined, c: GrantContext): SandboxPermissions {
  const write = cwd && !checkGrant(cwd, c.guard, c.home, c.platform).refused ? [cwd] : [];
  return { read: [], write, network: 'any', hosts: [], allowUnsandboxed: false };
}

/** Package registries a launcher needs to fetch the server it names. */
const REGISTRIES: Record<string, string[]> = {
  npx: ['registry.npmjs.org'],
  npm: ['registry.npmjs.org'],
  pnpm: ['registry.npmjs.org'],
  bunx: ['registry.npmjs.org'],
  uvx: ['pypi.org', 'files.pythonhosted.org'],
  uv: ['pypi.org', 'files.pythonhosted.org'],
  pipx: ['pypi.org', 'files.pythonhosted.org'],
};

/**
 * Imported from another app's config: the narrowest permissions that let it start — no
 * folders (its program and runtime are added read-only at start), and for a package launcher
 * only its registry, so `npx -y pkg` can fetch the package.
 */
export function importedPermissions(command: string): SandboxPermissions {
  // Either separator: an imported Windows config may name `C:\…\npx.cmd`.
  const name = (command.split(/[\\/]/).pop() ?? '').replace(/\.(cmd|exe)$/i, '');
  const hosts = REGISTRIES[name] ?? [];
  return {
    read: [],
    write: [],
    network: hosts.length ? 'hosts' : 'none',
    hosts,
    allowUnsandboxed: false,
  };
}

/** Checks a change against the current permissions; the fields given replace those fields. */
export function applySandboxInput(
  current: SandboxPermissions,
  raw: unknown,
  c: GrantContext,
): SandboxPermissions {
  if (raw === undefined) return current;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new ControlError(
      'INVALID',
      'sandbox expects { read?, write?, network?, hosts?, allowUnsandboxed? }.',
    );
  const i = raw as SandboxInput;
  const next: SandboxPermissions = { ...current };
  if (i.write !== undefined) next.write = paths(i.write, 'write', c, true);
  if (i.read !== undefined) next.read = paths(i.read, 'read', c, false);
  // A folder given as both is read-write: one mount, the wider one the user asked for.
  next.read = next.read.filter((r) => !next.write.includes(r));
  if (i.hosts !== undefined) {
    if (!Array.isArray(i.hosts) || i.hosts.some((h) => typeof h !== 'string'))
      throw new ControlError('INVALID', 'hosts must be a list of host names.');
    const rules = i.hosts.map((h) => {
      try {
        return ruleText(parseHostRule(h));
      } catch (err) {
        throw new ControlError('INVALID', (err as Error).message);
      }
    });
    next.hosts = [...new Set(rules)];
    if (i.network === undefined && next.hosts.length) next.network = 'hosts';
  }
  if (i.network !== undefined) {
    if (!['none', 'any', 'hosts'].includes(i.network))
      throw new ControlError('INVALID', 'network must be "none", "any" or "hosts".');
    next.network = i.network;
  }
  if (next.network === 'hosts' && next.hosts.length === 0)
    throw new ControlError(
      'INVALID',
      'A host list needs at least one host (or choose network "none").',
    );
  if (i.allowUnsandboxed !== undefined) {
    if (typeof i.allowUnsandboxed !== 'boolean')
      throw new ControlError('INVALID', 'allowUnsandboxed must be true or false.');
    next.allowUnsandboxed = i.allowUnsandboxed;
  }
  return next;
}

/** `~/x` expanded, absolute, existing, not protected; duplicates dropped. */
function paths(raw: unknown, what: string, c: GrantContext, folder: boolean): string[] {
  if (!Array.isArray(raw) || raw.some((p) => typeof p !== 'string' || p.includes('\0')))
    throw new ControlError('INVALID', `${what} must be a list of absolute paths.`);
  const out: string[] = [];
  for (const given of raw as string[]) {
    const p = expandHome(given.trim(), c.home);
    if (!isAbsolute(p))
      throw new ControlError(
        'INVALID',
        `${given} is not an absolute path (start it with / or ~/).`,
      );
    const abs = resolve(p);
    let st;
    try {
      st = statSync(abs);
    } catch {
      throw new ControlError('INVALID', `${abs} does not exist.`);
    }
    if (folder && !st.isDirectory())
      throw new ControlError(
        'INVALID',
        `${abs} is not a folder (read-write access is per folder).`,
      );
    const check = checkGrant(abs, c.guard, c.home, c.platform);
    if (check.refused) throw new ControlError('INVALID', `Cannot grant ${check.refused}.`);
    if (!out.includes(abs)) out.push(abs);
  }
  return out;
}

export function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return join(home, p.slice(2));
  return p;
}

/**
 * What the command line, plain environment and working folder ask for that the permissions do
 * not give: existing absolute paths (or `~/…`) outside every grant, and hosts of URLs when the
 * network is not "any". For the Servers page ("asked for, not granted").
 */
export function notGranted(
  launch: { args: readonly string[]; cwd?: string; env: Record<string, string> },
  perm: SandboxPermissions,
  c: GrantContext,
  /** Read-only anyway: its program and runtime (as of its last start). */
  runtime: readonly string[] = [],
): string[] {
  const out = new Set<string>();
  const granted = [...perm.read, ...perm.write, ...runtime];
  const words = [...launch.args, ...Object.values(launch.env), ...(launch.cwd ? [launch.cwd] : [])];
  for (const w of words.flatMap((x) => x.split(/[=,;]/))) {
    const p = expandHome(w.trim(), c.home);
    if (isAbsolute(p) && p.length > 1 && exists(p)) {
      const abs = resolve(p);
      if (!granted.some((g) => within(abs, g, c.platform))) out.add(abs);
    }
    if (perm.network !== 'any') {
      const url = urlOf(w.trim());
      const target = url && parseTarget(url.host, defaultPort(url));
      const rules = perm.network === 'hosts' ? perm.hosts.map(parseHostRule) : [];
      if (url && !(target && allows(rules, target))) out.add(url.host);
    }
  }
  return [...out];
}

function urlOf(s: string): URL | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) return undefined;
  try {
    const u = new URL(s);
    return u.protocol === 'file:' || !u.host ? undefined : u;
  } catch {
    return undefined;
  }
}

const defaultPort = (u: URL) => (/^(https|wss):$/.test(u.protocol) ? 443 : 80);

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}
