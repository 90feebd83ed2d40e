import { homedir } from 'node:os';
import { ControlError } from '../../common/contract/index.js';
import type { RemoteInput, RemotePatch, SandboxPermissions } from '../../common/contract/index.js';
import type { Settings } from '../platform/settings.js';
import type { GrantContext } from './stdio/sandbox/permissions.js';
import type { StdioSettings } from './stdio/stdio-config.js';

/**
 * What judging a local server's sandbox change needs (StdioServers): its effective permissions
 * (stored, or its folder's defaults) and what grants are checked against — the same that
 * updateRemote applies the change with.
 */
export interface StdioPermissionsSource {
  permissions(s: StdioSettings): SandboxPermissions;
  grantContext(): GrantContext;
}

/**
 * Which server changes loosen (issue 27, item 4): anything that lets more run, or lets it run
 * somewhere else, or as someone else. `updateRemote {enabled: true}` over the control socket
 * used to apply at once, and the server's tools ran. Loosening:
 * - enabling a disabled server;
 * - a URL that is not the one it has (after the same normalisation `updateRemote` applies);
 * - any change of headers or token: Airlock cannot tell which header picks the account, the
 *   tenant or the server behind a gateway, so every credential change counts;
 * - a local server's new program, arguments, folder or environment (plain or secret);
 * - turning relaying of its requests (sampling, elicitation, roots) back on;
 * - adding a server under a name whose tools the user once let run without asking: removing
 *   it keeps those choices, so remove-then-add would otherwise re-enable it unasked;
 * - a local server's wider sandbox (issue 35): a folder outside what it had, more network,
 *   running without a sandbox — judged on the permissions as updateRemote would store them.
 * A patch that `updateRemote` would refuse anyway is not held: it fails now, as asked.
 * Disabling, removing and turning relaying off tighten and apply at once.
 *
 * The gateway's gate and the CLI's offline refusal get it as a `ServerLoosening` function
 * (gateway/loosening.ts), passed in by the app and the CLI: the gateway imports no source.
 */
export async function remoteLoosening(
  method: string,
  params: unknown[],
  settings: Settings,
  /** StdioServers, loaded on first need; without it a sandbox change counts from nothing granted. */
  stdio?: () => Promise<StdioPermissionsSource>,
): Promise<string | null> {
  try {
    if (method === 'updateRemote') {
      const parts = [
        await updateLoosening(params, settings),
        await sandboxLoosening(params, settings, stdio),
      ].filter((p): p is string => p !== null);
      return parts.length ? parts.join('; and ') : null;
    }
    if (method === 'addRemote') return addLoosening(params[0], settings);
  } catch (err) {
    if (err instanceof ControlError) return null; // the call fails with this same error
    throw err;
  }
  return null;
}

