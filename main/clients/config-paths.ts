import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientsEnv, ConfigSource } from './client-defs.js';

/** The app-data folder of a desktop app (Claude, Code, Zed) per OS. */
export function appDir(e: ClientsEnv, name: string, linuxName = name): string {
  if (e.platform === 'darwin') return join(e.home, 'Library', 'Application Support', name);
  if (e.platform === 'win32') return join(e.appData ?? join(e.home, 'AppData', 'Roaming'), name);
  return join(e.xdgConfig ?? join(e.home, '.config'), linuxName);
}

export const json = (
  path: string,
  keyPath: string[],
  scope: 'user' | 'project' = 'user',
): ConfigSource => ({ path, scope, format: 'json', keyPath });

/** The first of `paths` that exists, else `fallback` (a client with several documented places). */
export const firstExisting = (paths: string[], fallback: string): string =>
  paths.find((p) => existsSync(p)) ?? fallback;
