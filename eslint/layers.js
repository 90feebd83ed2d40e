// @ts-check
// The house rule (docs/architecture.md "Layers"): code may import its own layer or a lower one,
// never a higher one; production code never imports test code. Resolved on file paths, so
// `import type` counts too — a type is a dependency of the design even if erased at build time.
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Lower number = lower floor. Checked in order; first match wins. */
export const LAYERS = [
  { name: 'common', rank: 0, match: /^common\// },
  { name: 'platform', rank: 1, match: /^main\/platform\// },
  {
    name: 'services',
    rank: 2,
    match: /^main\/(tools|store|approvals|agents|gateway|remote|google|clients|provenance)\//,
  },
  { name: 'app', rank: 3, match: /^main\/app\// },
  { name: 'entry', rank: 4, match: /^main\/(cli|shell)\/|^main\/(cli|index)\.[jt]s$/ },
  { name: 'preload', rank: 4, match: /^preload\// },
  { name: 'renderer', rank: 4, match: /^renderer\/src\// },
];
const TEST_CODE = /^(test-support|e2e)\/|\.(test|spec)\.tsx?$|\.probe\.mjs$/;

/** @param {string} rel */
const layerOf = (rel) => LAYERS.find((l) => l.match.test(rel));

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports go down the layers: common ← platform ← services ← app ← entry' },
    schema: [],
  },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join('/');
    if (TEST_CODE.test(file)) return {};
    const from = layerOf(file);
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
            'imports go down the layers common ← platform ← services ← app ← cli/shell. ' +
            'Pass what you need in through a constructor or an interface of the lower layer.',
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
