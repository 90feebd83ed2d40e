import { SYSTEM_DIRS } from './runtime-paths.js';

/**
 * The macOS sandbox (issue 35): a Seatbelt profile for `sandbox-exec -p`.
 * Deny by default; read the system, the runtime and the granted folders;
 * write only the server's own folder (its HOME and TMPDIR) and the granted
 * read-write folders; network none, any, or only Airlock's proxy on a
 * loopback port (macOS has no network namespaces: the profile is what limits
 * connections). Protected paths are denied at the end: in Seatbelt the last
 * matching rule wins, so no earlier allow reaches them.
 *
 * Not allowed on purpose: `com.apple.SecurityServer` / `securityd` — the
 * keychain. Items `airlock serve` stores trust the node binary that created
 * them, and a server run by the same node would read them without a prompt.
 *
 * Generated and unit-tested here; not exercised on a Mac by Airlock's tests.
 */
export interface MacPlan {
  /** The server's own folder (HOME and TMPDIR point into it). */
  privateHome: string;
  runtime: readonly string[];
  read: readonly string[];
  write: readonly string[];
  /** Never visible, whatever comes before. */
  protected: readonly string[];
  network: 'none' | 'any' | 'hosts';
  /** Host list: the proxy's loopback port. */
  proxyPort?: number;
}

/** A Seatbelt string literal (the profile language's strings escape like C's). */
export function sbString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const subpaths = (paths: readonly string[]) =>
  paths.map((p) => `  (subpath ${sbString(p)})`).join('\n');

/** /tmp, /var and /etc are symlinks into /private on macOS: a rule names both spellings. */
function spellings(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    out.add(p);
    const m = /^\/(tmp|var|etc)(\/|$)/.exec(p);
    if (m) out.add(`/private${p}`);
    const n = /^\/private\/(tmp|var|etc)(\/|$)/.exec(p);
    if (n) out.add(p.slice('/private'.length));
  }
  return [...out];
}

export function seatbeltProfile(p: MacPlan): string {
  const lines: string[] = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow ipc-posix-shm ipc-posix-sem)',
    '(allow user-preference-read)',
    '(allow mach-lookup',
    '  (global-name "com.apple.system.logger")',
    '  (global-name "com.apple.system.notification_center")',
    '  (global-name "com.apple.system.opendirectoryd.libinfo")',
    '  (global-name "com.apple.system.opendirectoryd.membership")',
    '  (global-name "com.apple.bsd.dirhelper")',
    '  (global-name "com.apple.trustd.agent"))',
    '; stat() on folders, so realpath() can walk to what is allowed (no listing, no contents)',
    '(allow file-read-metadata (vnode-type DIRECTORY))',
    '(allow file-read* file-write-data file-ioctl',
    '  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/random") (literal "/dev/urandom")',
    '  (literal "/dev/stdin") (literal "/dev/stdout") (literal "/dev/stderr") (regex #"^/dev/fd/"))',
    '(allow file-read*',
    subpaths(spellings([...SYSTEM_DIRS.darwin, '/private/var/db/timezone', '/Applications'])),
    ...(p.runtime.length + p.read.length ? [subpaths(spellings([...p.runtime, ...p.read]))] : []),
    ')',
    '(allow file-read* file-write*',
    subpaths(spellings([p.privateHome, ...p.write])),
    ')',
  ];
  if (p.network === 'any')
    lines.push(
      '(allow network*)',
      '(allow system-socket)',
      '(allow mach-lookup (global-name "com.apple.dnssd.service") (global-name "com.apple.SystemConfiguration.configd"))',
    );
  else if (p.network === 'hosts' && p.proxyPort !== undefined)
    lines.push(`(allow network-outbound (remote tcp ${sbString(`localhost:${p.proxyPort}`)}))`);
  if (p.protected.length)
    lines.push(
      '; never visible, whatever was allowed above (the last matching rule wins)',
      '(deny file-read* file-write*',
      subpaths(spellings(p.protected)),
      ')',
      '(deny network-outbound',
      spellings(p.protected)
        .map((x) => `  (remote unix-socket (subpath ${sbString(x)}))`)
        .join('\n'),
      ')',
    );
  return lines.join('\n') + '\n';
}
