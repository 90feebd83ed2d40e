import { afterAll, describe, expect, it } from 'vitest';
import { SchemaWorkerPool } from './schema-worker-pool.js';
import { budgetTrigger, EXPONENTIAL_SCHEMA, nested } from '../../test-support/budget-trigger.js';

/**
 * `checkResult`: a remote tool result's structured content against the tool's output schema, by
 * the rules arguments are checked by (inline when cheap, else in a worker within the budget), with
 * answers worded for a result. schema-budget.security.test.ts covers the pool's bounds themselves.
 */
const pools: SchemaWorkerPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});
function pool(o: ConstructorParameters<typeof SchemaWorkerPool>[0] = {}): SchemaWorkerPool {
  const p = new SchemaWorkerPool({ budgetMs: 600_000, ...o });
  pools.push(p);
  return p;
}

const WITH_REF = {
  type: 'object',
  properties: { a: { $ref: '#/$defs/s' } },
  $defs: { s: { type: 'string' } },
  required: ['a'],
};

describe('SchemaWorkerPool.checkResult', () => {
  it('valid: null; a mismatch: its problems, the top named (structuredContent)', async () => {
    const p = pool();
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    expect(await p.checkResult(schema, { n: 3 })).toBeNull();
    expect(await p.checkResult(schema, { n: 'x' })).toEqual({ mismatch: '/n must be number' });
    expect(await p.checkResult(schema, {})).toEqual({
      mismatch: "(structuredContent) must have required property 'n'",
    });
  });

  it('a costly schema ($ref) is checked in a worker, with the same answers', async () => {
    const p = pool();
    expect(await p.checkResult(WITH_REF, { a: 'x' })).toBeNull();
    expect(await p.checkResult(WITH_REF, { a: 1 })).toEqual({ mismatch: '/a must be string' });
    expect(await p.checkResult(WITH_REF, {})).toEqual({
      mismatch: "(structuredContent) must have required property 'a'",
    });
  });

  it('arguments keep their own words for the top', async () => {
    const p = pool();
    expect(await p.validate(WITH_REF, {})).toBe("(arguments) must have required property 'a'");
  });

  it('over budget: unchecked, saying so (the call did run; remote-calls.ts says that)', async () => {
    const trigger = budgetTrigger();
    const p = pool({ budgetMs: 60_000, maxWorkers: 1, budgetTimer: trigger.budgetTimer });
    const check = p.checkResult(EXPONENTIAL_SCHEMA, nested(40));
    await trigger.armed();
    trigger.expire();
    expect(await check).toEqual({
      unchecked:
        "checking it went over Airlock's limits (60000 ms, 256 MB); if this keeps happening, " +
        "the server's output schema is too costly to check (tell its maintainer)",
    });
  });

  it("one caller's calls and results share its bound: a call over it is refused, a result waits for it", async () => {
    const trigger = budgetTrigger();
    const p = pool({ maxWorkers: 1, budgetTimer: trigger.budgetTimer });
    const held = [1, 2, 3, 4].map(() => p.validate(EXPONENTIAL_SCHEMA, nested(40), 'agent'));
    expect(await p.validate(EXPONENTIAL_SCHEMA, nested(2), 'agent')).toBe(
      'Airlock is still checking 4 earlier calls of yours against costly schemas; ' +
        'wait for their answers before sending more.',
    );
    // A result's call has run: refusing its check would lose the answer of a call that ran (an
    // agent sending five calls at once to a tool whose output schema has a $ref, say).
    let late: unknown = 'waiting';
    const result = p.checkResult(WITH_REF, { a: 1 }, 'agent').then((r) => (late = r));
    for (const call of held) {
      await trigger.armed();
      expect(late).toBe('waiting');
      trigger.expire();
      expect(await call).toMatch(/went over Airlock's limits/);
    }
    expect(await result).toEqual({ mismatch: '/a must be string' });
  });

  it('a stopping pool checks nothing: waiting calls and results, and new ones, are answered so', async () => {
    const trigger = budgetTrigger();
    const p = pool({ maxWorkers: 1, budgetTimer: trigger.budgetTimer });
    const held = [
      p.validate(EXPONENTIAL_SCHEMA, nested(40), 'agent'),
      ...[1, 2, 3].map(() => p.checkResult(EXPONENTIAL_SCHEMA, nested(40), 'agent')),
    ];
    const waiting = p.checkResult(EXPONENTIAL_SCHEMA, nested(2), 'agent');
    await p.close();
    expect(await Promise.all([...held.slice(1), waiting])).toEqual([
      { unchecked: 'Airlock is stopping' },
      { unchecked: 'Airlock is stopping' },
      { unchecked: 'Airlock is stopping' },
      { unchecked: 'Airlock is stopping' },
    ]);
    expect(await held[0]).toBe('Airlock is stopping; the call was neither checked nor run.');
    expect(await p.checkResult(WITH_REF, {}, 'agent')).toEqual({
      unchecked: 'Airlock is stopping',
    });
  });

  it('structured content nested too deeply to measure or hand to a worker: unchecked, saying so', async () => {
    const p = pool();
    const deep = nested(100_000);
    const plain = { type: 'object', properties: { c: { type: 'object' } } };
    for (const schema of [plain, WITH_REF])
      expect(await p.checkResult(schema, deep, 'agent')).toEqual({
        unchecked: 'its structured content is nested too deeply for Airlock to check',
      });
    // Arguments as before: a $ref schema's worker could not take them, so the upstream checks them.
    expect(await p.validate(WITH_REF, deep, 'agent')).toBeNull();
  });
});
