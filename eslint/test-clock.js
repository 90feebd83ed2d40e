// @ts-check
// No clock in tests (issue 29 item 2; BRIEF "What done means"): a test is decided by events or a
// fake clock, never by how fast the machine is. On a loaded 2-core CI box a 1000 ms budget, a 2 s
// wait and vi.waitFor's 1 s default all ran out. This rule, on test code only, reports:
//   * wall-clock assertions: expect(<elapsed time>).toBeLessThan(…) — a speed target belongs in
//     `npm run bench` (scripts/bench*.mjs), as a ratio;
//   * short timeouts and budgets: `timeout`, `…TimeoutMs`, `…BudgetMs` set to a literal under
//     10 s, and per-test timeouts under 10 s — safety nets must be generous;
//   * sleeps: `new Promise((r) => setTimeout(r, n))`, `timers/promises`, page.waitForTimeout;
//   * vi.waitFor / vi.waitUntil with their 1 s default (use test-support/eventually.ts or an event).
// Where the clock truly decides nothing (a negative check, a bound against a server that never
// answers), say so: `// eslint-disable-next-line airlock-tests/test-clock -- <why>`.

/** Below this a literal timeout is a race with the machine, not a safety net. */
export const SAFETY_NET_MS = 10_000;

const TIME_NAME = /^(elapsed|duration|took|dt|ms)$|(Elapsed|Duration|Took|Ms)$/;
const TIMEOUT_KEY = /^(timeout|timeoutMs|budgetMs)$|(Timeout|TimeoutMs|BudgetMs)$/;
const CLOCK_CALL = /^(Date\.now|performance\.now|process\.hrtime(\.bigint)?)$/;

/** @param {any} node @returns {string} */
function calleeName(node) {
  if (!node) return '';
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression' && !node.computed)
    return `${calleeName(node.object)}.${node.property.name}`;
  return '';
}

/** Whether the expression reads the clock or names a duration. @param {any} node @returns {boolean} */
function timeLike(node) {
  if (!node || typeof node !== 'object') return false;
  switch (node.type) {
    case 'CallExpression':
      return CLOCK_CALL.test(calleeName(node.callee)) || node.arguments.some(timeLike);
    case 'Identifier':
      return TIME_NAME.test(node.name);
    case 'MemberExpression':
      return !node.computed && node.property.type === 'Identifier'
        ? TIME_NAME.test(node.property.name) || timeLike(node.object)
        : timeLike(node.object);
    case 'BinaryExpression':
      return timeLike(node.left) || timeLike(node.right);
    case 'TSNonNullExpression':
    case 'TSAsExpression':
      return timeLike(node.expression);
    case 'UnaryExpression':
      return timeLike(node.argument);
    default:
      return false;
  }
}

/** A numeric literal (1_000 included) under the safety net, other than 0. @param {any} node */
function shortLiteral(node) {
  return (
    node?.type === 'Literal' &&
    typeof node.value === 'number' &&
    node.value > 0 &&
    node.value < SAFETY_NET_MS
  );
}

/** @param {any} node @returns {string | undefined} */
function keyName(node) {
  if (node.computed) return undefined;
  if (node.key.type === 'Identifier') return node.key.name;
  if (node.key.type === 'Literal') return String(node.key.value);
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'No wall-clock assertions, short timeouts, sleeps or 1 s waits in tests' },
    schema: [],
  },
  create(context) {
    /** @param {any} node @param {string} message */
    const report = (node, message) => context.report({ node, message });
    return {
      CallExpression(node) {
        const callee = node.callee;
        const name = calleeName(callee);
        // expect(elapsed).toBeLessThan(n)
        if (
          callee.type === 'MemberExpression' &&
          !callee.computed &&
          /^toBeLessThan(OrEqual)?$/.test(callee.property.name) &&
          callee.object.type === 'CallExpression' &&
          calleeName(callee.object.callee) === 'expect' &&
          timeLike(callee.object.arguments[0])
        ) {
          report(
            node,
            'A wall-clock assertion decides this test by the machine’s speed. Assert the order of ' +
              'events, or drive time with a fake clock; a speed target goes in `npm run bench`.',
          );
        }
        // it(name, fn, 5000) / test.setTimeout(5000)
        const last = node.arguments[node.arguments.length - 1];
        if (
          (/^(it|test|describe|beforeAll|beforeEach|afterAll|afterEach)(\.(each|only|skip|concurrent))?$/.test(
            name,
          ) &&
            node.arguments.length >= 2 &&
            shortLiteral(last)) ||
          (/^test\.setTimeout$/.test(name) && shortLiteral(node.arguments[0]))
        ) {
          report(node, `A test timeout under ${SAFETY_NET_MS} ms is a race with the machine.`);
        }
        // new Promise((r) => setTimeout(r, n))
        if (name === 'setTimeout' && node.arguments[0]?.type === 'Identifier') {
          const fn = context.sourceCode
            .getAncestors(node)
            .findLast(
              (/** @type {any} */ a) =>
                (a.type === 'ArrowFunctionExpression' || a.type === 'FunctionExpression') &&
                a.parent?.type === 'NewExpression' &&
                a.parent.callee.type === 'Identifier' &&
                a.parent.callee.name === 'Promise',
            );
          if (
            fn &&
            fn.params[0]?.type === 'Identifier' &&
            fn.params[0].name === node.arguments[0].name
          )
            report(
              node,
              'A sleep: wait on the event it stands for (a promise, a core event, a stream that ' +
                'opens), or use a fake clock.',
            );
        }
        if (
          callee.type === 'MemberExpression' &&
          !callee.computed &&
          callee.property.name === 'waitForTimeout'
        )
          report(
            node,
            'page.waitForTimeout is a sleep: wait for what it stands for (an element, a URL, an event).',
          );
        // vi.waitFor(check) with the 1 s default
        if (/^vi\.(waitFor|waitUntil)$/.test(name) && node.arguments.length < 2)
          report(
            node,
            `${name}'s default timeout is 1 s, which a loaded machine misses: wait on an event, or ` +
              'use eventually() from test-support/eventually.ts.',
          );
      },
      Property(node) {
        const key = keyName(node);
        if (key && TIMEOUT_KEY.test(key) && shortLiteral(node.value))
          report(
            node,
            `${key}: ${node.value.raw} is a race with the machine. A timeout in a test is a safety ` +
              `net (≥ ${SAFETY_NET_MS} ms); a budget the test is about is triggered by the test ` +
              '(an injected timer or a fake clock).',
          );
      },
      ImportDeclaration(node) {
        if (/^(node:)?timers\/promises$/.test(String(node.source.value)))
          report(node, 'timers/promises is for sleeping: wait on an event, or use a fake clock.');
      },
    };
  },
};

export default { rules: { 'test-clock': rule } };
