import type { BudgetTimer } from '../main/tools/schema-worker-pool.js';

/**
 * The schema pool's budget timer, run by the test: running budgets run out when `expire()` says
 * so, never because the machine was slow (issue 29 item 2: a cold worker's first compile outran a
 * real 1000 ms budget on a loaded CI box).
 */
export function budgetTrigger() {
  const running = new Set<() => void>();
  const waiting: (() => void)[] = [];
  const budgetTimer: BudgetTimer = (expire) => {
    running.add(expire);
    for (const w of waiting.splice(0)) w();
    return () => void running.delete(expire);
  };
  return {
    budgetTimer,
    /** Resolves once a validation's budget is running (its worker has loaded the validator). */
    armed: (): Promise<void> =>
      running.size > 0 ? Promise.resolve() : new Promise((r) => waiting.push(r)),
    /** Every running budget runs out now. */
    expire(): void {
      for (const e of [...running]) {
        running.delete(e);
        e();
      }
    },
  };
}

/** Recursive `$ref`s fanning out 2× per level: 2^40 steps over a 40-deep value. */
export const EXPONENTIAL_SCHEMA = {
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

/** `{c: {c: … {}}}`, `depth` deep: what EXPONENTIAL_SCHEMA fans out over. */
export function nested(depth: number): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) v = { c: v };
  return v;
}
