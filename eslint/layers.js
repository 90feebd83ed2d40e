// @ts-check
// The house rule (docs/architecture.md "Layers"): code may import its own layer or a lower one,
// never a higher one; production code never imports test code. Resolved on file paths, so
// `import type` counts too — a type is a dependency of the design even if erased at build time.
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Lower number = lower floor. Checked in order; first match wins. Every folder under main/ must
 * have a floor: a file in an unranked folder is itself an error (issue 31), so a new folder is
 * placed in the plan before it can hold code.
 *
 * The services of issue 31, ranked: kernel (tools, store) ← policy (approvals, provenance) ←
 * sources (google, remote, agents, clients; never each other) ← gateway (reaches sources only
 * through the tool registry and its own AgentToolCalls/AgentFeatures interfaces) ← calls (the
 * call path, which implements those interfaces) ← app (composition, ControlService) ← entry (cli,
 * shell; never each other).
 */
export const LAYERS = [
  { name: 'common', rank: 0, match: /^common\// },
  { name: 'platform', rank: 1, match: /^main\/platform\// },
  { name: 'kernel', rank: 2, match: /^main\/(tools|store)\// },
  { name: 'policy', rank: 3, match: /^main\/(approvals|provenance)\// },
  { name: 'sources', rank: 4, match: /^main\/(google|remote|agents|clients)\// },
  { name: 'gateway', rank: 5, match: /^main\/gateway\// },
  { name: 'calls', rank: 6, match: /^main\/calls\// },
  { name: 'app', rank: 7, match: /^main\/app\// },
  {
    name: 'entry',
    rank: 8,
    match: /^main\/(cli|shell)\/|^main\/(cli|index|desktop)\.[jt]s$/,
  },
  { name: 'preload', rank: 8, match: /^preload\// },
  { name: 'renderer', rank: 8, match: /^renderer\/src\// },
];

/**
 * Floors that may not import a given lower floor: the gateway reaches sources only through the
 * registry and the call path's interfaces, so a source is never a dependency of the endpoint.
 */
const NOT_BELOW = { gateway: new Set(['sources']) };

/** Folders of one floor that may not import each other (first path segment under main/). */
const SIBLINGS_APART = new Set(['sources', 'entry']);

/** The entry files directly in main/ and the entry folders each one starts. */
const ENTRY_FILES = {
  'cli.ts': new Set(['cli']),
  'index.ts': new Set(['desktop.ts']),
  'desktop.ts': new Set(['shell']),
};

/** `main/<folder>` of a path, or the path's own name for files directly in main/. */
const folderOf = (/** @type {string} */ rel) => /^main\/([^/]+)/.exec(rel)?.[1] ?? rel;

const TEST_CODE = /^(test-support|e2e)\/|\.(test|spec)\.tsx?$|\.probe\.mjs$/;

/** @param {string} rel */
const layerOf = (rel) => LAYERS.find((l) => l.match.test(rel));

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Imports go down the floors: common ← platform ← kernel ← policy ← sources ← gateway ← calls ← app ← entry',
    },
    schema: [],
  },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join('/');
    if (TEST_CODE.test(file)) return {};
    const from = layerOf(file);
    if (!from && /^main\/[^/]+\//.test(file)) {
      return {
        Program: (node) =>
          context.report({
            node,
            message:
              `${file} is in a folder with no floor. Give main/${folderOf(file)}/ a rank in ` +
              'eslint/layers.js and docs/architecture.md ("Layers") before adding code to it.',
          }),
      };
    }
    /** @param {any} node @param {unknown} spec */
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path
        .relative(ROOT, path.resolve(path.dirname(context.filename), spec))
        .split(path.sep)
        .join('/');
      if (TEST_CODE.test(target) || /^test-support\//.test(target)) {
        context.report({ node, message: `Production code may not import test code (${target}).` });
        return;
      }
      const to = layerOf(target);
      if (!from || !to) return;
      if (
        to.rank > from.rank ||
        (from.name === 'preload' && to.name !== 'preload' && to.rank > 0)
      ) {
        context.report({
          node,
          message:
            `${from.name} (${file}) may not import ${to.name} (${target}): ` +
            'imports go down the floors common ← platform ← kernel ← policy ← sources ← gateway ← calls ← app ← cli/shell. ' +
            'Pass what you need in through a constructor or an interface of the lower layer.',
        });
      }
      if (/** @type {Record<string, Set<string>>} */ (NOT_BELOW)[from.name]?.has(to.name)) {
        context.report({
          node,
          message:
            `${from.name} may not import ${to.name} (${target}): it reaches them only through the ` +
            'tool registry and its own interfaces (AgentToolCalls, AgentFeatures), passed in by the app.',
        });
      }
      if (
        to.rank === from.rank &&
        SIBLINGS_APART.has(from.name) &&
        folderOf(file) !== folderOf(target) &&
        // main/cli.ts starts main/cli/; main/index.ts → main/desktop.ts starts main/shell/.
        !(
          /** @type {Record<string, Set<string>>} */ (ENTRY_FILES)[folderOf(file)]?.has(
            folderOf(target).replace(/\.js$/, '.ts'),
          )
        )
      ) {
        context.report({
          node,
          message:
            `${from.name} may not import each other: ${file} → ${target}. ` +
            'Put what both need on a lower floor, or let the floor above wire them together.',
        });
      }
      if (from.name === 'renderer' && to.rank > 0 && to.name !== 'renderer') {
        context.report({ node, message: `renderer may import only common/ (got ${target}).` });
      }
    };
    return {
      ImportDeclaration: (n) => check(n, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
      ExportAllDeclaration: (n) => check(n, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n, n.source.value),
    };
  },
};

export default { rules: { layers: rule } };
