// @ts-check
// Flat config. typescript-eslint "recommended" (NOT type-aware: no parserOptions.project,
// so `eslint .` stays fast and does not need a full TS program).
//
// Layering rules enforced here:
//   * 'electron' may only be imported by the Electron shell: main/shell/** and
//     preload/** (a preload script cannot work without contextBridge/ipcRenderer). Everything
//     else in main/ must stay runnable by the headless Node gateway (`airlock serve`).
//   * renderer/** is browser code: no Node builtins, no electron, no imports of main/**; it shares
//     the contract through common/.
//   * Layers (eslint/layers.js, docs/architecture.md "Layers"): common ← platform ← kernel
//     (tools, store) ← policy (approvals, provenance) ← sources (google, remote, agents, clients)
//     ← gateway ← calls ← app ← cli, shell, preload, renderer; every folder under main/ has a
//     floor; production code never imports test-support/ or e2e/.
//   * common/** is runtime-neutral: no Node builtins, no electron (it runs in the renderer too).
//   * Tests have no clock (eslint/test-clock.js, issue 29 item 2): no wall-clock assertions,
//     short timeouts, sleeps or 1 s waits; they wait on events or use fake clocks.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import airlock from './eslint/layers.js';
import airlockTests from './eslint/test-clock.js';

const ELECTRON_MSG =
  'Only main/shell/** and preload/** may import electron. ' +
  'Keep core/gateway code runnable headless; go through an interface injected from main/shell.';
const NODE_IN_RENDERER_MSG =
  'renderer/** and common/** run in a sandboxed browser context: no Node builtins. Ask main via the preload API.';
const MAIN_IN_RENDERER_MSG =
  'renderer/** must not import main/** at runtime (use `import type` for shared types, or the preload API).';

/** Restriction of 'electron' (bare and subpaths such as 'electron/main'). */
const electronPaths = [{ name: 'electron', message: ELECTRON_MSG }];
const electronPatterns = [{ group: ['electron/*'], message: ELECTRON_MSG }];

/** Every Node builtin, both bare ('fs', 'fs/promises') and 'node:'-prefixed. */
const nodeBuiltinPaths = builtinModules
  .filter((m) => !m.startsWith('_') && !m.startsWith('node:'))
  .map((name) => ({ name, message: NODE_IN_RENDERER_MSG }));
const nodeBuiltinPatterns = [{ group: ['node:*'], message: NODE_IN_RENDERER_MSG }];

/**
 * Catch the non-static forms no-restricted-imports cannot see:
 * `await import('electron')` and `require('electron')` (incl. subpaths).
 */
const electronSyntax = [
  {
    selector: 'ImportExpression[source.value=/^electron(\\u002F|$)/]',
    message: ELECTRON_MSG,
  },
  {
    selector: "CallExpression[callee.name='require'][arguments.0.value=/^electron(\\u002F|$)/]",
    message: ELECTRON_MSG,
  },
];

export default defineConfig(
  globalIgnores([
    '**/dist/',
    '**/node_modules/',
    'test-results/',
    'playwright-report/',
    'release/',
    'coverage/',
    '.airlock-test/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,

  // Defaults for all source: Node ESM.
  {
    files: ['**/*.{js,mjs,cjs,ts,mts,cts,tsx}'],
    languageOptions: {
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      'no-restricted-imports': ['error', { paths: electronPaths, patterns: electronPatterns }],
      'no-restricted-syntax': ['error', ...electronSyntax],
    },
  },

  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },

  // The Electron shell (and its tests) and the preload bridge may use electron.
  {
    files: ['main/shell/**', 'preload/**'],
    rules: {
      'no-restricted-imports': 'off',
      'no-restricted-syntax': 'off',
    },
  },

  // The layering rule, for everything under main/, common/, preload/ and renderer/.
  {
    files: [
      'main/**/*.{ts,mts,mjs}',
      'common/**/*.ts',
      'preload/**/*.ts',
      'renderer/src/**/*.{ts,tsx}',
    ],
    plugins: { airlock },
    rules: { 'airlock/layers': 'error' },
  },

  // Tests: no clock decides them (eslint/test-clock.js). The fakes of e2e/fake-google/ may
  // simulate latency; they are servers, not tests.
  {
    files: [
      '**/*.test.{ts,tsx}',
      'e2e/*.spec.ts',
      'e2e/helpers/**/*.ts',
      'test-support/**/*.{ts,mjs,js}',
      'vitest.config.ts',
      'playwright.config.ts',
    ],
    plugins: { 'airlock-tests': airlockTests },
    rules: { 'airlock-tests/test-clock': 'error' },
  },

  // common/: the contract shared by main, preload and renderer; no runtime of its own.
  {
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...electronPaths, ...nodeBuiltinPaths],
          patterns: [...electronPatterns, ...nodeBuiltinPatterns],
        },
      ],
    },
  },

  // Renderer: browser globals only; no electron, no Node builtins, no runtime main/** imports.
  {
    files: ['renderer/**/*.{js,mjs,ts,tsx}'],
    ignores: ['renderer/vite.config.ts'], // build tooling, runs in Node
    languageOptions: {
      globals: { ...globals.browser },
    },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...electronPaths, ...nodeBuiltinPaths],
          patterns: [...electronPatterns, ...nodeBuiltinPatterns],
        },
      ],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // '../../main/x.js', '../../../main', '@main/x' (alias) …
              regex: '^(?:(?:\\.\\./)+|@)main(?:/|$)',
              message: MAIN_IN_RENDERER_MSG,
              allowTypeImports: true,
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        ...electronSyntax,
        { selector: "CallExpression[callee.name='require']", message: NODE_IN_RENDERER_MSG },
      ],
    },
  },
);
