import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
// The SDK client's default validator on Node (its `_shims` export DefaultJsonSchemaValidator).
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { describe, expect, it, vi } from 'vitest';
import { Logger } from '../platform/log.js';
import { SchemaValidator } from '../tools/schema-validator.js';
import { CHECKED_BY_CALLER } from '../tools/sdk-schema-validators.js';
import { SchemaWorkerPool } from '../tools/schema-worker-pool.js';
import { probeRemote } from './probe.js';
import { RemoteSource } from './remote-source.js';
import { budgetTrigger, EXPONENTIAL_SCHEMA, nested } from '../../test-support/budget-trigger.js';
import { cannedMcp } from '../../test-support/canned-upstream.js';
import { cleanupAfterEach } from '../../test-support/cleanup.js';
import { textOf } from '../../test-support/harness.js';
import { ModernUpstream } from '../../test-support/modern-upstream.js';
import { FAST_REMOTE, startRemoteApp, toolsOffered } from '../../test-support/remote-app.js';

/**
 * A remote tool's `outputSchema` is the upstream's to write, as its input schema is, and checking
 * a result against it is bounded the same way (docs/security.md, "Schemas are evaluated with
 * bounded cost"). The MCP SDK's client checked `structuredContent` against it with its own Ajv and
 * native, backtracking RegExp on Airlock's main thread: `^(a|aa)*$` against n "a"s and a "!" takes
 * time exponential in n (≈ 80 ms at n = 34 here), so one result from a hostile upstream froze every
 * agent and the approval page. On that code the first test below never finishes; the second,
 * which looks at which engine decides, fails at once. No clock decides anything: the budget runs
 * out when the test says so (budgetTrigger).
 */
const cleanup = cleanupAfterEach();

const BACKTRACKS = { type: 'object', properties: { s: { type: 'string', pattern: '^(a|aa)*$' } } };
const HOSTILE_S = 'a'.repeat(5000) + '!';

/**
 * A hand-written 2025 upstream whose one tool declares `outputSchema` and echoes `structured`.
 * Stateless, by default: every agent's call then goes on the connection whose client listed the
 * tools, which is where the SDK's client checked results (an agent's own session never lists).
 */
