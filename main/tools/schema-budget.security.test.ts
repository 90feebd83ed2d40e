import { afterAll, describe, expect, it, vi } from 'vitest';
import { SchemaValidator } from './schema-validator.js';
import { SchemaWorkerPool } from './schema-worker-pool.js';
import {
  budgetTrigger,
  EXPONENTIAL_SCHEMA as EXPONENTIAL,
  nested,
} from '../../test-support/budget-trigger.js';
import { connectClient, CountingSource, startTestApp, textOf } from '../../test-support/harness.js';

/**
 * Issue 17, item 3: a remote server's input schema is attacker-controlled and
 * must not freeze Airlock. No wall-clock assertions: each hostile case either
 * answers (on the old code these ran for minutes and the test timed out) or
 * is shown not to block other work while it runs. A budget runs out when the
 * test pulls its trigger, never because the machine was slow (issue 29 item 2:
 * a cold worker's first compile outran a real 1000 ms budget on a loaded CI box).
 * How long a cold worker's first check takes against the budget is a bench
 * figure (scripts/bench-schema.mjs).
 */

describe('per-keyword cost is bounded', () => {
  const v = new SchemaValidator();

  it('pattern ^(a+)+$ against 40 characters answers (linear-time regex engine)', () => {
    const schema = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } };
    expect(v.validate(schema, { s: 'a'.repeat(40) + '!' })).toMatch(/\/s must match pattern/);
    expect(v.validate(schema, { s: 'a'.repeat(40) })).toBeNull();
  });

  it('patternProperties use the same engine', () => {
    const schema = { type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } } };
    expect(v.validate(schema, { ['a'.repeat(40) + '!']: 'x' })).toBeNull();
    expect(v.validate(schema, { aaa: 'x' })).toMatch(/\/aaa must be number/);
  });

  it('uniqueItems over 20,000 objects answers, and still finds the duplicate', () => {
    const schema = { type: 'object', properties: { a: { type: 'array', uniqueItems: true } } };
    const items = Array.from({ length: 20_000 }, (_, i) => ({ i, nested: { k: [i] } }));
    expect(v.validate(schema, { a: items })).toBeNull();
    // Same value, different key order: JSON Schema equality ignores key order.
    expect(v.validate(schema, { a: [...items, { nested: { k: [7] }, i: 7 }] })).toMatch(
      /duplicate items \(items ## 7 and 20000/,
    );
  });

  it('a huge invalid array gives a short error text', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'array', items: { type: 'string' } } },
    };
    const text = v.validate(schema, { a: Array(100_000).fill(1) })!;
    expect(text).toMatch(/and 99990 more problems$/);
    expect(text.length).toBeLessThan(1000);
  });

  it('a pattern RE2 cannot run (look-ahead) skips local validation rather than backtrack', () => {
    const schema = {
      type: 'object',
      properties: { s: { type: 'string', pattern: '^(?=a)(a+)+$' } },
    };
    expect(v.validate(schema, { s: 'a'.repeat(40) + '!' })).toBeNull();
  });
});

describe('whole validations run off the main thread, within a budget', () => {
  const pools: SchemaWorkerPool[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  it('other validations and the event loop go on while a hostile one runs', async () => {
    const pool = new SchemaWorkerPool({ budgetMs: 600_000, maxWorkers: 2 });
    pools.push(pool);
    let hostileDone = false;
    void pool.validate(EXPONENTIAL, nested(40)).then(() => (hostileDone = true));
    // A second schema with a $ref also goes to a worker; a plain one runs inline.
    const withRef = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/s' } },
      $defs: { s: { type: 'string' } },
    };
    expect(await pool.validate(withRef, { a: 1 })).toMatch(/\/a must be string/);
    expect(await pool.validate({ type: 'object', required: ['q'] }, {})).toMatch(
      /must have required property 'q'/,
    );
    await new Promise((r) => setImmediate(r));
    expect(hostileDone).toBe(false);
  });

  it('a validation over budget is refused with a tool error naming the limit; the pool recovers', async () => {
    const trigger = budgetTrigger();
    const pool = new SchemaWorkerPool({
      budgetMs: 60_000,
      maxWorkers: 1,
      budgetTimer: trigger.budgetTimer,
    });
    pools.push(pool);
    const hostile = pool.validate(EXPONENTIAL, nested(40));
    await trigger.armed();
    trigger.expire();
    expect(await hostile).toMatch(
      /went over Airlock's limits \(60000 ms, 256 MB\), so the call was refused/,
    );
    // A fresh (cold) worker takes the next one; its budget is not run out, however slow the machine.
    expect(await pool.validate(EXPONENTIAL, nested(3))).toMatch(/must have required property/);
  });
});

