import { mkdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Per-OS application-data folder, the same place Electron's app.getPath('userData') uses. */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Airlock');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Airlock');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'airlock');
}

/** `--data-dir` beats `AIRLOCK_DATA_DIR` beats the per-OS default. Created 0700 if missing. */
export function resolveDataDir(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? env.AIRLOCK_DATA_DIR ?? defaultDataDir(process.platform, env);
  const dir = resolve(chosen);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return realpathSync(dir);
}

export interface DataPaths {
  dir: string;
  settings: string;
  database: string;
  serverInfo: string;
  lock: string;
  logs: string;
}

export function dataPaths(dir: string): DataPaths {
  return {
    dir,
    settings: join(dir, 'settings.json'),
    database: join(dir, 'airlock.db'),
    serverInfo: join(dir, 'server.json'),
    lock: join(dir, 'airlock.lock'),
    logs: join(dir, 'logs'),
  };
}