async function hostileUpstream(
  outputSchema: Record<string, unknown>,
  o: { sse: boolean; session: boolean; resultJson?: string },
) {
  const server = createServer(
    cannedMcp({
      name: 'hostile',
      callResult: null,
      callResultFor: (args) => ({
        content: [{ type: 'text', text: 'looked up' }],
        structuredContent: args.structured,
      }),
      outputSchema,
      sse: o.sse,
      stateless: !o.session,
      ...(o.resultJson !== undefined ? { callResultJson: o.resultJson } : {}),
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/**
 * Airlock with the hostile server added and its tool running without approval, and an agent.
 * The agent's own SDK client checks nothing (CHECKED_BY_CALLER): its default check would run the
 * same hostile pattern in this process, on the agent's side of the gateway.
 */
async function throughAirlock(
  outputSchema: Record<string, unknown>,
  o: {
    sse?: boolean;
    session?: boolean;
    budgetTimer?: ReturnType<typeof budgetTrigger>['budgetTimer'];
  } = {},
) {
  const t = await startRemoteApp(
    o.budgetTimer ? { schemaPool: { budgetTimer: o.budgetTimer } } : {},
  );
  cleanup.push(() => t.stop());
  await t.app.control.addRemote({
    name: 'hostile',
    url: await hostileUpstream(outputSchema, { sse: o.sse ?? false, session: o.session ?? false }),
  });
  await toolsOffered(t.app, ['hostile__echo']);
  await t.app.control.setToolPolicy('hostile__echo', {
    approval: 'auto',
    confirmDestructive: true,
  });
  const agent = new Client(
    { name: 'agent', version: '1' },
    { jsonSchemaValidator: CHECKED_BY_CALLER },
  );
  await agent.connect(
    new StreamableHTTPClientTransport(new URL(t.started.mcpUrl), {
      requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
    }),
  );
  cleanup.push(() => agent.close());
  const call = (structured: unknown) =>
    agent.callTool({ name: 'hostile__echo', arguments: { structured } });
  return { t, call };
}

describe.each([
  ['JSON answers', false, false],
  ['SSE answers', true, false],
  // An agent's own upstream session: the SDK never checked these (its client never listed tools).
  ['an agent session of its own', false, true],
])('a hostile output schema through Airlock (%s)', (_how, sse, session) => {
  it('a result that makes its pattern backtrack gets a prompt, clear refusal; a matching one goes through', async () => {
    const { call } = await throughAirlock(BACKTRACKS, { sse, session });
    const refused = await call({ s: HOSTILE_S });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(
      `The remote server "hostile" answered with structured content that does not match its tool's output schema, which Airlock did not pass on. The call itself ran on the server`,
    );
    expect(textOf(refused).endsWith('\n/s must match pattern "^(a|aa)*$"')).toBe(true);
    expect(textOf(refused)).not.toContain('looked up');
    expect(refused.structuredContent).toBeUndefined();

    const fine = await call({ s: 'a'.repeat(5000) });
    expect(fine.isError).toBeFalsy();
    expect(fine.structuredContent).toEqual({ s: 'a'.repeat(5000) });
    expect(textOf(fine)).toContain('looked up');
  });
});

describe('which engine decides', () => {
  /** A look-ahead: JavaScript's RegExp runs it, RE2 cannot express it. */
  const LOOKAHEAD = { type: 'object', properties: { s: { type: 'string', pattern: '^(?=b)' } } };

  it("a pattern RE2 cannot express is not checked, as on the input side — the SDK's engine refused it", async () => {
    // The two engines disagree on this value: the SDK's default refuses it, Airlock's validator —
    // which checks every agent's arguments — cannot compile the schema and leaves it unchecked.
    expect(new AjvJsonSchemaValidator().getValidator(LOOKAHEAD)({ s: 'a' }).valid).toBe(false);
    expect(new SchemaValidator().validate(LOOKAHEAD, { s: 'a' })).toBeNull();

    const { call } = await throughAirlock(LOOKAHEAD);
    const r = await call({ s: 'a' });
    expect(textOf(r)).toContain('looked up');
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual({ s: 'a' });
  });
});

describe('recursive $ref fan-out in an output schema', () => {
  it('is checked off the main thread, within the budget: Airlock answers meanwhile, then refuses the result', async () => {
    const trigger = budgetTrigger();
    const { t, call } = await throughAirlock(EXPONENTIAL_SCHEMA, {
      budgetTimer: trigger.budgetTimer,
    });
    let done = false;
    const pending = call(nested(40)).finally(() => (done = true));
    // The check is running in a worker (its budget started); the main thread still serves.
    await trigger.armed();
    expect((await fetch(`${t.started.url}/healthz`)).status).toBe(200);
    expect(done).toBe(false);
    trigger.expire();
    const r = await pending;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(
      /The remote server "hostile" answered, but Airlock could not check the result against its tool's output schema and did not pass it on: checking it went over Airlock's limits \(600000 ms, 256 MB\).*The call itself ran on the server/,
    );
    expect(textOf(r)).not.toContain('looked up');
  });
});

describe('structured content nested deeper than Airlock can measure', () => {
  it('is refused with a clear tool error that says the call ran, on either side of the pool', async () => {
    // 100,000 levels: JSON.parse reads it; JSON.stringify and structured clone throw RangeError.
    const deep = '{"c":'.repeat(100_000) + '{}' + '}'.repeat(100_000);
    const resultJson = `{"content":[{"type":"text","text":"looked up"}],"structuredContent":${deep}}`;
    const ctx = { agent: 'a', signal: new AbortController().signal };
    // Inline (no $ref: measured first) and in a worker (a $ref: handed over as it is).
    for (const schema of [BACKTRACKS, EXPONENTIAL_SCHEMA]) {
      const url = await hostileUpstream(schema, { sse: false, session: false, resultJson });
      const source = new RemoteSource(
        { name: 'deep', url, headers: {} },
        { logger: new Logger({ stderr: false }), version: 'test', timings: FAST_REMOTE },
      );
      cleanup.push(() => source.stop());
      source.start();
      await source.settled();
      const r = await source.call('echo', {}, ctx);
      expect(r.isError).toBe(true);
      // Refused where it is parsed now (upstream/json-values.ts, MAX_JSON_DEPTH), before the
      // schema check's own depth guard: the same promise, that the call ran.
      expect(textOf(r)).toBe(
        `The remote server "deep" answered, but Airlock did not read the answer: the server sent a message nested deeper than 128 levels; Airlock did not parse it. The call itself ran on the server; check before trying again.`,
      );
    }
  });
});

describe('a 2026-07-28 upstream', () => {
  it('has its tool results checked the same way', async () => {
    const up = await ModernUpstream.start(['shaped']);
    cleanup.push(() => up.kill());
    const source = new RemoteSource(
      { name: 'modern', url: up.url, headers: {} },
      { logger: new Logger({ stderr: false }), version: 'test', timings: FAST_REMOTE },
    );
    cleanup.push(() => source.stop());
    source.start();
    await source.settled();
    expect(source.info().protocolVersion).toBe('2026-07-28');
    const ctx = { agent: 'a', signal: new AbortController().signal };
    const refused = await source.call('shaped', { s: HOSTILE_S }, ctx);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(
      `The remote server "modern" answered with structured content that does not match its tool's output schema`,
    );
    const fine = await source.call('shaped', { s: 'aaaa' }, ctx);
    expect(fine.isError).toBeFalsy();
    expect(fine.structuredContent).toEqual({ s: 'aaaa' });
  });
});

describe('airlock remote probe', () => {
  const probe = (url: string, structured: unknown, schemaChecks?: SchemaWorkerPool) =>
    probeRemote({
      url: new URL(url),
      headers: {},
      timeoutMs: 10 * 60_000,
      version: 'test',
      call: { name: 'echo', arguments: { structured } },
      ...(schemaChecks ? { schemaChecks } : {}),
    });

  it("checks its one call's result through the schema pool, not the SDK's validator", async () => {
    const url = await hostileUpstream(BACKTRACKS, { sse: false, session: false });
    const pool = new SchemaWorkerPool();
    cleanup.push(() => pool.close());
    const checks = vi.spyOn(pool, 'checkResult');
    const fine = await probe(url, { s: 'aaaa' }, pool);
    expect(fine.ok).toBe(true);
    expect(fine.callResult?.structuredContent).toEqual({ s: 'aaaa' });
    expect(checks).toHaveBeenCalledWith(BACKTRACKS, { s: 'aaaa' });
    // The pool's own (made and closed for the call), on the backtracking pattern.
    const refused = await probe(url, { s: HOSTILE_S });
    expect(refused.ok).toBe(false);
    expect(refused.detail).toBe(
      'Structured content does not match the tool\'s output schema: /s must match pattern "^(a|aa)*$"',
    );
  });

  it('a recursive $ref fan-out runs in a worker, within the budget, then is refused', async () => {
    const url = await hostileUpstream(EXPONENTIAL_SCHEMA, { sse: false, session: false });
    const trigger = budgetTrigger();
    const pool = new SchemaWorkerPool({ budgetTimer: trigger.budgetTimer });
    cleanup.push(() => pool.close());
    const pending = probe(url, nested(40), pool);
    await trigger.armed();
    trigger.expire();
    const r = await pending;
    expect(r.ok).toBe(false);
    expect(r.detail).toMatch(
      /^Could not check the structured content against the tool's output schema: checking it went over Airlock's limits/,
    );
  });
});
