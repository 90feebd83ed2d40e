/** The platform rules the fakes follow, and Electron's preventable events. */

export type Listener = (...args: unknown[]) => unknown;

/**
 * The platform rules the fake follows (issue 21, item 9). Real Electron
 * behaves differently per OS and session; tests set these to the case
 * they model. Defaults: X11 Linux with a working tray.
 */
export const platformRules = {
  platform: 'linux' as NodeJS.Platform,
  /** Wayland: `focus()` from the app is not honoured, and neither is alwaysOnTop. */
  wayland: false,
  /**
   * Whether a created Tray is actually visible to the user. GNOME without the
   * AppIndicator extension shows nothing, and Electron does not say so: the
   * Tray object is created as usual.
   */
  trayVisible: true,
  /** Whether `loadURL` leads to 'ready-to-show' (it may not: e.g. a window never painted while hidden). */
  readyToShow: true,
  /**
   * Whether the tray host reports a menu closing. Not every one does: on Linux, Menu events of a
   * tray's context menu may not fire (electron/electron#28837), and a host may report the menu
   * opening and never its closing.
   */
  trayMenuCloseReported: true,
};

/** An Electron-style event whose default can be prevented. */
export function preventable<T extends object>(
  extra: T = {} as T,
): T & { preventDefault(): void; defaultPrevented: boolean } {
  const e = {
    ...extra,
    defaultPrevented: false,
    preventDefault: () => void (e.defaultPrevented = true),
  };
  return e;
}