async function updateLoosening(params: unknown[], settings: Settings): Promise<string | null> {
  const [name, raw] = params;
  const cfg = settings.remotes.find((r) => r.name === name);
  if (!cfg || !raw || typeof raw !== 'object') return null;
  const patch = raw as RemotePatch;
  const who = `server "${cfg.name}"`;
  const parts: string[] = [];
  /** A change of where, or as whom, its tools run. */
  let reaches = false;
  if (patch.enabled === true && !cfg.enabled) parts.push(`enable ${who}`);
  if (patch.relay === true && cfg.relay === false)
    parts.push(`let ${who} send its requests (sampling, elicitation, roots) to your agents' apps`);
  if (cfg.stdio || patch.stdio !== undefined) {
    // The local branch of updateRemote refuses these; the same checks, so the call fails now.
    if (!cfg.stdio) return null;
    if (patch.url !== undefined || patch.headers !== undefined || patch.bearerToken !== undefined)
      return null;
    if (patch.stdio !== undefined) {
      const { validateStdioInput } = await import('./stdio/stdio-config.js');
      const v = validateStdioInput(patch.stdio);
      const before = cfg.stdio;
      const same =
        v.settings.command === before.command &&
        JSON.stringify(v.settings.args) === JSON.stringify(before.args) &&
        (v.settings.cwd ?? '') === (before.cwd ?? '') &&
        sameRecord(v.settings.env, before.env) &&
        // New secret values cannot be compared with the stored ones: they count as a change.
        (v.secretEnv === undefined ||
          (Object.keys(v.secretEnv).length === 0 && before.secretEnvNames.length === 0));
      if (!same) {
        reaches = true;
        parts.push(
          `start local ${who} as ${[v.settings.command, ...v.settings.args].join(' ')}` +
            `${v.settings.cwd ? ` in ${v.settings.cwd}` : ''} with the environment given`,
        );
      }
    }
  } else {
    const { validateHeaders, validateRemoteUrl, validateToken } = await import('./validate.js');
    if (patch.url !== undefined) {
      const url = validateRemoteUrl(patch.url).href;
      if (url !== cfg.url) {
        // Shown masked, as settings and every ControlApi result show it: this summary goes into
        // the CONFIRM_IN_WINDOW error, listPolicyChanges, the event stream and the Tools page.
        const { maskUrlSecrets, secretLabel, urlSecretsIn } =
          await import('../platform/url-secrets.js');
        // The old URL too: a settings file from before issue 29 (or path credentials) whose key could not be
        // moved to the vault yet (moveUrlSecrets) still holds it in the clear.
        const shown = maskUrlSecrets(url, cfg.urlSecret);
        const was = maskUrlSecrets(cfg.url, cfg.urlSecret);
        const names = [
          ...new Set(urlSecretsIn(url, cfg.urlSecret).map(([n]) => secretLabel(n))),
        ].join(', ');
        parts.push(
          shown === was
            ? `give ${who} new values for the credentials in its URL (${names})`
            : `point ${who} at ${shown} (was ${was})`,
        );
        reaches = true;
      }
    }
    if (patch.headers !== undefined) {
      const headers = validateHeaders(patch.headers);
      if (Object.keys(headers).length > 0 || cfg.headerNames.length > 0) {
        parts.push(`change the headers of ${who}`);
        reaches = true;
      }
    }
    if (patch.bearerToken === null && cfg.hasToken) {
      parts.push(`remove the token of ${who}, so it uses its OAuth sign-in`);
      reaches = true;
    } else if (patch.bearerToken !== undefined && patch.bearerToken !== null) {
      validateToken(patch.bearerToken);
      parts.push(`give ${who} a new token`);
      reaches = true;
    }
  }
  if (parts.length === 0) return null;
  const why = reaches ? ' (these decide which server, and as whom, its tools act)' : '';
  return `${parts.join(' and ')}${why}`;
}

async function sandboxLoosening(
  params: unknown[],
  settings: Settings,
  stdio: (() => Promise<StdioPermissionsSource>) | undefined,
): Promise<string | null> {
  const [name, raw] = params;
  const cfg = settings.remotes.find((r) => r.name === name);
  if (!cfg?.stdio || !raw || typeof raw !== 'object') return null;
  const patch = raw as RemotePatch;
  if (patch.stdio?.sandbox === undefined && patch.sandbox === undefined) return null;
  const { applySandboxInput } = await import('./stdio/sandbox/permissions.js');
  const { sandboxWidening } = await import('./stdio/sandbox/widening.js');
  const source = await stdio?.();
  const ctx = source?.grantContext() ?? { home: homedir(), guard: [], platform: process.platform };
  const cur = source?.permissions(cfg.stdio) ?? NOTHING;
  // As stdio-control.ts's updateRemote applies it; what it refuses throws here too.
  let next = applySandboxInput(cur, patch.stdio?.sandbox, ctx);
  next = applySandboxInput(next, patch.sandbox, ctx);
  const parts = [...new Set(sandboxWidening(cur, next, ctx.platform))];
  return parts.length ? `let local server "${cfg.name}" ${parts.join(', ')}` : null;
}

const NOTHING: SandboxPermissions = {
  read: [],
  write: [],
  network: 'none',
  hosts: [],
  allowUnsandboxed: false,
};

function addLoosening(raw: unknown, settings: Settings): string | null {
  if (!raw || typeof raw !== 'object') return null;
  const name = (raw as RemoteInput).name;
  if (typeof name !== 'string') return null;
  // A name in use: addRemote refuses it (CONFLICT), now.
  if (settings.remotes.some((r) => r.name.toLowerCase() === name.toLowerCase())) return null;
  const prefix = `remote:${name}/`;
  const auto = new Set<string>();
  for (const [key, s] of Object.entries(settings.tools))
    if (key.startsWith(prefix) && s.approval === 'auto') auto.add(key);
  for (const agent of settings.agents)
    for (const [key, s] of Object.entries(agent.overrides))
      if (key.startsWith(prefix) && s.approval === 'auto') auto.add(key);
  if (auto.size === 0) return null;
  return (
    `add server "${name}" again: your earlier choices for it let ${auto.size} of its tools ` +
    `(${[...auto].map((k) => k.slice(prefix.length)).join(', ')}) run without asking`
  );
}

function sameRecord(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return (
    ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k])
  );
}