describe('the budget itself', () => {
  it('by default is a timer of budgetMs, started once the worker has loaded (fake clock)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const pool = new SchemaWorkerPool({ budgetMs: 60_000, maxWorkers: 1 });
    try {
      const hostile = pool.validate(EXPONENTIAL, nested(40));
      // The worker's load is a real event; its budget starts then (one timer).
      while (vi.getTimerCount() === 0) await new Promise((r) => setImmediate(r));
      vi.advanceTimersByTime(59_999);
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(1);
      expect(await hostile).toMatch(/went over Airlock's limits \(60000 ms, 256 MB\)/);
    } finally {
      vi.useRealTimers();
      await pool.close();
    }
  });
});

describe('through the gateway: a hostile upstream schema does not freeze Airlock', () => {
  it('/healthz and another agent answer while the hostile call is being validated', async () => {
    const source = new CountingSource();
    source.defs.push({
      name: 'count_hostile',
      description: 'A tool whose server sent an exponential schema.',
      inputSchema: EXPONENTIAL,
    });
    const trigger = budgetTrigger();
    const t = await startTestApp({
      sources: [source],
      app: { schemaPool: { budgetTimer: trigger.budgetTimer } },
    });
    try {
      const other = (await t.app.control.addAgent('other')).token;
      const hostile = await connectClient(t.started.mcpUrl, t.token);
      const bystander = await connectClient(t.started.mcpUrl, other);
      let hostileDone = false;
      const call = hostile
        .callTool({ name: 'count_hostile', arguments: nested(40) })
        .finally(() => (hostileDone = true));
      const health = await fetch(`${t.started.url}/healthz`);
      expect(health.status).toBe(200);
      const read = await bystander.callTool({ name: 'count_read', arguments: {} });
      expect(textOf(read)).toMatch(/count_read ok/);
      expect(hostileDone).toBe(false);
      await trigger.armed();
      trigger.expire();
      const result = await call;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/Invalid arguments for count_hostile: .*Airlock's limits/);
      expect(source.count('count_hostile')).toBe(0);
      await Promise.all([hostile.close(), bystander.close()]);
    } finally {
      await t.stop();
    }
  });
});

describe('edited arguments are checked within the same budget', () => {
  it('Edit & Allow with arguments that blow up the schema is refused, not a frozen window', async () => {
    const source = new CountingSource();
    source.defs.push({
      name: 'count_hostile',
      description: 'A tool whose server sent an exponential schema.',
      inputSchema: EXPONENTIAL,
    });
    const trigger = budgetTrigger();
    const t = await startTestApp({
      sources: [source],
      settings: { approvals: { waitSeconds: 1 } },
      app: { schemaPool: { budgetTimer: trigger.budgetTimer } },
    });
    try {
      const client = await connectClient(t.started.mcpUrl, t.token);
      // {} fits the schema, so the request reaches the user (the agent is told to call again).
      await client.callTool({ name: 'count_hostile', arguments: {} });
      const [pending] = await t.app.control.listPending();
      const decided = t.app.control.decide(pending!.id, {
        kind: 'allow_edited',
        arguments: nested(40),
      });
      await trigger.armed();
      trigger.expire();
      await expect(decided).rejects.toThrow(/do not fit count_hostile: .*Airlock's limits/);
      expect(source.count('count_hostile')).toBe(0);
      await client.close();
    } finally {
      await t.stop();
    }
  });
});

describe('one agent cannot queue every other agent behind its costly calls', () => {
  it('past 4 costly validations in flight, an agent’s next one is refused; another agent still gets a worker', async () => {
    const pool = new SchemaWorkerPool({ budgetMs: 600_000, maxWorkers: 2 });
    try {
      const hogs = Array.from({ length: 4 }, () => pool.validate(EXPONENTIAL, nested(40), 'hog'));
      void hogs;
      expect(await pool.validate(EXPONENTIAL, nested(40), 'hog')).toMatch(
        /still checking 4 earlier calls of yours/,
      );
    } finally {
      await pool.close();
    }
  });
});
