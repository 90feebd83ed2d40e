import { resolve } from 'node:path';
import type { RemoteView, SandboxInput } from '../../common/contract/index.js';
import { ControlError } from '../../common/contract/index.js';

/**
 * A local server's permissions on the command line (issue 35), for `remote add` and
 * `remote update`: each flag given replaces that permission; the rest stay.
 */
export const SANDBOX_OPTIONS = {
  read: { type: 'string', multiple: true },
  write: { type: 'string', multiple: true },
  'no-files': { type: 'boolean' },
  network: { type: 'string' },
  'allow-unsandboxed': { type: 'boolean' },
  'require-sandbox': { type: 'boolean' },
} as const;

export interface SandboxFlags {
  read?: string[];
  write?: string[];
  'no-files'?: boolean;
  network?: string;
  'allow-unsandboxed'?: boolean;
  'require-sandbox'?: boolean;
}

/** The flags as a SandboxInput (paths made absolute against this shell's folder), or undefined. */
export function sandboxFromFlags(
  v: SandboxFlags,
  cwd: string = process.cwd(),
): SandboxInput | undefined {
  const out: SandboxInput = {};
  const abs = (ps: string[]) =>
    ps.map((p) => (p === '~' || p.startsWith('~/') ? p : resolve(cwd, p)));
  if (v['no-files']) {
    if (v.read || v.write)
      throw new ControlError('INVALID', '--no-files takes no --read or --write.');
    out.read = [];
    out.write = [];
  }
  if (v.read) out.read = abs(v.read);
  if (v.write) out.write = abs(v.write);
  if (v.network !== undefined) {
    const n = v.network.trim();
    if (n === 'none' || n === 'any') out.network = n;
    else {
      const hosts = n
        .split(',')
        .map((h) => h.trim())
        .filter(Boolean);
      if (!hosts.length)
        throw new ControlError(
          'INVALID',
          '--network takes none, any, or a comma-separated list of hosts.',
        );
      out.network = 'hosts';
      out.hosts = hosts;
    }
  }
  if (v['allow-unsandboxed'] && v['require-sandbox'])
    throw new ControlError('INVALID', 'Give --allow-unsandboxed or --require-sandbox, not both.');
  if (v['allow-unsandboxed']) out.allowUnsandboxed = true;
  if (v['require-sandbox']) out.allowUnsandboxed = false;
  return Object.keys(out).length ? out : undefined;
}

/** One phrase for `remote list`: how it is sandboxed and with what. */
export function sandboxSummary(r: RemoteView): string {
  const s = r.stdio?.sandbox;
  if (!s) return '';
  if (s.status === 'blocked')
    return 'not started: no sandbox here (--allow-unsandboxed to run it anyway)';
  const files = [...s.write.map((p) => `rw ${p}`), ...s.read.map((p) => `ro ${p}`)];
  const net = s.network === 'hosts' ? `network ${s.hosts.join(',')}` : `network ${s.network}`;
  const what = [files.length ? files.join(', ') : 'no folders', net].join(', ');
  const asked = s.notGranted.length ? `; asked for, not granted: ${s.notGranted.join(', ')}` : '';
  const refused = s.refusedHosts.length ? `; refused: ${s.refusedHosts.join(', ')}` : '';
  return `${s.status === 'unsandboxed' ? 'UNSANDBOXED (allowed)' : `sandbox ${s.enforcement}`}: ${what}${asked}${refused}`;
}
