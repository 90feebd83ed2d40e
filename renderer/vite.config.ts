import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The renderer is served two ways: by the gateway at `/` (headless, strict CSP:
// script-src 'self', no inline scripts) and from packaged files in Electron.
// `base: './'` keeps asset URLs relative so both work.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2023',
    // No inline module-preload polyfill script: the CSP forbids inline scripts.
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
});
