import type { NetworkAccess, SandboxInput, SandboxView } from '../../../../common/contract';

/** The sandbox part of the local-server forms (issue 35): paths and hosts one per line. */
export interface SandboxFieldsState {
  read: string;
  write: string;
  network: NetworkAccess;
  hosts: string;
  allowUnsandboxed: boolean;
  /** Added: untouched fields leave the defaults (its folder read-write, any network) to Airlock. */
  touched: boolean;
}

export const NEW_SANDBOX: SandboxFieldsState = {
  read: '',
  write: '',
  network: 'any',
  hosts: '',
  allowUnsandboxed: false,
  touched: false,
};

export function sandboxState(v: SandboxView): SandboxFieldsState {
  return {
    read: v.read.join('\n'),
    write: v.write.join('\n'),
    network: v.network,
    hosts: v.hosts.join('\n'),
    allowUnsandboxed: v.allowUnsandboxed,
    touched: true,
  };
}

const lines = (s: string) =>
  s
    .split(/\r?\n/)
    .map((x) => x.trim())
    .filter(Boolean);

/** What to send; undefined when an add form's sandbox was left alone. Airlock checks every path. */
export function sandboxFrom(
  f: SandboxFieldsState,
): { ok: true; sandbox?: SandboxInput } | { ok: false; error: string } {
  if (!f.touched) return { ok: true };
  const hosts = lines(f.hosts);
  if (f.network === 'hosts' && hosts.length === 0)
    return { ok: false, error: 'List at least one host, or choose "No network".' };
  return {
    ok: true,
    sandbox: {
      read: lines(f.read),
      write: lines(f.write),
      network: f.network,
      ...(f.network === 'hosts' ? { hosts } : {}),
      allowUnsandboxed: f.allowUnsandboxed,
    },
  };
}

/** The card's one-line status. */
export function sandboxBadge(v: SandboxView): string {
  if (v.status === 'blocked') return 'Not started: no sandbox here';
  if (v.status === 'unsandboxed') return 'Unsandboxed (you allowed it)';
  return v.enforcement === 'sandbox-exec' ? 'Sandboxed (macOS)' : 'Sandboxed';
}

/** What it may reach, in a few words per permission. */
export function sandboxFacts(v: SandboxView): { label: string; value: string }[] {
  const files = [
    ...v.write.map((p) => `${p} (read-write)`),
    ...v.read.map((p) => `${p} (read-only)`),
  ];
  const network =
    v.network === 'none'
      ? 'none'
      : v.network === 'any'
        ? 'any host'
        : `only ${v.hosts.join(', ')} (through Airlock's proxy)`;
  return [
    { label: 'Folders', value: files.length ? files.join('; ') : 'none besides its own' },
    { label: 'Network', value: network },
    ...(v.notGranted.length
      ? [{ label: 'Asked for, not granted', value: v.notGranted.join(', ') }]
      : []),
    ...(v.refusedHosts.length
      ? [{ label: 'Tried to reach, refused', value: v.refusedHosts.join(', ') }]
      : []),
  ];
}
