import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, parse, resolve, sep } from 'node:path';

/**
 * What is never inside a sandbox, whatever the user allows (issue 35):
 * Airlock's data directory (database, settings, logs, the file vault), its
 * control socket, the file vault's key, the OS keychain's files and sockets,
 * and the other servers' private folders. A grant that is, lies inside or
 * contains one of these is refused; and where one lies inside a folder the
 * sandbox sees anyway (the system folders, a runtime), it is masked.
 */
export interface ProtectedPath {
  path: string;
  /** Words for the refusal: "Airlock's data directory". */
  what: string;
}

/** The OS keychain's files and sockets, and the session bus that reaches it (Secret Service). */
export function keychainPaths(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): ProtectedPath[] {
  if (platform === 'darwin')
    return [
      { path: join(home, 'Library', 'Keychains'), what: 'the keychain' },
      { path: '/Library/Keychains', what: 'the system keychain' },
    ];
  if (platform === 'win32') return [];
  // Both the XDG data folder this process was given and the default one: the keychain daemon was
  // started by the login session, whose XDG_DATA_HOME need not be Airlock's (a terminal that sets
  // its own, a service manager's environment). A relative value is invalid and ignored (XDG Base
  // Directory Specification: "If an implementation encounters a relative path in any of these
  // variables it should consider the path invalid and ignore it"). ~/.gnome2/keyrings is GNOME
  // Keyring's folder before 3.x, still read when present.
  const xdg = env.XDG_DATA_HOME;
  const dataDirs = [...(xdg && isAbsolute(xdg) ? [xdg] : []), join(home, '.local', 'share')].filter(
    (d, i, all) => all.indexOf(d) === i,
  );
  const out: ProtectedPath[] = dataDirs.flatMap((data) => [
    { path: join(data, 'keyrings'), what: "the keychain's files (GNOME Keyring)" },
    { path: join(data, 'kwalletd'), what: "the keychain's files (KWallet)" },
  ]);
  out.push({
    path: join(home, '.gnome2', 'keyrings'),
    what: "the keychain's files (GNOME Keyring)",
  });
  if (env.XDG_RUNTIME_DIR) {
    out.push({ path: join(env.XDG_RUNTIME_DIR, 'keyring'), what: "the keychain's socket" });
    out.push({
      path: join(env.XDG_RUNTIME_DIR, 'bus'),
      what: 'the session bus (it reaches the keychain)',
    });
  }
  const bus = /(?:^|;)unix:(?:[^;]*,)?path=([^,;]+)/.exec(env.DBUS_SESSION_BUS_ADDRESS ?? '');
  if (bus?.[1]) out.push({ path: bus[1], what: 'the session bus (it reaches the keychain)' });
  return out;
}

/** Resolves symbolic links as far as the path exists (the rest is kept as written). */
export function realish(p: string): string {
  const abs = resolve(p);
  let head = abs;
  const tail: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(head), ...tail.reverse());
    } catch {
      const up = dirname(head);
      if (up === head) return abs;
      tail.push(head.slice(up.length).replace(/^[\\/]+/, ''));
      head = up;
    }
  }
}

const fold = (p: string, platform: NodeJS.Platform) =>
  platform === 'darwin' || platform === 'win32' ? p.toLowerCase() : p;

/** `a` is `b` or lies inside it (by whole path segments). */
export function within(
  a: string,
  b: string,
  platform: NodeJS.Platform = process.platform,
): boolean {
  const x = fold(a, platform);
  const y = fold(b, platform);
  if (x === y) return true;
  const root = parse(y).root === y;
  return x.startsWith(root ? y : y + sep);
}

export interface GrantCheck {
  /** The path as the sandbox will bind it (symbolic links resolved). */
  real: string;
  /** Why it may not be granted; absent when it may. */
  refused?: string;
}

/**
 * May `path` be granted? Compared after resolving symbolic links on both sides, since that is
 * what the bind mount (or the seatbelt's path check) acts on.
 */
export function checkGrant(
  path: string,
  guard: readonly ProtectedPath[],
  home: string,
  platform: NodeJS.Platform = process.platform,
): GrantCheck {
  if (!isAbsolute(path)) return { real: path, refused: `${path} is not an absolute path` };
  const real = realish(path);
  const realHome = realish(home);
  if (within(realHome, real, platform))
    return {
      real,
      refused:
        real === realHome
          ? `${path} is your whole home folder (with ~/.ssh, browser profiles and keys); grant the folders the server needs`
          : `${path} contains your whole home folder; grant the folders the server needs`,
    };
  for (const g of guard) {
    const p = realish(g.path);
    if (within(real, p, platform))
      return { real, refused: `${path} is inside ${g.what} (${g.path}), which no server may see` };
    if (within(p, real, platform))
      return { real, refused: `${path} contains ${g.what} (${g.path}), which no server may see` };
  }
  return { real };
}
