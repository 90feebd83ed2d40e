import { execFile } from 'node:child_process';

/**
 * Whether a tray icon will be seen (issue 21, item 4). Electron cannot
 * tell: on Linux it draws the icon through a StatusNotifierItem when a
 * StatusNotifierWatcher owns its D-Bus name, and otherwise falls back to
 * an XEmbed icon — which GNOME Shell (without the AppIndicator extension)
 * and every Wayland session show nowhere. `new Tray()` succeeds either way.
 *
 * What can be detected honestly: whether a watcher is on the session bus
 * (then 'yes'). Without one, GNOME and Wayland sessions show nothing ('no');
 * an X11 desktop may still have an XEmbed tray (XFCE, MATE), which we
 * cannot see from here ('unknown'). macOS and Windows always have one.
 */
export type TraySupport = 'yes' | 'no' | 'unknown';

/** Asks the session bus whether org.kde.StatusNotifierWatcher has an owner; null when it cannot ask. */
export type WatcherProbe = () => Promise<boolean | null>;

export const probeStatusNotifierWatcher: WatcherProbe = () =>
  new Promise((resolve) => {
    execFile(
      'gdbus',
      [
        'call',
        '--session',
        '--dest',
        'org.freedesktop.DBus',
        '--object-path',
        '/org/freedesktop/DBus',
        '--method',
        'org.freedesktop.DBus.NameHasOwner',
        'org.kde.StatusNotifierWatcher',
      ],
      { timeout: 2000 },
      (err, stdout) => {
        if (err) return resolve(null);
        if (/\btrue\b/.test(stdout)) return resolve(true);
        if (/\bfalse\b/.test(stdout)) return resolve(false);
        resolve(null);
      },
    );
  });

export async function traySupport(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  probe: WatcherProbe = probeStatusNotifierWatcher,
): Promise<TraySupport> {
  if (platform !== 'linux') return 'yes';
  const watcher = await probe();
  if (watcher === true) return 'yes';
  const desktops = (env.XDG_CURRENT_DESKTOP ?? '').toUpperCase().split(':');
  const gnome = desktops.includes('GNOME');
  const wayland = env.XDG_SESSION_TYPE === 'wayland' || !!env.WAYLAND_DISPLAY;
  if (watcher === false) return gnome || wayland ? 'no' : 'unknown';
  // Could not ask the bus (no gdbus): plain GNOME ships without a tray; Ubuntu's GNOME has
  // the AppIndicator extension on by default.
  if (gnome && !desktops.includes('UBUNTU')) return 'no';
  return 'unknown';
}
