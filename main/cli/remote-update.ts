import type {
  ControlApi,
  RemotePatch,
  RemoteView,
  SandboxInput,
} from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';
import { confirmedInWindow } from './confirm-in-window.js';

export const UPDATE_OPTIONS = {
  enable: { type: 'boolean' },
  disable: { type: 'boolean' },
  relay: { type: 'boolean' },
  'no-relay': { type: 'boolean' },
  url: { type: 'string' },
} as const;

interface UpdateFlags {
  enable?: boolean;
  disable?: boolean;
  relay?: boolean;
  'no-relay'?: boolean;
  url?: string;
  json?: boolean;
}

/** `airlock remote update NAME …` (issue 27, items 3 and 4). */
export async function updateCommand(
  api: ControlApi,
  name: string,
  v: UpdateFlags,
  out: (line: string) => void,
  /** A local server's new sandbox (remote-sandbox.ts), and how to show the server after. */
  sandbox?: { sandbox: SandboxInput; format: (view: RemoteView) => string },
): Promise<number> {
  if (v.enable && v.disable)
    throw new ControlError('INVALID', 'Give --enable or --disable, not both.');
  if (v.relay && v['no-relay'])
    throw new ControlError('INVALID', 'Give --relay or --no-relay, not both.');
  const patch: RemotePatch = {
    ...(v.enable ? { enabled: true } : v.disable ? { enabled: false } : {}),
    ...(v.relay ? { relay: true } : v['no-relay'] ? { relay: false } : {}),
    ...(v.url !== undefined ? { url: v.url } : {}),
    ...(sandbox ? { sandbox: sandbox.sandbox } : {}),
  };
  if (Object.keys(patch).length === 0)
    throw new ControlError(
      'INVALID',
      'Nothing to change: give --enable, --disable, --relay, --no-relay, --url, or a local ' +
        "server's --read, --write, --no-files, --network, --allow-unsandboxed or --require-sandbox.",
    );
  // Loosening comes back CONFIRM_IN_WINDOW: wait for the user's answer there.
  const updated = await confirmedInWindow(api, () => api.updateRemote(name, patch));
  const view = updated ?? (await api.listRemotes()).find((r) => r.name === name);
  if (!view) throw new ControlError('NOT_FOUND', `No remote server named "${name}".`);
  if (v.json) out(JSON.stringify(view));
  else
    out(
      `Updated "${view.name}": ${view.enabled ? 'enabled' : 'disabled'}, ` +
        `its requests to agents ${view.relay ? 'relayed' : 'refused'}${view.url ? `, ${view.url}` : ''}.` +
        (sandbox ? `\n${sandbox.format(view)}` : ''),
    );
  return sandbox && view.state === 'error' ? 1 : 0;
}
