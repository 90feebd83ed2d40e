import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_METHODS, type ControlMethod } from '../../common/contract/index.js';
import { startTestApp, tempDir, type TestApp } from '../../test-support/harness.js';

/**
 * Issue 27, item 8: `listActivity` with an object where a scalar belongs reached SQLite's binder
 * and answered 500. Every control method's arguments are checked against the contract's types
 * first: a wrong shape is a 400 INVALID naming the argument, never a 500, and changes nothing.
 */
let t: TestApp;
let controlToken: string;

beforeAll(async () => {
  const home = tempDir('airlock-params-home-');
  t = await startTestApp({
    // The clients methods read and write MCP apps' config files: here, under a temp home only.
    app: { clientsEnv: { home, platform: 'linux' } },
  });
  controlToken = new URL(t.started.controlUrl).hash.replace('#token=', '');
});
afterAll(async () => {
  await t.stop();
});

async function rpc(
  method: string,
  params: unknown,
): Promise<{ status: number; body: { error?: string; message?: string } }> {
  const res = await fetch(`${t.started.url}/api/rpc`, {
    method: 'POST',
    headers: { authorization: `Bearer ${controlToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ method, params }),
  });
  return { status: res.status, body: (await res.json()) as { error?: string; message?: string } };
}

describe('control API arguments are checked before anything acts on them', () => {
  it('listActivity with an object where text belongs: 400 INVALID naming it, not 500', async () => {
    for (const filter of [
      { agent: {} },
      { tool: ['x'] },
      { limit: { n: 1 } },
      { beforeId: 'abc' },
      { limit: 1.5 },
    ]) {
      const r = await rpc('listActivity', [filter]);
      expect(r.status, JSON.stringify(filter)).toBe(400);
      expect(r.body.error).toBe('INVALID');
      expect(r.body.message).toMatch(
        /^listActivity: argument 1 (agent|tool|limit|beforeId): expected/,
      );
    }
    // The well-formed calls of every caller still work: no filter, null (an omitted argument), a filter.
    expect((await rpc('listActivity', [])).status).toBe(200);
    expect((await rpc('listActivity', [null])).status).toBe(200);
    expect((await rpc('listActivity', [{ agent: 'test', limit: 5, beforeId: 10 }])).status).toBe(
      200,
    );
  });

  it('a string where a flag belongs, an object where a name belongs, too many arguments', async () => {
    expect((await rpc('setPaused', ['yes'])).status).toBe(400);
    expect((await rpc('revokeAgent', [{ name: 'test' }])).status).toBe(400);
    expect((await rpc('listPending', [1, 2, 3])).body.message).toMatch(/takes no arguments/);
    expect((await rpc('setAgentTools', ['test', 'count_read'])).status).toBe(400);
    // A tool named with the key it was listed under: both as text, nothing else.
    for (const item of [{ name: 'count_read' }, { name: 'count_read', key: 1 }, 5, ['x']]) {
      const r = await rpc('setAgentTools', ['test', [item]]);
      expect(r.status, JSON.stringify(item)).toBe(400);
      expect(r.body.message).toMatch(/^setAgentTools: argument 2 \[0\]/);
    }
    expect(
      (
        await rpc('setAgentTools', [
          'test',
          [{ name: 'count_read', key: 'count/count_read', x: 1 }],
        ])
      ).body.message,
    ).toMatch(/x: not a known key/);
    expect(t.app.agents.get('test')!.tools).toBeUndefined();
    expect((await t.app.control.getStatus()).paused).toBe(false);
    expect(t.app.agents.get('test')).toBeDefined();
  });

  it('fuzz: every method with arguments of every JSON type answers below 500 and logs no failure', async () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.integer(),
        fc.double(),
        fc.string({ maxLength: 8 }),
        fc.constantFrom(
          'test',
          'x',
          '',
          '__proto__',
          'constructor',
          'count_read',
          'count/count_read',
        ),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(
          fc.constantFrom('agent', 'tool', 'limit', 'beforeId', 'name', 'key', 'url', 'kind', 'x'),
          tie('value'),
          { maxKeys: 3 },
        ),
      ),
    })).value;
    // Methods that would reach the network, a browser or files outside the profile (a project
    // folder named by a relative path) with a value that happens to fit.
    const outward = new Set<ControlMethod>([
      'startGoogleConnect',
      'loginRemote',
      'testRemote',
      'listClients',
      'importClients',
      'connectClient',
    ]);
    const methods = CONTROL_METHODS.filter((m) => !outward.has(m));
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...methods),
        fc.array(json, { maxLength: 3 }),
        async (method, params) => {
          // Wrong shapes only: a method's own well-typed input may act (that is not this test).
          const r = await rpc(method, params);
          if (r.status >= 500)
            failures.push(`${method} ${JSON.stringify(params)} → ${r.status} ${r.body.message}`);
          return r.status < 500;
        },
      ),
      { numRuns: 600, seed: 0x27_08 },
    );
    expect(failures).toEqual([]);
    const logs = join(t.dataDir, 'logs');
    const logged = readdirSync(logs)
      .map((f) => readFileSync(join(logs, f), 'utf8'))
      .join('\n')
      .split('\n')
      .filter((l) => /control call failed/.test(l));
    expect(logged).toEqual([]);
  }, 120_000);
});
