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
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { BUNDLE_OUTPUT } from './bundle-output.mjs';
// tsc's output of the bookkeeping a running serve shares with this build (build:main runs tsc first).
import { filesInUse, GENERATION, isBookkeeping } from '../dist/main/platform/bundle-in-use.js';

const args = process.argv.slice(2);
/**
 * `--charset=utf8` builds the bundle with its characters as written and its JSDoc comments kept:
 * the reference that main/cli/bundle-ascii.test.ts holds the shipped (ASCII) bundle equal to.
 */
const REFERENCE = args.includes('--charset=utf8');
const positional = args.filter((a) => !a.startsWith('--'));
/** The checkout whose dist/main/ is bundled: this one, or the one named (tests bundle a copy). */
const root = positional[0] ? resolve(positional[0]) : fileURLToPath(new URL('..', import.meta.url));

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

// Written beside dist/main/bundle/ (same depth, so relative paths come out the same), then moved
// in file by file, never by swapping the folder. A running `airlock serve` imports chunks lazily
// (the /mcp endpoint with the first agent request, the Google tools at first use) by the hashed
// names its own build gave them, from the folder its cli.js was loaded from: after a rebuild with
// changed sources (`git pull && npm run build` while it runs) those names must still be there, or
// every /mcp request answers 500 until a restart. So the chunks of this build and of the build
// before it are kept (GENERATION lists the latter); older ones are removed. Every file arrives by
// rename, which replaces a file whole: an `airlock` started meanwhile, or a second build at the
// same moment (tests rebuild dist/ while others run the CLI, test-support/build.ts), finds the old
// cli.js or the new one and every chunk it names; chunks go in first, the entries (no hash in
// their names) last.
// And a running `airlock serve` records its own build's list (main/platform/bundle-in-use.ts),
// whose files are kept while it runs, however many builds come after.
/** Entries' names carry no hash: each build replaces them, cli.js at the very end. */
const LAST = ['compile-cache.js.map', 'compile-cache.js', 'cli.js.map', 'cli.js'];

const dist = join(root, 'dist', 'main');
const fresh = join(dist, `.bundle-new-${process.pid}`);
// A build stopped midway (Ctrl+C: no `finally`) leaves its folder; electron-builder.yml would
// pack it (it leaves out dist/main/bundle/ only). Removed once its build's process is gone.
for (const d of readdirSync(dist)) {
  const pid = /^\.bundle-(?:new|old)-(\d+)$/.exec(d)?.[1];
  if (pid && !running(Number(pid))) rmSync(join(dist, d), { recursive: true, force: true });
}
try {
  await bundle(fresh);
  install(fresh, join(dist, 'bundle'));
} finally {
  rmSync(fresh, { recursive: true, force: true });
}

function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM'; // someone else's process: not ours to judge
  }
}

function install(from, to) {
  const files = readdirSync(from).sort((a, b) => LAST.indexOf(a) - LAST.indexOf(b));
  mkdirSync(to, { recursive: true });
  // (A list another build is writing this moment, GENERATION.<pid>, is that build's to move.)
  const before = readdirSync(to).filter((f) => !isBookkeeping(f));
  let previous;
  try {
    previous = JSON.parse(readFileSync(join(to, GENERATION), 'utf8'));
  } catch {
    previous = before; // a bundle from before this file was kept: keep all of it, this once
  }
  for (const f of files) renameSync(join(from, f), join(to, f));
  const keep = new Set([...files, ...previous, ...filesInUse(to, running)]);
  for (const f of before) if (!keep.has(f)) rmSync(join(to, f), { force: true, recursive: true });
  const list = join(to, `${GENERATION}.${process.pid}`);
  writeFileSync(list, JSON.stringify(files));
  renameSync(list, join(to, GENERATION));
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
          // ASCII-only, no comments but licences (issue 34, RSS): scripts/bundle-output.mjs says why.
          ...(REFERENCE ? BUNDLE_OUTPUT.reference : BUNDLE_OUTPUT.shipped),
          entryFileNames: '[name].js',
          // Named for the module a chunk starts from (cli/context.ts → context-<hash>.js).
          chunkFileNames: '[name]-[hash].js',
        },
      },
    },
  });
}
