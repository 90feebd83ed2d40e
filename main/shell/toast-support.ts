import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { shell } from 'electron';

/**
 * Whether Windows will show Airlock's notifications (issue 32, item 7). Windows shows a toast
 * only for an app with a Start-menu shortcut that carries its AppUserModelID (Electron's
 * docs/tutorial/notifications.md, "Windows": "your Electron app needs to have a Start Menu
 * shortcut with an AppUserModelID"); without one the toast is dropped silently — no 'failed'
 * event — so a request would wait unseen. The NSIS installer creates that shortcut; a portable
 * build or a run from source has none.
 *
 * Looks through the user's and the machine's Start-menu Programs folders (two levels: the
 * installer may use a category folder) for a .lnk whose AppUserModelID is `appId`
 * (shell.readShortcutLink, which throws on a link it cannot read).
 */
export function hasToastShortcut(appId: string, env: NodeJS.ProcessEnv): boolean {
  const roots = [env.APPDATA, env.PROGRAMDATA ?? env.ALLUSERSPROFILE]
    .filter((d): d is string => !!d)
    .map((d) => join(d, 'Microsoft', 'Windows', 'Start Menu', 'Programs'));
  return roots.some((root) => linksIn(root, 2).some((lnk) => aumidOf(lnk) === appId));
}

function linksIn(dir: string, depth: number): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return depth > 1 ? linksIn(path, depth - 1) : [];
    return e.isFile() && e.name.toLowerCase().endsWith('.lnk') ? [path] : [];
  });
}

function aumidOf(lnk: string): string | undefined {
  try {
    return shell.readShortcutLink(lnk).appUserModelId;
  } catch {
    return undefined;
  }
}
