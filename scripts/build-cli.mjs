#!/usr/bin/env node
// Bundles the headless CLI (dist/main/cli.js, tsc's output) into dist/main/bundle/: cli.js plus one
// chunk per group of lazily imported modules. Why (issue 34, cold start): `airlock serve` loaded
// ≈ 220 separate ES modules at start, and resolving, reading and linking each costs time; one file
// (and a few chunks for what is imported later) starts faster. bin/airlock.js runs the bundle.
// tsc's per-file dist/main/ stays: the Electron main process (dist/main/index.js), the schema
// worker (dist/main/tools/schema-validator.js), tests and benches import those files.
//
// dist/main/bundle/ sits at the same depth as dist/main/<folder>/, so the code's look-ups relative
// to its own file (`new URL('../../renderer/', import.meta.url)` and the like) resolve the same
// from a chunk as from tsc's output. docs/architecture.md ("Build") says what is bundled and why.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Packages bundled in: pure JavaScript, loaded at start or by the first MCP request, and reading
 * nothing relative to their own files. Every other package stays an import resolved from
 * node_modules at run time, as with tsc's output: native addons (better-sqlite3, @napi-rs/keyring),
 * electron, and what the Google tools load lazily (main/google/lazy.ts: googleapis,
 * google-auth-library, nodemailer, mammoth, unpdf, …), which is off the cold-start path and partly
 * CommonJS that reads files next to itself. A package added later stays external until named here.
 */
const BUNDLED = [
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/core',
  '@modelcontextprotocol/node',
  '@modelcontextprotocol/server',
  'zod',
  'eventsource-parser',
  'jsonc-parser',
  'smol-toml',
  'entities',
  'postal-mime',
];

const builtins = new Set(builtinModules);
const packageOf = (id) =>
  id
    .split('/')
    .slice(0, id.startsWith('@') ? 2 : 1)
    .join('/');

/** Bare specifiers that stay imports (node builtins and packages not in BUNDLED). */
function isExternal(id) {
  if (id.startsWith('node:') || builtins.has(id) || id.endsWith('.node')) return true;
  if (id.startsWith('.') || id.startsWith('/') || id.startsWith('\0') || /^[A-Za-z]:/.test(id))
    return false;
  return !BUNDLED.includes(packageOf(id));
}

// Written beside dist/main/bundle/ (same depth, so relative paths come out the same) and swapped
// in by two renames moments apart: an `airlock` started meanwhile (tests rebuild dist/ while others run the CLI,
// test-support/build.ts) finds the old bundle or the new one, never a folder half emptied.
const dist = join(root, 'dist', 'main');
const fresh = join(dist, `.bundle-new-${process.pid}`);
const stale = join(dist, `.bundle-old-${process.pid}`);
try {
  await bundle(fresh);
  if (existsSync(join(dist, 'bundle'))) renameSync(join(dist, 'bundle'), stale);
  renameSync(fresh, join(dist, 'bundle'));
} finally {
  rmSync(fresh, { recursive: true, force: true });
  rmSync(stale, { recursive: true, force: true });
}

async function bundle(outDir) {
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    // A server build: Node's resolution conditions ("node", "import"), not a browser's.
    ssr: { target: 'node', noExternal: true },
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: 'node22',
      minify: false,
      // For debuggers and --enable-source-maps (through to tsc's maps); the .map files stay out
      // of the package (electron-builder.yml drops **/*.map) as tsc's do.
      sourcemap: true,
      rolldownOptions: {
        // compile-cache.js: bin/airlock.js turns the compile cache on before it loads cli.js.
        input: {
          cli: 'dist/main/cli.js',
          'compile-cache': 'dist/main/platform/compile-cache.js',
        },
        external: isExternal,
        output: {
          format: 'es',
          entryFileNames: '[name].js',
          // Named for the module a chunk starts from (cli/context.ts → context-<hash>.js).
          chunkFileNames: '[name]-[hash].js',
        },
      },
    },
  });
}
