#!/usr/bin/env node
// Schema checks within their budget (issue 17 item 3; issue 29 item 2): how much of the default
// budget (DEFAULT_BUDGET_MS) a legitimate validation uses in a cold worker (its first schema
// compile) and a warm one, measured over exactly the span the budget covers (the pool's
// budgetTimer seam: from the worker's load to the answer). The tests no longer race this budget
// (main/tools/schema-budget.security.test.ts pulls a trigger instead); the speed target lives
// here, as a ratio, so a slower machine shows as a figure, not a failed test.
// Needs a build (npm run build:main). Prints figures; asserts nothing.
//
//   node scripts/bench-schema.mjs [--long]
import { percentile, row } from './bench-lib.mjs';

const { SchemaWorkerPool, DEFAULT_BUDGET_MS } = await import(
  new URL('../dist/main/tools/schema-worker-pool.js', import.meta.url).href
);
const long = process.argv.includes('--long');
const COLD = long ? 40 : 12;
const WARM = long ? 400 : 100;
/** A cold worker's first legitimate check may use at most this share of the budget (p99). */
const TARGET = 0.25;

/** The case: recursive $refs (2^depth steps), over arguments 3 deep — legitimate. */
const EXPONENTIAL = {
  type: 'object',
  properties: { c: { $ref: '#/$defs/n' } },
  $defs: {
    n: {
      anyOf: [
        { type: 'object', properties: { c: { $ref: '#/$defs/n' } }, required: ['x'] },
        { type: 'object', properties: { c: { $ref: '#/$defs/n' } }, required: ['y'] },
      ],
    },
  },
};
/** A usual remote tool's schema with a shared definition. */
const TYPICAL = {
  type: 'object',
  properties: {
    to: { type: 'array', items: { $ref: '#/$defs/address' } },
    subject: { type: 'string', maxLength: 998 },
    body: { type: 'string' },
  },
  required: ['to'],
  $defs: { address: { type: 'string', pattern: '^[^@\\s]+@[^@\\s]+$' } },
};
const nested = (depth) => {
  let v = {};
  for (let i = 0; i < depth; i++) v = { c: v };
  return v;
};
const CASES = [
  ['recursive $ref, 3 deep', EXPONENTIAL, nested(3)],
  ['typical $ref schema', TYPICAL, { to: ['ann@example.com'], subject: 'Hi', body: 'x' }],
];

/** A pool whose budget spans are recorded (start → cancel), never running out. */
function measuredPool() {
  const spans = [];
  const budgetTimer = () => {
    const t0 = performance.now();
    return () => spans.push(performance.now() - t0);
  };
  return { pool: new SchemaWorkerPool({ maxWorkers: 1, budgetTimer }), spans };
}

console.log(`schema checks against the default budget (${DEFAULT_BUDGET_MS} ms)`);
for (const [label, schema, value] of CASES) {
  const cold = [];
  for (let i = 0; i < COLD; i++) {
    const { pool, spans } = measuredPool();
    await pool.validate(structuredClone(schema), value);
    cold.push(spans[0]);
    await pool.close();
  }
  const { pool, spans } = measuredPool();
  const warmSchema = structuredClone(schema);
  for (let i = 0; i < WARM + 1; i++) await pool.validate(warmSchema, value);
  await pool.close();
  const warm = spans.slice(1);
  const coldShare = percentile(cold, 99) / DEFAULT_BUDGET_MS;
  row(
    `${label}: cold worker, p50 / p99`,
    `${percentile(cold, 50).toFixed(1)} / ${percentile(cold, 99).toFixed(1)} ms`,
  );
  row(
    `${label}: cold p99 share of the budget`,
    `${(coldShare * 100).toFixed(1)} %  ${coldShare <= TARGET ? 'MET' : 'MISSED'}`,
    `≤ ${TARGET * 100} %`,
  );
  row(
    `${label}: warm worker, p50 / p99`,
    `${percentile(warm, 50).toFixed(2)} / ${percentile(warm, 99).toFixed(2)} ms`,
  );
}
