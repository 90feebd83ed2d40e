#!/usr/bin/env node
// Bundles preload/preload.ts into ONE CommonJS file, dist/preload/preload.cjs.
// Why: the preload runs with `sandbox: true`, where Electron gives it only a small
// `require` (electron's renderer modules and a few Node polyfills) and no ES modules,
// so the tsc output (ESM, one file per module) cannot be loaded there.
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

await build({
  root,
  configFile: false,
  logLevel: 'warn',
  build: {
    lib: { entry: 'preload/preload.ts', formats: ['cjs'], fileName: () => 'preload.cjs' },
    outDir: 'dist/preload',
    // tsc writes dist/preload/*.js as well; keep them.
    emptyOutDir: false,
    target: 'es2023',
    minify: false,
    sourcemap: false,
    rollupOptions: { external: ['electron'] },
  },
});
