import type { RemoteInput, RemotePatch, RemoteView } from '../../../common/contract/index.js';
import { ControlError } from '../../../common/contract/index.js';
import type { RemoteSettings, SettingsStore } from '../../platform/settings.js';
import type { Vault } from '../../platform/vault/vault.js';
import type { RemoteManager } from '../remote-manager.js';
import {
  envKey,
  readEnvSecrets,
  stdioView,
  validateStdioInput,
  writeEnvSecrets,
} from './stdio-config.js';
import { applySandboxInput } from './sandbox/permissions.js';

/**
 * The local-server half of RemoteControl's add/update/remove/view (issue 15).
 * Same order as URL servers: secrets to the vault before settings change, so
 * a keychain failure leaves both as they were.
 */
export interface LocalControlDeps {
  settings: SettingsStore;
  vault: Vault;
  manager: RemoteManager;
}

export async function addLocal(
  d: LocalControlDeps,
  name: string,
  input: RemoteInput,
): Promise<void> {
  if (input.url !== undefined)
    throw new ControlError('INVALID', 'Give either a URL or a command for a server, not both.');
  if (input.headers !== undefined || input.bearerToken !== undefined)
    throw new ControlError(
      'INVALID',
      'A local server takes no headers or bearer token; pass credentials as secret environment variables.',
    );
  const v = validateStdioInput(input.stdio);
  // Issue 35: imported servers start with the narrowest permissions, added ones with their folder.
  const base = d.manager.stdio.basePermissions(v.settings.command, v.settings.cwd, !!input.origin);
  v.settings.sandbox = applySandboxInput(
    base,
    input.stdio?.sandbox,
    d.manager.stdio.grantContext(),
  );
  const clash = d.settings.get().remotes.find((r) => r.name.toLowerCase() === name.toLowerCase());
  if (clash)
    throw new ControlError(
      'CONFLICT',
      `A server named "${clash.name}" already exists. Remove it first, or pick another name.`,
    );
  await writeEnvSecrets(d.vault, name, v.secretEnv ?? {});
  try {
    d.settings.update((s) => {
      s.remotes.push({
        name,
        url: '',
        enabled: true,
        relay: true,
        headerNames: [],
        hasToken: false,
        createdAt: new Date().toISOString(),
        stdio: v.settings,
        ...(typeof input.origin === 'string' && input.origin ? { origin: input.origin } : {}),
      });
    });
  } catch (err) {
    await d.vault.delete(envKey(name)).catch(() => {});
    throw new ControlError('INVALID', err instanceof Error ? err.message : String(err));
  }
}

export async function updateLocal(
  d: LocalControlDeps,
  cfg: RemoteSettings,
  patch: RemotePatch,
): Promise<void> {
  if (!cfg.stdio)
    throw new ControlError(
      'INVALID',
      `"${cfg.name}" is reached by URL; remove it and add it again to run it as a local command.`,
    );
  if (patch.url !== undefined || patch.headers !== undefined || patch.bearerToken !== undefined)
    throw new ControlError(
      'INVALID',
      `"${cfg.name}" is a local server: change its command, arguments or environment instead.`,
    );
  const stdio = d.manager.stdio;
  // Issue 35: permissions change only where given (in the new launch or on their own).
  let perm = stdio.permissions(cfg.stdio);
  perm = applySandboxInput(perm, patch.stdio?.sandbox, stdio.grantContext());
  perm = applySandboxInput(perm, patch.sandbox, stdio.grantContext());
  if (patch.enabled !== undefined && typeof patch.enabled !== 'boolean')
    throw new ControlError('INVALID', 'enabled must be true or false.');
  let next = cfg.stdio;
  if (patch.stdio !== undefined) {
    const v = validateStdioInput(patch.stdio);
    if (v.secretEnv !== undefined) await writeEnvSecrets(d.vault, cfg.name, v.secretEnv);
    else {
      // Secret values stay; a name no longer listed would be dropped, so keep the stored ones.
      const stored = await readEnvSecrets(d.vault, cfg.name);
      v.settings.secretEnvNames = Object.keys(stored).filter((n) => !(n in v.settings.env));
    }
    next = v.settings;
  }
  next = { ...next, sandbox: perm };
  d.settings.update((s) => {
    const r = s.remotes.find((x) => x.name === cfg.name)!;
    r.stdio = next;
    if (patch.enabled !== undefined) r.enabled = patch.enabled;
  });
}

export async function removeLocal(d: LocalControlDeps, name: string): Promise<void> {
  await d.vault.delete(envKey(name));
  await d.manager.stdio.forget(name);
}

/** The local-server fields of a RemoteView. */
export function localView(
  d: Pick<LocalControlDeps, 'manager'>,
  r: RemoteSettings,
): Pick<RemoteView, 'stdio' | 'process' | 'origin'> {
  const processLog = r.stdio ? d.manager.stdio.processLog(r.name) : undefined;
  return {
    ...(r.stdio ? { stdio: stdioView(r.stdio, d.manager.stdio.sandboxView(r.name, r.stdio)) } : {}),
    ...(processLog ? { process: processLog.info() } : {}),
    ...(r.origin ? { origin: r.origin } : {}),
  };
}

/** OAuth sign-in is for servers reached by URL; a local server's credentials are its environment. */
export function refuseSignIn(cfg: RemoteSettings): void {
  if (cfg.stdio)
    throw new ControlError(
      'CONFLICT',
      `"${cfg.name}" is a local server: it has no sign-in. Give it credentials as secret environment variables.`,
    );
}
