import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ShellPaths {
  /** Built renderer served at app://airlock/ (vite → dist/renderer). */
  rendererDir: string;
  /** The bundled sandbox preload (scripts/build-preload.mjs → dist/preload/preload.cjs). */
  preload: string;
  /** Tray and app icons: resources/ from source, <resources>/resources when packaged (extraResources). */
  resourcesDir: string;
}

/**
 * Where the shell's files are, relative to the compiled shell in
 * dist/main/shell/ (inside app.asar when packaged).
 */
export function shellPaths(opts: {
  isPackaged: boolean;
  resourcesPath?: string;
  distDir?: string;
}): ShellPaths {
  const dist = opts.distDir ?? fileURLToPath(new URL('../../', import.meta.url));
  return {
    rendererDir: join(dist, 'renderer'),
    preload: join(dist, 'preload', 'preload.cjs'),
    resourcesDir:
      opts.isPackaged && opts.resourcesPath
        ? join(opts.resourcesPath, 'resources')
        : join(dist, '..', 'resources'),
  };
}
